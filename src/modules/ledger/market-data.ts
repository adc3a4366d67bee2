import { Prisma } from "../../../generated/prisma/client";
import { toDate } from "../../lib/dates";
import { DatedSeries } from "./dated-series";
import type { FxRow, TradeRateRow } from "./fx";
import { READ_LIMITS } from "./read-limits";

/**
 * The one market-data loader: every read of market prices, custom prices, exchange rates and the
 * trade-rate fallback that the price rule (prices.ts) and the FX rule (fx.ts) work on. Every read
 * answers the same window: the latest point on or before `from` (the value on the first day) and
 * every point after it up to `to`. A point in time is the window `from = to`.
 *
 * Each series comes back as one text row ("d1,d2,…" and "v1,v2,…", in date order, one point per
 * date: the tables' keys say so), parsed here with two splits and no object per point; each read
 * is one statement whatever the number of days (market prices: one per group of securities).
 */
export interface MarketWindow {
  from: string;
  to: string;
}

export interface SecurityKey {
  symbol: string;
  exchange: string;
}

export const securityKey = (s: SecurityKey) => `${s.symbol}|${s.exchange}`;

/**
 * Securities as a table to join, `alias(symbol, exchange)`, in two array parameters whatever their
 * number. An OR of (symbol, exchange) pairs would take two bind parameters a security (PostgreSQL
 * takes 32,767 a statement: an account may hold more) and make the database compare every row with
 * every pair (quadratic); the join finds each by its key.
 */
export function securityTable(securities: readonly SecurityKey[], alias: "h" | "w"): Prisma.Sql {
  return Prisma.sql`unnest(${securities.map((s) => s.symbol)}::text[], ${securities.map((s) => s.exchange)}::text[]) AS ${Prisma.raw(alias)}(symbol, exchange)`;
}

const EMPTY = DatedSeries.sorted<string>([], []);

function series(dates: string | null, values: string | null): DatedSeries<string> {
  if (!dates || !values) return EMPTY;
  const d = dates.split(",");
  const v = values.split(",");
  // Two sources on one date arrive in order of preference, the preferred last: it stays.
  let w = 0;
  for (let r = 0; r < d.length; r++) {
    if (w > 0 && d[w - 1] === d[r]) w--;
    d[w] = d[r];
    v[w++] = v[r];
  }
  d.length = w;
  v.length = w;
  return DatedSeries.sorted(d, v);
}

/** Price groups read at once (PostgreSQL's pool has 10 connections by default). */
const GROUPS_AT_ONCE = 3;

/**
 * The market closes of each security, the account's own and the provider's, keyed by `securityKey`. Driven from the
 * securities, one index range each: a plan that stays right on a database whose planner
 * statistics are missing or stale (the embedded one has no autovacuum). Securities are read in
 * groups of about READ_LIMITS.priceRowsPerStatement prices (one group for a year of ninety).
 */
