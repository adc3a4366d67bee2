import { createHash } from "node:crypto";
import http from "node:http";

/**
 * The same-run baseline: raw node:http with hand-written SQL and hand-built JSON, doing the same
 * work as the service (key lookup, then the data) and answering the same bytes.
 */
export type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

async function authenticate(query: Query, req: http.IncomingMessage): Promise<number | undefined> {
  const key = req.headers.authorization;
  if (!key) return undefined;
  const rows = await query<{ account_id: number }>(`SELECT account_id FROM api_key WHERE key_hash = $1`, [
    createHash("sha256").update(key).digest("hex"),
  ]);
  return rows[0]?.account_id;
}

/** DECIMAL text without trailing zeros ("10.0000" → "10", "2.5000" → "2.5"), as the service writes it. */
const pct = (v: unknown) => {
  const s = String(v);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
};

export function baselineServer(query: Query): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const accountId = await authenticate(query, req);
      if (!accountId) return void res.writeHead(401).end();
      if (req.method === "GET" && req.url === "/v1/sources") {
        const rows = await query<{ id: string; name: string }>(`SELECT id, name FROM source ORDER BY name`);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(rows));
        return;
      }
      if (req.method === "POST" && req.url === "/graphql") {
        // The nested query's data, fetched by hand: portfolios, their live models, their buckets.
        const portfolios = await query<{ id: number; name: string }>(
          `SELECT id, name FROM portfolio WHERE account_id = $1 ORDER BY id`,
          [accountId],
        );
        const models = await query<{
          id: number;
          public_id: string;
          portfolio_id: number;
          name: string;
          is_active: boolean;
        }>(
          `SELECT id, public_id, portfolio_id, name, is_active FROM allocation_model WHERE portfolio_id = ANY($1) AND deleted_at IS NULL ORDER BY created_at, id`,
          [portfolios.map((p) => p.id)],
        );
        const buckets = await query<{
          model_id: number;
          label: string;
          target_pct: string;
          tolerance_pct: string;
          sort_order: number;
        }>(
          `SELECT model_id, label, target_pct, tolerance_pct, sort_order FROM allocation_bucket WHERE model_id = ANY($1) ORDER BY sort_order, label`,
          [models.map((m) => m.id)],
        );
        const bucketsOf = new Map<number, unknown[]>();
        for (const b of buckets) {
          const list = bucketsOf.get(b.model_id) ?? [];
          list.push({
            label: b.label,
            targetPct: pct(b.target_pct),
            tolerancePct: pct(b.tolerance_pct),
            sortOrder: b.sort_order,
          });
          bucketsOf.set(b.model_id, list);
        }
        const data = {
          portfolios: portfolios.map((p) => ({
            id: String(p.id),
            name: p.name,
            allocationModels: models
              .filter((m) => m.portfolio_id === p.id)
              .map((m) => ({
                publicId: m.public_id,
                name: m.name,
                isActive: m.is_active,
                buckets: bucketsOf.get(m.id) ?? [],
              })),
          })),
        };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
        return;
      }
      const holdingsPath = /^\/v1\/portfolios\/(\d+)\/holdings$/.exec(req.url ?? "");
      if (req.method === "GET" && holdingsPath) {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify(await holdings(query, accountId, Number(holdingsPath[1]))));
        return;
      }
      const performancePath = /^\/v1\/portfolios\/(\d+)\/performance\?from=([\d-]+)&to=([\d-]+)$/.exec(req.url ?? "");
      if (req.method === "GET" && performancePath) {
        const answer = await performance(
          query,
          accountId,
          Number(performancePath[1]),
          performancePath[2],
          performancePath[3],
        );
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return;
      }
      const importPath = /^\/v1\/portfolios\/(\d+)\/trades\/import$/.exec(req.url ?? "");
      if (req.method === "POST" && importPath) {
        const body = JSON.parse(await readBody(req)) as {
          symbol: string;
          exchange: string;
          tradeType: string;
          tradeDate: string;
          quantity: number;
          price: number;
          brokerage?: number;
        }[];
        const ids = await importRows(query, Number(importPath[1]), body);
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ imported: ids }));
        return;
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Holdings with quantity, FIFO cost base and market value from raw SQL and a plain Float64 FIFO:
 * the reference the service's Decimal parcel fold is compared with.
 */
