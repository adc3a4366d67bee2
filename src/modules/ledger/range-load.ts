import type { Prisma } from "../../../generated/prisma/client";
import { fromDate, toDate } from "../../lib/dates";
import { Slicer } from "../../lib/slices";
import type { Decimal } from "../../lib/money";
import type { ValuationHolding, ValuationInput } from "./daily-valuation";
import { DatedSeries } from "./dated-series";
import { FxTable } from "./fx";
import { unitsTimeline } from "./fold";
import { loadLedgers, type PortfolioTaxInfo } from "./load";
import { HoldingPrices } from "./prices";
import { READ_LIMITS } from "./read-limits";

/**
 * Range loading: everything the daily valuation engine needs for a portfolio and a period, in a
 * fixed number of statements whatever the number of days or holdings. Positions need the whole
 * history up to `to`; prices and rates need the latest point on or before `from` (the first day's
 * value) and every point after it. Long series come back as one text row per series, parsed here.
 */
export interface RangePortfolio extends PortfolioTaxInfo {
  accountId: number;
  baseCurrencyCode: string;
}

/**
 * A series aggregated as two texts, "d1,d2,…" and "v1,v2,…", both in date order, one point per
 * date (the tables' keys say so): two splits, no object per point.
 */
function series(dates: string | null, values: string | null): DatedSeries<string> {
  return dates && values ? DatedSeries.sorted(dates.split(","), values.split(",")) : DatedSeries.sorted([], []);
}

/** A holding as the range load read it: what values it, and what describes it (for grouping). */
export interface RangeHolding extends ValuationHolding {
  symbol: string;
  exchange: string;
  name: string;
  holdingType: string;
  assetClass: string | null;
  sector: string | null;
  industry: string | null;
}

export interface ValuationRange extends ValuationInput {
  holdings: RangeHolding[];
}

/**
 * The market price series of the holdings' securities: the latest close on or before `fromDay`
 * and every close after it up to `toDay`, one text row per security. Driven from the holdings,
 * one index range per security: a plan that stays right on a database whose planner statistics
 * are missing or stale (the embedded one has no autovacuum). Securities are read in groups of
 * about READ_LIMITS.priceRowsPerStatement prices (one group for a year of ninety securities).
 */
async function marketSeries(
  db: Prisma.TransactionClient,
  accountId: number,
  holdings: Promise<{ symbol: string; exchange: string }[]>,
  fromDay: Date,
  toDay: Date,
): Promise<{ symbol: string; exchange: string; dates: string; values: string }[]> {
  const securities = [...new Map((await holdings).map((h) => [`${h.symbol}|${h.exchange}`, h])).values()];
  const tradingDays = Math.max(1, ((toDay.getTime() - fromDay.getTime()) / 86_400_000) * (5 / 7));
  const perStatement = Math.max(1, Math.floor(READ_LIMITS.priceRowsPerStatement / tradingDays));
  const groups: { symbol: string; exchange: string }[][] = [];
  for (let i = 0; i < securities.length; i += perStatement) groups.push(securities.slice(i, i + perStatement));
  const read = (group: { symbol: string; exchange: string }[]) => db.$queryRaw<
    { symbol: string; exchange: string; dates: string; values: string }[]
  >`
      SELECT h.symbol, h.exchange, p.dates, p."values"
      FROM unnest(${group.map((g) => g.symbol)}::text[], ${group.map((g) => g.exchange)}::text[]) AS h(symbol, exchange)
      CROSS JOIN LATERAL (
        SELECT string_agg(date::text, ',' ORDER BY date) AS dates, string_agg(close::text, ',' ORDER BY date) AS "values" FROM (
          (SELECT date, close FROM market_price m
           WHERE m.account_id = ${accountId} AND m.symbol = h.symbol AND m.exchange = h.exchange AND m.date <= ${fromDay}
           ORDER BY m.date DESC LIMIT 1)
          UNION ALL
          (SELECT date, close FROM market_price m
           WHERE m.account_id = ${accountId} AND m.symbol = h.symbol AND m.exchange = h.exchange AND m.date > ${fromDay} AND m.date <= ${toDay})
        ) x
      ) p
      WHERE p.dates IS NOT NULL`;
  // A few groups at a time: on a server, a long range of many securities would otherwise take
  // every pooled connection at once (on the embedded database statements run one by one anyway).
  const out: { symbol: string; exchange: string; dates: string; values: string }[] = [];
  for (let i = 0; i < groups.length; i += GROUPS_AT_ONCE)
    out.push(...(await Promise.all(groups.slice(i, i + GROUPS_AT_ONCE).map(read))).flat());
  return out;
}