export async function marketPrices(
  db: Prisma.TransactionClient,
  accountId: number,
  securities: readonly SecurityKey[],
  window: MarketWindow,
): Promise<Map<string, DatedSeries<string>>> {
  const unique = [...new Map(securities.map((s) => [securityKey(s), s])).values()];
  const fromDay = toDate(window.from);
  const toDay = toDate(window.to);
  const tradingDays = Math.max(1, ((toDay.getTime() - fromDay.getTime()) / 86_400_000) * (5 / 7));
  const perStatement = Math.max(1, Math.floor(READ_LIMITS.priceRowsPerStatement / tradingDays));
  const groups: SecurityKey[][] = [];
  for (let i = 0; i < unique.length; i += perStatement) groups.push(unique.slice(i, i + perStatement));
  // The account's own closes and the provider's (docs/data.md §2): each source's latest on or
  // before `from`, then each one's range; on a date both have, the account's (rank 0) comes last
  // in the aggregate and `series` keeps it.
  const read = (group: SecurityKey[]) => db.$queryRaw<
    { symbol: string; exchange: string; dates: string; values: string }[]
  >`
      SELECT h.symbol, h.exchange, p.dates, p."values"
      FROM ${securityTable(group, "h")}
      CROSS JOIN LATERAL (
        SELECT string_agg(date::text, ',' ORDER BY date, rank DESC) AS dates, string_agg(close::text, ',' ORDER BY date, rank DESC) AS "values" FROM (
          (SELECT date, close, 0 AS rank FROM market_price m
           WHERE m.account_id = ${accountId} AND m.symbol = h.symbol AND m.exchange = h.exchange AND m.date <= ${fromDay}
           ORDER BY m.date DESC LIMIT 1)
          UNION ALL
          (SELECT date, close, 1 AS rank FROM provider_price v
           WHERE v.symbol = h.symbol AND v.exchange = h.exchange AND v.date <= ${fromDay}
           ORDER BY v.date DESC LIMIT 1)
          UNION ALL
          (SELECT date, close, 0 AS rank FROM market_price m
           WHERE m.account_id = ${accountId} AND m.symbol = h.symbol AND m.exchange = h.exchange AND m.date > ${fromDay} AND m.date <= ${toDay})
          UNION ALL
          (SELECT date, close, 1 AS rank FROM provider_price v
           WHERE v.symbol = h.symbol AND v.exchange = h.exchange AND v.date > ${fromDay} AND v.date <= ${toDay})
        ) x
      ) p
      WHERE p.dates IS NOT NULL`;
  // A few groups at a time: on a server, a long range of many securities would otherwise take
  // every pooled connection at once (on the embedded database statements run one by one anyway).
  const out = new Map<string, DatedSeries<string>>();
  for (let i = 0; i < groups.length; i += GROUPS_AT_ONCE) {
    for (const rows of await Promise.all(groups.slice(i, i + GROUPS_AT_ONCE).map(read)))
      for (const r of rows) out.set(securityKey(r), series(r.dates, r.values));
  }
  return out;
}

/** The custom prices of each holding (a custom holding's own valuations), keyed by holding id. */
export async function customPrices(
  db: Prisma.TransactionClient,
  holdingIds: readonly number[],
  window: MarketWindow,
): Promise<Map<number, DatedSeries<string>>> {
  if (holdingIds.length === 0) return new Map();
  const fromDay = toDate(window.from);
  const toDay = toDate(window.to);
  const rows = await db.$queryRaw<{ holding_id: number; dates: string; values: string }[]>`
      SELECT h.id AS holding_id, p.dates, p."values"
      FROM unnest(${[...holdingIds]}::int[]) AS h(id)
      CROSS JOIN LATERAL (
        SELECT string_agg(date::text, ',' ORDER BY date) AS dates, string_agg(price::text, ',' ORDER BY date) AS "values" FROM (
          (SELECT date, price FROM custom_price c WHERE c.holding_id = h.id AND c.date <= ${fromDay} ORDER BY c.date DESC LIMIT 1)
          UNION ALL
          (SELECT date, price FROM custom_price c WHERE c.holding_id = h.id AND c.date > ${fromDay} AND c.date <= ${toDay})
        ) x
      ) p
      WHERE p.dates IS NOT NULL`;
  return new Map(rows.map((r) => [r.holding_id, series(r.dates, r.values)]));
}

/** The account's and the provider's exchange rates of every pair (a cross needs the other pairs too). */
export async function fxRates(db: Prisma.TransactionClient, accountId: number, window: MarketWindow): Promise<FxRow[]> {
  const fromDay = toDate(window.from);
  const toDay = toDate(window.to);
  // The account's own rates and the provider's, as the closes above: the account's last on a date.
  const rows = await db.$queryRaw<{ base: string; quote: string; dates: string; values: string }[]>`
      SELECT base::text AS base, quote::text AS quote, string_agg(date::text, ',' ORDER BY date, rank DESC) AS dates,
             string_agg(rate::text, ',' ORDER BY date, rank DESC) AS "values" FROM (
        (SELECT DISTINCT ON (base, quote) base, quote, date, rate, 0 AS rank FROM fx_rate
         WHERE account_id = ${accountId} AND date <= ${fromDay} ORDER BY base, quote, date DESC)
        UNION ALL
        (SELECT DISTINCT ON (base, quote) base, quote, date, rate, 1 AS rank FROM provider_fx_rate
         WHERE date <= ${fromDay} ORDER BY base, quote, date DESC)
        UNION ALL
        (SELECT base, quote, date, rate, 0 AS rank FROM fx_rate WHERE account_id = ${accountId} AND date > ${fromDay} AND date <= ${toDay})
        UNION ALL
        (SELECT base, quote, date, rate, 1 AS rank FROM provider_fx_rate WHERE date > ${fromDay} AND date <= ${toDay})
      ) r GROUP BY base, quote`;
  return rows.flatMap((r) => {
    const s = series(r.dates, r.values);
    return s.dates.map((date, i) => ({ base: r.base, quote: r.quote, date, rate: s.values[i] }));
  });
}