async function holdings(query: Query, accountId: number, portfolioId: number) {
  const hs = await query<{ id: number; symbol: string; exchange: string; name: string }>(
    `SELECT h.id, h.symbol, h.exchange, h.name FROM holding h JOIN portfolio p ON p.id = h.portfolio_id WHERE h.portfolio_id = $1 AND p.account_id = $2 ORDER BY symbol, exchange, id`,
    [portfolioId, accountId],
  );
  const trades = await query<{
    holding_id: number;
    trade_type: string;
    quantity: string;
    price: string;
    brokerage: string;
  }>(
    `SELECT holding_id, trade_type, quantity, price, brokerage FROM trade WHERE portfolio_id = $1 ORDER BY trade_date, id`,
    [portfolioId],
  );
  const prices = await query<{ symbol: string; exchange: string; close: string }>(
    `SELECT DISTINCT ON (symbol, exchange) symbol, exchange, close FROM market_price WHERE account_id = $1 ORDER BY symbol, exchange, date DESC`,
    [accountId],
  );
  const parcels = new Map<number, { units: number; cost: number }[]>();
  for (const t of trades) {
    const list = parcels.get(t.holding_id) ?? [];
    parcels.set(t.holding_id, list);
    const q = Math.abs(Number(t.quantity));
    if (t.trade_type === "Buy") list.push({ units: q, cost: q * Number(t.price) + Number(t.brokerage) });
    else {
      let left = q;
      for (const p of list) {
        if (left === 0) break;
        if (p.units === 0) continue;
        const take = Math.min(p.units, left);
        p.cost -= (p.cost * take) / p.units;
        p.units -= take;
        left -= take;
      }
    }
  }
  const priceOf = new Map(prices.map((p) => [`${p.symbol}|${p.exchange}`, Number(p.close)]));
  return hs.map((h) => {
    const open = parcels.get(h.id) ?? [];
    const quantity = open.reduce((s, p) => s + p.units, 0);
    const costBase = Math.round(open.reduce((s, p) => s + p.cost, 0) * 1e4) / 1e4;
    const price = priceOf.get(`${h.symbol}|${h.exchange}`) ?? 0;
    return {
      id: h.id,
      symbol: h.symbol,
      exchange: h.exchange,
      name: h.name,
      quantity,
      costBase,
      price,
      marketValue: quantity * price,
      unrealisedGain: quantity * price - costBase,
    };
  });
}

/** The same rows written with one INSERT … SELECT FROM unnest, after creating missing holdings. */
async function importRows(
  query: Query,
  portfolioId: number,
  rows: {
    symbol: string;
    exchange: string;
    tradeType: string;
    tradeDate: string;
    quantity: number;
    price: number;
    brokerage?: number;
  }[],
) {
  const symbols = [...new Set(rows.map((r) => `${r.symbol}|${r.exchange}`))];
  await query(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
     SELECT $1, split_part(s, '|', 1), split_part(s, '|', 2), split_part(s, '|', 1), 'AUD', 'Stock', now() FROM unnest($2::text[]) s
     ON CONFLICT DO NOTHING`,
    [portfolioId, symbols],
  );
  const hs = await query<{ id: number; symbol: string; exchange: string }>(
    `SELECT id, symbol, exchange FROM holding WHERE portfolio_id = $1`,
    [portfolioId],
  );
  const idOf = new Map(hs.map((h) => [`${h.symbol}|${h.exchange}`, h.id]));
  const inserted = await query<{ id: number }>(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, r.h, r.t::"TradeType", r.d, r.q, r.p, r.b, 'AUD', 1, now()
     FROM unnest($2::int[], $3::text[], $4::date[], $5::numeric[], $6::numeric[], $7::numeric[]) AS r(h, t, d, q, p, b) RETURNING id`,
    [
      portfolioId,
      rows.map((r) => idOf.get(`${r.symbol}|${r.exchange}`)),
      rows.map((r) => r.tradeType),
      rows.map((r) => r.tradeDate),
      rows.map((r) => (r.tradeType === "Sell" ? -Math.abs(r.quantity) : r.quantity)),
      rows.map((r) => r.price),
      rows.map((r) => r.brokerage ?? 0),
    ],
  );
  return inserted.length;
}

/**
 * B6's baseline: a portfolio's time-weighted return and Modified Dietz over a period from raw SQL
 * and one hand-written Float64 pass over every day from its first trade: units by trade, latest
 * market price (else the last trade's) and USD/AUD rate by day, trades as the flows (buys in at
 * the start of their day, sales out at its end), the daily chain from `from`. What the service
 * computes for a portfolio of trades without cash accounts or income, with none of its checks.
 */