/** Price groups read at once (PostgreSQL's pool has 10 connections by default). */
const GROUPS_AT_ONCE = 3;

export async function loadValuationRange(
  db: Prisma.TransactionClient,
  portfolio: RangePortfolio,
  from: string,
  to: string,
): Promise<ValuationRange> {
  return (await loadValuationRanges(db, [portfolio], from, to)).get(portfolio.id)!;
}

/**
 * loadValuationRange for several portfolios of one account, in the same statements as one: the
 * drift of a whole book (GET /v1/drift) costs what one portfolio's does.
 */
export async function loadValuationRanges(
  db: Prisma.TransactionClient,
  portfolios: RangePortfolio[],
  from: string,
  to: string,
): Promise<Map<number, ValuationRange>> {
  if (portfolios.length === 0) return new Map();
  const accountIds = new Set(portfolios.map((p) => p.accountId));
  if (accountIds.size !== 1) throw new Error("loadValuationRanges: portfolios of one account only");
  const accountId = portfolios[0].accountId;
  const ids = portfolios.map((p) => p.id);
  const fromDay = toDate(from);
  const toDay = toDate(to);
  // Read once, awaited twice: by the result and by the market price groups, which need its securities.
  const holdingsRead = Promise.resolve(db.$queryRaw<
    {
      id: number;
      portfolio_id: number;
      symbol: string;
      exchange: string;
      name: string;
      currency_code: string;
      holding_type: string;
      asset_class: string | null;
      sector: string | null;
      industry: string | null;
    }[]
  >`
      SELECT id, portfolio_id, symbol, exchange, name, currency_code, holding_type::text, asset_class, sector, industry FROM holding WHERE portfolio_id = ANY(${ids}::int[]) ORDER BY id`);
  const [ledgers, holdings, market, custom, fx, accounts, cashRows, income] = await Promise.all([
    loadLedgers(db, portfolios, undefined, to),
    holdingsRead,
    marketSeries(db, accountId, holdingsRead, fromDay, toDay),
    db.$queryRaw<{ holding_id: number; dates: string; values: string }[]>`
      SELECT h.id AS holding_id, p.dates, p."values"
      FROM holding h
      CROSS JOIN LATERAL (
        SELECT string_agg(date::text, ',' ORDER BY date) AS dates, string_agg(price::text, ',' ORDER BY date) AS "values" FROM (
          (SELECT date, price FROM custom_price c WHERE c.holding_id = h.id AND c.date <= ${fromDay} ORDER BY c.date DESC LIMIT 1)
          UNION ALL
          (SELECT date, price FROM custom_price c WHERE c.holding_id = h.id AND c.date > ${fromDay} AND c.date <= ${toDay})
        ) x
      ) p
      WHERE h.portfolio_id = ANY(${ids}::int[]) AND p.dates IS NOT NULL`,
    db.$queryRaw<{ base: string; quote: string; dates: string; values: string }[]>`
      SELECT base, quote, string_agg(date::text, ',' ORDER BY date) AS dates, string_agg(rate::text, ',' ORDER BY date) AS "values" FROM (
        (SELECT DISTINCT ON (base, quote) base, quote, date, rate FROM fx_rate
         WHERE account_id = ${accountId} AND date <= ${fromDay} ORDER BY base, quote, date DESC)
        UNION ALL
        (SELECT base, quote, date, rate FROM fx_rate WHERE account_id = ${accountId} AND date > ${fromDay} AND date <= ${toDay})
      ) r GROUP BY base, quote`,
    db.$queryRaw<
      { id: number; portfolio_id: number; currency_code: string; sync_trades: boolean; sync_income: boolean }[]
    >`
      SELECT id, portfolio_id, currency_code, sync_trades, sync_income FROM cash_account WHERE portfolio_id = ANY(${ids}::int[]) ORDER BY id`,
    db.$queryRaw<{ cash_account_id: number; rows: string }[]>`
      SELECT cash_account_id, string_agg(type::text || ':' || date::text || ':' || amount::text, ',' ORDER BY date, id) AS rows
      FROM cash_transaction WHERE date <= ${toDay} AND cash_account_id IN (SELECT id FROM cash_account WHERE portfolio_id = ANY(${ids}::int[]))
      GROUP BY cash_account_id`,
    db.$queryRaw<
      {
        portfolio_id: number;
        holding_id: number;
        ex_dividend_date: Date;
        paid_date: Date;
        franked_amount: Decimal;
        unfranked_amount: Decimal;
        foreign_income: Decimal;
        withholding_tax: Decimal;
        foreign_tax_paid: Decimal;
        is_reinvested: boolean;
        currency_code: string;
      }[]
    >`
      SELECT portfolio_id, holding_id, ex_dividend_date, paid_date, franked_amount, unfranked_amount, foreign_income, withholding_tax, foreign_tax_paid, is_reinvested, currency_code
      FROM income WHERE portfolio_id = ANY(${ids}::int[]) AND ex_dividend_date <= ${toDay} ORDER BY paid_date, id`,
  ]);

  // Parsing ten years of prices or a large ledger takes a while: between series, portfolios and
  // holdings, the event loop gets a turn.
  const slicer = new Slicer();
  const marketBy = new Map<string, DatedSeries<string>>();
  for (const m of market) {
    marketBy.set(`${m.symbol}|${m.exchange}`, series(m.dates, m.values));
    await slicer.turn();
  }
  const customBy = new Map(custom.map((c) => [c.holding_id, series(c.dates, c.values)]));
  const fxRows = fx.flatMap((r) => {
    const s = series(r.dates, r.values);
    return s.dates.map((date, i) => ({ base: r.base, quote: r.quote, date, rate: s.values[i] }));
  });
  const none = series(null, null);
  const cashBy = new Map(cashRows.map((c) => [c.cash_account_id, c.rows]));
  const out = new Map<number, ValuationRange>();
  for (const portfolio of portfolios) {
    await slicer.turn();
    const ledger = ledgers.get(portfolio.id)!;
    await ledger.prepare?.();
    const trades = ledger.trades.map((t) => ({
      holdingId: t.holdingId,
      tradeType: t.tradeType,
      date: t.tradeDate,
      seq: t.id,
      quantity: t.quantity,
      price: t.price,
      brokerage: t.brokerage,
      currencyCode: t.currencyCode!,
    }));
    const tradesBy = new Map<number, typeof trades>();
    for (const t of trades) {
      const list = tradesBy.get(t.holdingId) ?? [];
      list.push(t);
      tradesBy.set(t.holdingId, list);
    }
    await slicer.turn();
    const rangeHoldings: RangeHolding[] = [];
    for (const h of holdings) {
      if (h.portfolio_id !== portfolio.id) continue;
      rangeHoldings.push({
        id: h.id,
        symbol: h.symbol,
        exchange: h.exchange,
        name: h.name,
        holdingType: h.holding_type,
        assetClass: h.asset_class,
        sector: h.sector,
        industry: h.industry,
        currencyCode: h.currency_code,
        timeline: unitsTimeline(ledger.eventsByHolding.get(h.id) ?? []),
        prices: new HoldingPrices({
          currencyCode: h.currency_code,
          custom: customBy.get(h.id) ?? none,
          market: marketBy.get(`${h.symbol}|${h.exchange}`) ?? none,
          trades: tradesBy.get(h.id) ?? [],
        }),
      });
      await slicer.turn();
    }
    const input: ValuationRange = {
      from,
      to,
      baseCurrencyCode: portfolio.baseCurrencyCode,
      holdings: rangeHoldings,
      trades,
      income: income
        .filter((i) => i.portfolio_id === portfolio.id)
        .map((i) => ({
          holdingId: i.holding_id,
          exDividendDate: fromDate(i.ex_dividend_date),
          paidDate: fromDate(i.paid_date),
          frankedAmount: i.franked_amount,
          unfrankedAmount: i.unfranked_amount,
          foreignIncome: i.foreign_income,
          withholdingTax: i.withholding_tax,
          foreignTaxPaid: i.foreign_tax_paid,
          isReinvested: i.is_reinvested,
          currencyCode: i.currency_code,
        })),
      cashAccounts: accounts
        .filter((a) => a.portfolio_id === portfolio.id)
        .map((a) => ({
          id: a.id,
          currencyCode: a.currency_code,
          syncTrades: a.sync_trades,
          syncIncome: a.sync_income,
          transactions: (cashBy.get(a.id) ?? "")
            .split(",")
            .filter(Boolean)
            .map((row) => {
              const [type, date, amount] = row.split(":");
              return { type, date, amount, currencyCode: a.currency_code };
            }),
        })),
      fx: new FxTable(fxRows, {
        base: portfolio.baseCurrencyCode,
        rates: ledger.trades.map((t) => ({
          currencyCode: t.currencyCode!,
          date: t.tradeDate,
          exchangeRate: t.exchangeRate,
        })),
      }),
    };
    out.set(portfolio.id, input);
  }
  return out;
}