/**
 * The FX rule's fallback, each portfolio's own trade rates in every currency other than its base,
 * keyed by portfolio id. In ledger order (date, then entry): of one day's trades the last entered
 * is the rate (DatedSeries keeps the last). `exceptTradeId`: a trade being replaced, whose stored
 * rate is no fallback for its own new rate.
 */
export async function tradeRates(
  db: Prisma.TransactionClient,
  portfolioIds: readonly number[],
  window: MarketWindow,
  options: { exceptTradeId?: number } = {},
): Promise<Map<number, TradeRateRow[]>> {
  const out = new Map<number, TradeRateRow[]>(portfolioIds.map((id) => [id, []]));
  if (portfolioIds.length === 0) return out;
  const fromDay = toDate(window.from);
  const toDay = toDate(window.to);
  const except = options.exceptTradeId ?? 0;
  const ids = [...portfolioIds];
  const rows = await db.$queryRaw<{ portfolio_id: number; currency_code: string; date: string; rate: string }[]>`
      SELECT portfolio_id, currency_code, date, rate FROM (
        (SELECT DISTINCT ON (t.portfolio_id, t.currency_code) t.id, t.portfolio_id, t.currency_code::text AS currency_code, t.trade_date::text AS date, t.exchange_rate::text AS rate
         FROM trade t JOIN portfolio p ON p.id = t.portfolio_id
         WHERE t.portfolio_id = ANY(${ids}::int[]) AND t.currency_code <> p.base_currency_code AND t.id <> ${except} AND t.trade_date <= ${fromDay}
         ORDER BY t.portfolio_id, t.currency_code, t.trade_date DESC, t.id DESC)
        UNION ALL
        (SELECT t.id, t.portfolio_id, t.currency_code::text, t.trade_date::text, t.exchange_rate::text
         FROM trade t JOIN portfolio p ON p.id = t.portfolio_id
         WHERE t.portfolio_id = ANY(${ids}::int[]) AND t.currency_code <> p.base_currency_code AND t.id <> ${except} AND t.trade_date > ${fromDay} AND t.trade_date <= ${toDay})
      ) r
      ORDER BY date, id`;
  for (const r of rows)
    out.get(r.portfolio_id)?.push({ currencyCode: r.currency_code, date: r.date, exchangeRate: r.rate });
  return out;
}

/**
 * The latest close dated on or before `date` on each of `exchanges` (the account's own closes and
 * the provider's), keyed by exchange; an exchange without one is absent. Read over the securities
 * of that exchange the account holds in any portfolio (closed holdings too), one index range each
 * (the tables' keys lead with the symbol, so an exchange-wide max would read every stored close).
 * One statement, none without exchanges.
 */
export async function latestExchangeCloses(
  db: Prisma.TransactionClient,
  accountId: number,
  exchanges: readonly string[],
  date: string,
): Promise<Map<string, string>> {
  if (exchanges.length === 0) return new Map();
  const day = toDate(date);
  const rows = await db.$queryRaw<{ exchange: string; date: string }[]>`
      SELECT s.exchange, max(l.date)::text AS date
      FROM (
        SELECT DISTINCT h.symbol, h.exchange FROM holding h JOIN portfolio p ON p.id = h.portfolio_id
        WHERE p.account_id = ${accountId} AND h.exchange = ANY(${[...exchanges]}::text[])
      ) s
      CROSS JOIN LATERAL (
        (SELECT m.date FROM market_price m
         WHERE m.account_id = ${accountId} AND m.symbol = s.symbol AND m.exchange = s.exchange AND m.date <= ${day}
         ORDER BY m.date DESC LIMIT 1)
        UNION ALL
        (SELECT v.date FROM provider_price v
         WHERE v.symbol = s.symbol AND v.exchange = s.exchange AND v.date <= ${day}
         ORDER BY v.date DESC LIMIT 1)
      ) l
      GROUP BY s.exchange`;
  return new Map(rows.map((r) => [r.exchange, r.date]));
}