async function performance(query: Query, accountId: number, portfolioId: number, from: string, to: string) {
  const [holdings, trades, prices, rates] = await Promise.all([
    query<{ id: number; symbol: string; exchange: string; currency_code: string }>(
      `SELECT h.id, h.symbol, h.exchange, h.currency_code FROM holding h JOIN portfolio p ON p.id = h.portfolio_id WHERE h.portfolio_id = $1 AND p.account_id = $2 ORDER BY h.id`,
      [portfolioId, accountId],
    ),
    query<{
      holding_id: number;
      trade_date: string;
      trade_type: string;
      quantity: number;
      price: number;
      brokerage: number;
    }>(
      `SELECT holding_id, trade_date::text, trade_type::text, quantity::float8 AS quantity, price::float8 AS price, brokerage::float8 AS brokerage FROM trade WHERE portfolio_id = $1 AND trade_date <= $2::date ORDER BY trade_date, id`,
      [portfolioId, to],
    ),
    query<{ symbol: string; exchange: string; date: string; close: number }>(
      `SELECT symbol, exchange, date::text, close::float8 AS close FROM market_price WHERE account_id = $1 AND date <= $2::date ORDER BY date`,
      [accountId, to],
    ),
    query<{ date: string; rate: number }>(
      `SELECT date::text, rate::float8 AS rate FROM fx_rate WHERE account_id = $1 AND base = 'USD' AND quote = 'AUD' AND date <= $2::date ORDER BY date`,
      [accountId, to],
    ),
  ]);
  const DAY = 86_400_000;
  const start = Date.parse((trades[0]?.trade_date ?? from) + "T00:00:00Z");
  const dayOf = (d: string) => (Date.parse(d + "T00:00:00Z") - start) / DAY;
  const first = dayOf(from);
  const last = dayOf(to);
  const index = new Map(holdings.map((h, i) => [h.id, i]));
  const bySymbol = new Map(holdings.map((h, i) => [`${h.symbol}|${h.exchange}`, i]));
  const usd = holdings.map((h) => h.currency_code === "USD");
  const units = new Float64Array(holdings.length);
  const market = new Float64Array(holdings.length).fill(NaN);
  const traded = new Float64Array(holdings.length).fill(NaN);
  let rate = NaN;
  let ti = 0;
  let pi = 0;
  let ri = 0;
  let previous = 0;
  let growth = 1;
  let opening = 0;
  let closing = 0;
  let net = 0;
  let weighted = 0;
  for (let d = 0; d <= last; d++) {
    while (ri < rates.length && dayOf(rates[ri].date) <= d) rate = rates[ri++].rate;
    while (pi < prices.length && dayOf(prices[pi].date) <= d) {
      const h = bySymbol.get(`${prices[pi].symbol}|${prices[pi].exchange}`);
      if (h !== undefined) market[h] = prices[pi].close;
      pi++;
    }
    let inflow = 0;
    let outflow = 0;
    for (; ti < trades.length && dayOf(trades[ti].trade_date) <= d; ti++) {
      const t = trades[ti];
      const h = index.get(t.holding_id)!;
      const r = usd[h] ? rate : 1;
      units[h] += t.quantity;
      traded[h] = t.price;
      const gross = Math.abs(t.quantity) * t.price;
      if (t.trade_type === "Buy") inflow += (gross + t.brokerage) * r;
      else outflow += (gross - t.brokerage) * r;
    }
    let value = 0;
    for (let h = 0; h < units.length; h++)
      if (units[h] !== 0) value += units[h] * (Number.isNaN(market[h]) ? traded[h] : market[h]) * (usd[h] ? rate : 1);
    if (d === first - 1) opening = value;
    if (d >= first) {
      const base = previous + inflow;
      if (base !== 0) growth *= (value + outflow) / base;
      net += inflow - outflow;
      weighted += inflow * (last - d + 1) - outflow * (last - d);
    }
    previous = value;
    closing = value;
  }
  const days = last - first + 1;
  const dietz = (closing - opening - net) / (opening + weighted / days);
  return {
    timeWeightedReturn: { cumulativePercent: (growth - 1) * 100 },
    modifiedDietz: { cumulativePercent: dietz * 100 },
    openingValue: opening,
    totalValue: closing,
  };
}
