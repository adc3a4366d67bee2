import type { z } from "zod";
import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate, toDate } from "../../lib/dates";
import { forEachRow, tooManyRows } from "../../lib/bulk";
import { readCsv, type HeaderProblem } from "../../lib/csv";
import { DomainError, MAX_LISTED_ERRORS, notFound, orNull, validationFailed, type FieldError } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { fieldErrors, parseId, parseInput } from "../../lib/validation";
import { holdingScope, holdingWithPortfolio } from "../holdings/holdings.service";
import { assertAdviser, assertCanWrite } from "../portfolios/access";
import {
  CustomPriceInput,
  FX_RATE_COLUMNS,
  FxRateRow,
  FxRatesQuery,
  MARKET_PRICE_COLUMNS,
  MarketPriceRow,
  MarketPricesQuery,
  MAX_BULK_ROWS,
  MAX_CUSTOM_PRICES,
  UpdateCustomPriceInput,
  UpdateCustomPriceBody,
} from "./prices.schemas";

export interface CustomPriceView {
  id: number;
  holdingId: number;
  date: string;
  /** Per unit, in the holding's currency. */
  price: Decimal;
}

export interface MarketPriceView {
  symbol: string;
  exchange: string;
  date: string;
  close: Decimal;
}

/** One `base` buys `rate` of `quote` on `date`. */
export interface FxRateView {
  base: string;
  quote: string;
  date: string;
  rate: Decimal;
}

const PRICE_SELECT = { id: true, holdingId: true, date: true, price: true } satisfies Prisma.CustomPriceSelect;
type PriceRow = Prisma.CustomPriceGetPayload<{ select: typeof PRICE_SELECT }>;

const priceView = (p: PriceRow): CustomPriceView => ({
  id: p.id,
  holdingId: p.holdingId,
  date: fromDate(p.date),
  price: new Decimal(p.price),
});
const priceScope = (ctx: Context): Prisma.CustomPriceWhereInput => ({ holding: holdingScope(ctx) });

/** A row of a bulk body, with how errors name it: `[i]` in a JSON array, `line N` in CSV (header = line 1). */
interface BulkRow {
  label: string;
  value: unknown;
}

/**
 * A JSON array as parsed by the transport, or the text of a text/csv body, as labelled rows: at
 * most `max` of them, counted before any row is validated (a CSV is read no further than that).
 */
async function bulkRows(input: unknown, columns: readonly string[], max: number, what: string): Promise<BulkRow[]> {
  if (typeof input === "string") return csvRows(input, columns, max, what);
  if (!Array.isArray(input))
    throw validationFailed(`${what} must be a JSON array or text/csv.`, [
      { path: "(body)", message: "must be a JSON array of rows, or text/csv" },
    ]);
  if (input.length > max) throw tooManyRows(what, max, input.length);
  return input.map((value, i) => ({ label: `[${i}]`, value }));
}

/** One error for line 1, naming every problem of the header. */
function headerRefusal(columns: readonly string[], what: string) {
  return (problems: HeaderProblem[], given: string[]) => {
    const missing = problems.filter((p) => p.kind === "missing").map((p) => p.column);
    const named = problems.flatMap((p) =>
      p.kind === "unknown" && p.near && !given.includes(p.near)
        ? [`${p.column} (did you mean ${p.near}?)`]
        : p.kind === "missing"
          ? []
          : [p.column],
    );
    const message =
      `must be the header ${columns.join(",")} (in any order and case)` +
      (missing.length ? `; missing ${missing.join(", ")}` : "") +
      (named.length ? `; unexpected ${named.join(", ")}` : "");
    return validationFailed(`${what} is invalid: line 1: ${message}.`, [{ path: "line 1", message }]);
  };
}

