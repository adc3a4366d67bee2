import type { z } from "zod";
import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate, toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { assertAdviser } from "../ledger/portfolio-access";
import { bulkRows, rejectRepeats, validateRows } from "./bulk-rows";
import {
  FX_RATE_COLUMNS,
  FxRateRow,
  FxRatesQuery,
  MARKET_PRICE_COLUMNS,
  MarketPriceRow,
  MarketPricesQuery,
  MARKET_ROW_FILTERS,
  MARKET_ROW_SOURCES,
  MAX_BULK_ROWS,
  MAX_UNHELD_LISTED,
} from "./prices.schemas";

/**
 * Closing prices and exchange rates an account imports in bulk, and reads back. Each import is
 * insert or replace per key, all or nothing, in one set-based statement (50,000 rows would be
 * 50,000 round trips one by one). Rows are written in key order, so two overlapping imports lock
 * them in one order and queue, never deadlock.
 */

type MarketRowSource = (typeof MARKET_ROW_SOURCES)[number];
type MarketRowFilter = (typeof MARKET_ROW_FILTERS)[number];

export interface MarketPriceView {
  symbol: string;
  exchange: string;
  date: string;
  close: Decimal;
  source: MarketRowSource;
}

/** One `base` buys `rate` of `quote` on `date`. */
export interface FxRateView {
  base: string;
  quote: string;
  date: string;
  rate: Decimal;
  source: MarketRowSource;
}

/**
 * A bulk import's rows, each valid and no key twice (which row should win is unclear, and an
 * upsert cannot write one key twice in a statement). Client keys may not import.
 */
async function importedRows<S extends z.ZodType>(
  ctx: Context,
  input: unknown,
  spec: {
    action: string;
    what: string;
    columns: readonly string[];
    schema: S;
    key: (row: z.output<S>) => string;
    sameness: string;
  },
): Promise<z.output<S>[]> {
  assertAdviser(ctx, spec.action);
  const rows = await bulkRows(input, spec.columns, MAX_BULK_ROWS, spec.what);
  const values = await validateRows(spec.schema, rows, spec.what);
  rejectRepeats(rows, values, spec.key, "date", spec.what, spec.sameness);
  return values;
}

/** The dates a list query asks for, both ends included, either open. */
const between = (q: { from?: string; to?: string }) => ({
  gte: q.from ? toDate(q.from) : undefined,
  lte: q.to ? toDate(q.to) : undefined,
});

/** What a market-price import answers: the rows written, and the securities no holding has (a typo shows there). */
export interface MarketPricesUpsert {
  upserted: number;
  unheld: number;
  /** The first MAX_UNHELD_LISTED, by symbol and exchange. */
  unheldSecurities: { symbol: string; exchange: string }[];
}

/** POST /v1/market-prices/bulk: insert or replace per (account, symbol, exchange, date). */
export async function upsertMarketPrices(ctx: Context, input: unknown): Promise<MarketPricesUpsert> {
  const prices = await importedRows(ctx, input, {
    action: "import market prices",
    what: "The market prices",
    columns: MARKET_PRICE_COLUMNS,
    schema: MarketPriceRow,
    key: (p) => `${p.symbol}|${p.exchange}|${p.date}`,
    sameness: "the same symbol, exchange and date",
  });
  const upserted = await ctx.db.$executeRaw`
    INSERT INTO market_price (account_id, symbol, exchange, date, close)
    SELECT ${ctx.account.id}, u.symbol, u.exchange, u.date, u.close
    FROM unnest(${prices.map((p) => p.symbol)}::varchar[], ${prices.map((p) => p.exchange)}::varchar[],
                ${prices.map((p) => p.date)}::date[], ${prices.map((p) => p.close.toFixed())}::numeric[]) AS u(symbol, exchange, date, close)
    ORDER BY u.symbol, u.exchange, u.date
    ON CONFLICT (account_id, symbol, exchange, date) DO UPDATE SET close = EXCLUDED.close`;
  // Stored all the same: an adviser may load prices before the trades (docs/data.md §2).
  const unheld = await ctx.db.$queryRaw<{ symbol: string; exchange: string }[]>`
    SELECT DISTINCT u.symbol, u.exchange
    FROM unnest(${prices.map((p) => p.symbol)}::varchar[], ${prices.map((p) => p.exchange)}::varchar[]) AS u(symbol, exchange)
    WHERE NOT EXISTS (
      SELECT 1 FROM holding h JOIN portfolio p ON p.id = h.portfolio_id
      WHERE p.account_id = ${ctx.account.id} AND h.symbol = u.symbol AND h.exchange = u.exchange)
    ORDER BY u.symbol, u.exchange`;
  return { upserted, unheld: unheld.length, unheldSecurities: unheld.slice(0, MAX_UNHELD_LISTED) };
}

