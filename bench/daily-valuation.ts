import type { Database } from "../src/db";
import { dailyValuation, loadValuationRange, type RangePortfolio } from "../src/modules/ledger";

/**
 * B12: the daily valuation of a portfolio with 50 holdings (25 in USD), 20,000 trades and ten
 * years of daily prices and USD/AUD rates, in-process, against a same-run hand-written baseline
 * over the same rows: plain SELECTs through the same connection and one Float64 pass (units by
 * trade, latest price and rate by day, value = units × price × rate). Both are timed load and
 * compute separately; the ratio is baseline time / service time (1 = as fast as the baseline).
 */
const FROM = "2015-01-01";
const TO = "2024-12-31";

export async function seedDailyValuation(db: Database, accountId: number): Promise<RangePortfolio> {
  const [p] = await db.prisma.$queryRawUnsafe<RangePortfolio[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     VALUES ($1, 'Daily valuation', 'AUD', 'AU', 'Individual', '06-30', now())
     RETURNING id, account_id AS "accountId", base_currency_code AS "baseCurrencyCode", financial_year_end AS "financialYearEnd", default_method::text AS "defaultMethod", entity_type::text AS "entityType"`,
    accountId,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
     SELECT $1, 'V' || lpad(h::text, 3, '0'), CASE WHEN h % 2 = 0 THEN 'NASDAQ' ELSE 'ASX' END, 'Valued ' || h, CASE WHEN h % 2 = 0 THEN 'USD' ELSE 'AUD' END, 'Stock', now()
     FROM generate_series(1, 50) h`,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, h.id, CASE WHEN t % 3 = 2 THEN 'Sell'::"TradeType" ELSE 'Buy'::"TradeType" END,
            DATE '2015-01-01' + (t * 9), CASE WHEN t % 3 = 2 THEN -10 ELSE 10 END,
            round((10 + (t % 17) * 0.5 + h.id % 7)::numeric, 2), 9.95, h.currency_code, CASE WHEN h.currency_code = 'USD' THEN 1.45 ELSE 1 END, now()
     FROM holding h, generate_series(0, 399) t WHERE h.portfolio_id = $1 ORDER BY t, h.id`,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO market_price (account_id, symbol, exchange, date, close)
     SELECT $1, h.symbol, h.exchange, d::date, round((20 + 5 * sin(extract(epoch FROM d) / 8e6 + h.id) + h.id % 11)::numeric, 4)
     FROM holding h, generate_series(DATE '${FROM}', DATE '${TO}', interval '1 day') d
     WHERE h.portfolio_id = $2 AND extract(isodow FROM d) < 6`,
    accountId,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO fx_rate (account_id, base, quote, date, rate)
     SELECT $1, 'USD', 'AUD', d::date, round((1.4 + 0.1 * sin(extract(epoch FROM d) / 5e6))::numeric, 6)
     FROM generate_series(DATE '${FROM}', DATE '${TO}', interval '1 day') d WHERE extract(isodow FROM d) < 6`,
    accountId,
  );
  return p;
}

/** The hand-written baseline: same rows, plain SELECTs, one Float64 pass. Returns the last day's total. */
async function baseline(db: Database, p: RangePortfolio): Promise<{ loadMs: number; computeMs: number; last: number }> {
  const t0 = performance.now();
  const [holdings, trades, prices, rates] = await Promise.all([
    db.prisma.$queryRawUnsafe<{ id: number; symbol: string; exchange: string; currency_code: string }[]>(
      `SELECT id, symbol, exchange, currency_code FROM holding WHERE portfolio_id = $1 ORDER BY id`,
      p.id,
    ),
    db.prisma.$queryRawUnsafe<{ holding_id: number; trade_date: string; quantity: string }[]>(
      `SELECT holding_id, trade_date::text, quantity::text FROM trade WHERE portfolio_id = $1 AND trade_date <= $2::date ORDER BY trade_date, id`,
      p.id,
      TO,
    ),
    db.prisma.$queryRawUnsafe<{ symbol: string; exchange: string; date: string; close: string }[]>(
      `SELECT symbol, exchange, date::text, close::text FROM market_price WHERE account_id = $1 AND date <= $2::date ORDER BY date`,
      p.accountId,
      TO,
    ),
    db.prisma.$queryRawUnsafe<{ date: string; rate: string }[]>(
      `SELECT date::text, rate::text FROM fx_rate WHERE account_id = $1 AND base = 'USD' AND quote = 'AUD' AND date <= $2::date ORDER BY date`,
      p.accountId,
      TO,
    ),
  ]);
  const t1 = performance.now();
  const dayOf = (d: string) => (Date.parse(d + "T00:00:00Z") - Date.parse(FROM + "T00:00:00Z")) / 86_400_000;
  const n = dayOf(TO) + 1;
  const index = new Map(holdings.map((h, i) => [h.id, i]));
  const bySymbol = new Map(holdings.map((h, i) => [`${h.symbol}|${h.exchange}`, i]));
  const units = new Float64Array(holdings.length);
  const price = new Float64Array(holdings.length).fill(NaN);
  const total = new Float64Array(n);
  let ti = 0;
  let pi = 0;
  let ri = 0;
  let rate = NaN;
  for (let d = 0; d < n; d++) {
    while (ti < trades.length && dayOf(trades[ti].trade_date) <= d)
      units[index.get(trades[ti].holding_id)!] += Number(trades[ti++].quantity);
    while (pi < prices.length && dayOf(prices[pi].date) <= d)
      price[bySymbol.get(`${prices[pi].symbol}|${prices[pi].exchange}`)!] = Number(prices[pi++].close);
    while (ri < rates.length && dayOf(rates[ri].date) <= d) rate = Number(rates[ri++].rate);
    let sum = 0;
    for (let h = 0; h < holdings.length; h++)
      if (units[h] !== 0) sum += units[h] * price[h] * (holdings[h].currency_code === "USD" ? rate : 1);
    total[d] = sum;
  }
  return { loadMs: t1 - t0, computeMs: performance.now() - t1, last: total[n - 1] };
}

async function service(db: Database, p: RangePortfolio): Promise<{ loadMs: number; computeMs: number; last: number }> {
  const t0 = performance.now();
  const input = await loadValuationRange(db.prisma, p, FROM, TO);
  const t1 = performance.now();
  const v = dailyValuation(input);
  return { loadMs: t1 - t0, computeMs: performance.now() - t1, last: v.total[v.total.length - 1] };
}

export async function dailyValuationWorkload(
  db: Database,
  p: RangePortfolio,
  rounds: number,
  database: string,
): Promise<void> {
  const runs = {
    service: [] as Awaited<ReturnType<typeof service>>[],
    baseline: [] as Awaited<ReturnType<typeof baseline>>[],
  };
  // Warm-up, and correctness first: both value the last day alike (the baseline has no cash or income here).
  const [s0, b0] = [await service(db, p), await baseline(db, p)];
  if (Math.abs(s0.last - b0.last) > 0.01)
    throw new Error(`B12: last day's value differs: service ${s0.last} vs baseline ${b0.last}`);
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      runs.service.push(await service(db, p));
      runs.baseline.push(await baseline(db, p));
    } else {
      runs.baseline.push(await baseline(db, p));
      runs.service.push(await service(db, p));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const round = (x: number) => Math.round(x * 10) / 10;
  const sum = (x: { loadMs: number; computeMs: number }) => x.loadMs + x.computeMs;
  const s = {
    loadMs: round(median(runs.service.map((x) => x.loadMs))),
    computeMs: round(median(runs.service.map((x) => x.computeMs))),
    totalMs: round(median(runs.service.map(sum))),
  };
  const b = {
    loadMs: round(median(runs.baseline.map((x) => x.loadMs))),
    computeMs: round(median(runs.baseline.map((x) => x.computeMs))),
    totalMs: round(median(runs.baseline.map(sum))),
  };
  console.log(
    JSON.stringify({
      workload: "B12 daily valuation, 50 holdings × 20,000 trades × 10 years of daily prices and FX (in-process)",
      database,
      node: process.version,
      days: 3653,
      service: s,
      baseline: b,
      ratio: Math.round((b.totalMs / s.totalMs) * 1000) / 1000,
      computeRatio: Math.round((b.computeMs / s.computeMs) * 1000) / 1000,
      lastDayValue: { service: Math.round(s0.last * 100) / 100, baseline: Math.round(b0.last * 100) / 100 },
      rounds,
    }),
  );
}