/** A CSV body's rows as records keyed by column; a row with more or fewer cells than the header is refused. */
async function csvRows(text: string, columns: readonly string[], max: number, what: string): Promise<BulkRow[]> {
  const { header, rows } = await readCsv(text, {
    what,
    columns,
    required: columns,
    maxRows: max,
    refuseHeader: headerRefusal(columns, what),
  });
  const misfits: FieldError[] = rows
    .filter((r) => r.width !== header.length)
    .map((r) => ({
      path: `line ${r.line}`,
      message: `has ${r.width} cells for the header's ${header.length} columns`,
    }));
  if (misfits.length > 0) throw invalidRows(what, misfits);
  return rows.map((r) => ({
    label: `line ${r.line}`,
    value: Object.fromEntries(header.map((c, i) => [c, r.cells[i]])),
  }));
}

/** Validates every row, listing each bad field under its row's label; nothing is written on any error. */
async function validateRows<S extends z.ZodType>(schema: S, rows: BulkRow[], what: string): Promise<z.output<S>[]> {
  if (rows.length === 0)
    throw validationFailed(`${what} has no rows.`, [{ path: "(body)", message: "must have at least 1 row" }]);
  const errors: FieldError[] = [];
  const values: z.output<S>[] = [];
  await forEachRow(rows, (row) => {
    const result = schema.safeParse(row.value);
    if (result.success) values.push(result.data);
    else
      for (const e of fieldErrors(result.error, schema))
        errors.push({
          path: e.path === "(body)" ? row.label : `${row.label}${e.path.startsWith("[") ? "" : "."}${e.path}`,
          message: e.message,
        });
  });
  if (errors.length > 0) throw invalidRows(what, errors);
  return values;
}

/** The first MAX_LISTED_ERRORS errors are listed (DomainError keeps them), the detail gives the total. */
function invalidRows(what: string, errors: FieldError[]): DomainError {
  const detail =
    errors.length === 1
      ? `${errors[0].path}: ${errors[0].message}`
      : `${errors.length} fields are invalid` +
        (errors.length > MAX_LISTED_ERRORS ? ` (the first ${MAX_LISTED_ERRORS} are listed)` : "") +
        ".";
  return validationFailed(`${what} is invalid: ${detail}`, errors);
}

/** An upsert cannot write one key twice in a statement, and which row should win is unclear: refused. */
function rejectRepeats<T>(
  rows: BulkRow[],
  values: T[],
  key: (v: T) => string,
  field: string,
  what: string,
  sameness: string,
): void {
  const seen = new Map<string, string>();
  const errors: FieldError[] = [];
  values.forEach((v, i) => {
    const k = key(v);
    const first = seen.get(k);
    if (first) errors.push({ path: `${rows[i].label}.${field}`, message: `repeats ${first} (${sameness})` });
    else seen.set(k, rows[i].label);
  });
  if (errors.length > 0) throw invalidRows(what, errors);
}

function dateList(dates: string[]): string {
  const shown = dates.slice(0, 20).join(", ");
  return dates.length > 20 ? `${shown} and ${dates.length - 20} more` : shown;
}

/** GET /v1/holdings/{h}/prices: the holding's custom prices, oldest first. */
export async function listCustomPrices(ctx: Context, holdingId: unknown): Promise<CustomPriceView[]> {
  const h = await holdingWithPortfolio(ctx, holdingId);
  const rows = await ctx.db.customPrice.findMany({
    where: { holdingId: h.id },
    select: PRICE_SELECT,
    orderBy: { date: "asc" },
  });
  return rows.map(priceView);
}

export const findCustomPrice = (ctx: Context, priceId: unknown) => orNull(getCustomPrice(ctx, priceId));

export async function getCustomPrice(ctx: Context, priceId: unknown): Promise<CustomPriceView> {
  const id = parseId(priceId, "priceId");
  const row = await ctx.db.customPrice.findFirst({ where: { id, ...priceScope(ctx) }, select: PRICE_SELECT });
  if (!row) throw notFound(`Price ${id}`);
  return priceView(row);
}