/**
 * GET /v1/market-prices: one security's closes between two dates, oldest first: the account's
 * imports, the provider's, or both as the price rule reads them (the account's wins on a date).
 */
export async function listMarketPrices(ctx: Context, query: unknown): Promise<MarketPriceView[]> {
  const q = parseInput(MarketPricesQuery, query ?? {}, "The query");
  const where = { symbol: q.symbol, exchange: q.exchange, date: between(q) };
  return listed(
    q.source,
    () => ctx.db.marketPrice.findMany({ where: { ...where, accountId: ctx.account.id } }),
    () => ctx.db.providerPrice.findMany({ where }),
    (r: { date: Date; close: Prisma.Decimal }, source) => ({
      symbol: q.symbol,
      exchange: q.exchange,
      date: fromDate(r.date),
      close: new Decimal(r.close),
      source,
    }),
  );
}

/** POST /v1/fx-rates/bulk: insert or replace per (account, base, quote, date). */
export async function upsertFxRates(ctx: Context, input: unknown): Promise<{ upserted: number }> {
  const rates = await importedRows(ctx, input, {
    action: "import exchange rates",
    what: "The exchange rates",
    columns: FX_RATE_COLUMNS,
    schema: FxRateRow,
    key: (r) => `${r.base}|${r.quote}|${r.date}`,
    sameness: "the same base, quote and date",
  });
  const upserted = await ctx.db.$executeRaw`
    INSERT INTO fx_rate (account_id, base, quote, date, rate)
    SELECT ${ctx.account.id}, u.base, u.quote, u.date, u.rate
    FROM unnest(${rates.map((r) => r.base)}::char(3)[], ${rates.map((r) => r.quote)}::char(3)[],
                ${rates.map((r) => r.date)}::date[], ${rates.map((r) => r.rate.toFixed())}::numeric[]) AS u(base, quote, date, rate)
    ORDER BY u.base, u.quote, u.date
    ON CONFLICT (account_id, base, quote, date) DO UPDATE SET rate = EXCLUDED.rate`;
  return { upserted };
}

/**
 * GET /v1/fx-rates: one currency pair's rates between two dates, oldest first, as stored (the FX
 * rule also derives inverses and crosses, which no list shows): the account's, the provider's, or
 * both, the account's winning on a date.
 */
export async function listFxRates(ctx: Context, query: unknown): Promise<FxRateView[]> {
  const q = parseInput(FxRatesQuery, query ?? {}, "The query");
  const where = { base: q.base, quote: q.quote, date: between(q) };
  return listed(
    q.source,
    () => ctx.db.fxRate.findMany({ where: { ...where, accountId: ctx.account.id } }),
    () => ctx.db.providerFxRate.findMany({ where }),
    (r: { date: Date; rate: Prisma.Decimal }, source) => ({
      base: q.base,
      quote: q.quote,
      date: fromDate(r.date),
      rate: new Decimal(r.rate),
      source,
    }),
  );
}

/**
 * A list query's rows from the sources it asks for (the account's unless Provider, the provider's
 * unless Account or none named), by date, oldest first; on a date both have, the account's alone.
 */
async function listed<R, T extends { date: string }>(
  source: MarketRowFilter | undefined,
  own: () => Promise<NoInfer<R>[]>,
  provider: () => Promise<NoInfer<R>[]>,
  view: (row: R, source: MarketRowSource) => T,
): Promise<T[]> {
  const [ownRows, providerRows] = await Promise.all([
    source === "Provider" ? [] : own(),
    !source || source === "Account" ? [] : provider(),
  ]);
  const owned = ownRows.map((r) => view(r, "Account"));
  const dates = new Set(owned.map((r) => r.date));
  const provided = providerRows.map((r) => view(r, "Provider")).filter((r) => !dates.has(r.date));
  return [...owned, ...provided].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