/** One price per holding per date (API.md §2): a second one on a date is a CONFLICT. */
export async function addCustomPrice(ctx: Context, holdingId: unknown, input: unknown): Promise<CustomPriceView> {
  const id = parseId(holdingId, "holdingId");
  const data = parseInput(CustomPriceInput, input, "The price");
  assertCanWrite(ctx);
  const h = await holdingWithPortfolio(ctx, id);
  const existing = await ctx.db.customPrice.findFirst({
    where: { holdingId: h.id, date: toDate(data.date) },
    select: { id: true },
  });
  if (existing)
    throw new DomainError("CONFLICT", `Holding ${h.id} already has a price on ${data.date} (id ${existing.id}).`);
  const row = await ctx.db.customPrice.create({
    data: { holdingId: h.id, date: toDate(data.date), price: data.price.toFixed() },
    select: PRICE_SELECT,
  });
  return priceView(row);
}

/**
 * POST /v1/holdings/{h}/prices/bulk: all or nothing. A date repeated in the body or already
 * priced is a CONFLICT naming the dates; the insert is one statement, so a racing writer makes
 * it fail whole too. Answers the new prices, oldest first.
 */
export async function addCustomPrices(ctx: Context, holdingId: unknown, input: unknown): Promise<CustomPriceView[]> {
  const id = parseId(holdingId, "holdingId");
  const prices = await validateRows(
    CustomPriceInput,
    await bulkRows(input, ["date", "price"], MAX_CUSTOM_PRICES, "The prices"),
    "The prices",
  );
  assertCanWrite(ctx);
  const h = await holdingWithPortfolio(ctx, id);
  const dates = prices.map((p) => p.date);
  const repeated = [...new Set(dates.filter((d, i) => dates.indexOf(d) !== i))].sort();
  if (repeated.length > 0)
    throw new DomainError(
      "CONFLICT",
      `The prices repeat dates: ${dateList(repeated)}. One price per holding per date.`,
    );
  const taken = await ctx.db.customPrice.findMany({
    where: { holdingId: h.id, date: { in: dates.map(toDate) } },
    select: { date: true },
    orderBy: { date: "asc" },
  });
  if (taken.length > 0)
    throw new DomainError(
      "CONFLICT",
      `Holding ${h.id} already has prices on ${dateList(taken.map((t) => fromDate(t.date)))}.`,
    );
  const rows = await ctx.db.customPrice.createManyAndReturn({
    data: prices.map((p) => ({ holdingId: h.id, date: toDate(p.date), price: p.price.toFixed() })),
    select: PRICE_SELECT,
  });
  return rows.map(priceView).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export async function updateCustomPrice(ctx: Context, priceId: unknown, input: unknown): Promise<CustomPriceView> {
  const id = parseId(priceId, "priceId");
  const data = parseInput(UpdateCustomPriceBody, input, "The price");
  assertCanWrite(ctx);
  const current = await getCustomPrice(ctx, id);
  if (data.date && data.date !== current.date) {
    const clash = await ctx.db.customPrice.findFirst({
      where: { holdingId: current.holdingId, date: toDate(data.date) },
      select: { id: true },
    });
    if (clash)
      throw new DomainError(
        "CONFLICT",
        `Holding ${current.holdingId} already has a price on ${data.date} (id ${clash.id}).`,
      );
  }
  const row = await ctx.db.customPrice.update({
    where: { id },
    data: { date: data.date ? toDate(data.date) : undefined, price: data.price?.toFixed() },
    select: PRICE_SELECT,
  });
  return priceView(row);
}

export async function deleteCustomPrice(ctx: Context, priceId: unknown): Promise<true> {
  const id = parseId(priceId, "priceId");
  assertCanWrite(ctx);
  const { count } = await ctx.db.customPrice.deleteMany({ where: { id, ...priceScope(ctx) } });
  if (count === 0) throw notFound(`Price ${id}`);
  return true;
}

/**
 * POST /v1/market-prices/bulk: insert or replace per (account, symbol, exchange, date), all or
 * nothing, in one set-based statement (50,000 rows would be 50,000 round trips one by one). Rows
 * are written in key order, so two overlapping imports lock them in one order and queue, never
 * deadlock (the same for FX rates).
 */
export async function upsertMarketPrices(ctx: Context, input: unknown): Promise<{ upserted: number }> {
  assertAdviser(ctx, "import market prices");
  const rows = await bulkRows(input, MARKET_PRICE_COLUMNS, MAX_BULK_ROWS, "The market prices");
  const prices = await validateRows(MarketPriceRow, rows, "The market prices");
  rejectRepeats(
    rows,
    prices,
    (p) => `${p.symbol}|${p.exchange}|${p.date}`,
    "date",
    "The market prices",
    "the same symbol, exchange and date",
  );
  const upserted = await ctx.db.$executeRaw`
    INSERT INTO market_price (account_id, symbol, exchange, date, close)
    SELECT ${ctx.account.id}, u.symbol, u.exchange, u.date, u.close
    FROM unnest(${prices.map((p) => p.symbol)}::varchar[], ${prices.map((p) => p.exchange)}::varchar[],
                ${prices.map((p) => p.date)}::date[], ${prices.map((p) => p.close.toFixed())}::numeric[]) AS u(symbol, exchange, date, close)
    ORDER BY u.symbol, u.exchange, u.date
    ON CONFLICT (account_id, symbol, exchange, date) DO UPDATE SET close = EXCLUDED.close`;
  return { upserted };
}

/** GET /v1/market-prices: one security's imported closes between two dates, oldest first. */
export async function listMarketPrices(ctx: Context, query: unknown): Promise<MarketPriceView[]> {
  const q = parseInput(MarketPricesQuery, query ?? {}, "The query");
  const rows = await ctx.db.marketPrice.findMany({
    where: {
      accountId: ctx.account.id,
      symbol: q.symbol,
      exchange: q.exchange,
      date: { gte: q.from ? toDate(q.from) : undefined, lte: q.to ? toDate(q.to) : undefined },
    },
    orderBy: { date: "asc" },
  });
  return rows.map((r) => ({
    symbol: r.symbol,
    exchange: r.exchange,
    date: fromDate(r.date),
    close: new Decimal(r.close),
  }));
}

/** POST /v1/fx-rates/bulk: insert or replace per (account, base, quote, date), all or nothing, set-based. */
export async function upsertFxRates(ctx: Context, input: unknown): Promise<{ upserted: number }> {
  assertAdviser(ctx, "import exchange rates");
  const rows = await bulkRows(input, FX_RATE_COLUMNS, MAX_BULK_ROWS, "The exchange rates");
  const rates = await validateRows(FxRateRow, rows, "The exchange rates");
  rejectRepeats(
    rows,
    rates,
    (r) => `${r.base}|${r.quote}|${r.date}`,
    "date",
    "The exchange rates",
    "the same base, quote and date",
  );
  const upserted = await ctx.db.$executeRaw`
    INSERT INTO fx_rate (account_id, base, quote, date, rate)
    SELECT ${ctx.account.id}, u.base, u.quote, u.date, u.rate
    FROM unnest(${rates.map((r) => r.base)}::char(3)[], ${rates.map((r) => r.quote)}::char(3)[],
                ${rates.map((r) => r.date)}::date[], ${rates.map((r) => r.rate.toFixed())}::numeric[]) AS u(base, quote, date, rate)
    ORDER BY u.base, u.quote, u.date
    ON CONFLICT (account_id, base, quote, date) DO UPDATE SET rate = EXCLUDED.rate`;
  return { upserted };
}

/** GET /v1/fx-rates: one currency pair's imported rates between two dates, oldest first. */
export async function listFxRates(ctx: Context, query: unknown): Promise<FxRateView[]> {
  const q = parseInput(FxRatesQuery, query ?? {}, "The query");
  const rows = await ctx.db.fxRate.findMany({
    where: {
      accountId: ctx.account.id,
      base: q.base,
      quote: q.quote,
      date: { gte: q.from ? toDate(q.from) : undefined, lte: q.to ? toDate(q.to) : undefined },
    },
    orderBy: { date: "asc" },
  });
  return rows.map((r) => ({ base: r.base, quote: r.quote, date: fromDate(r.date), rate: new Decimal(r.rate) }));
}
