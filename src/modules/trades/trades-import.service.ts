import { z } from "zod";
import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { addDays, toDate } from "../../lib/dates";
import { DomainError, type FieldError } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { fieldErrors, looseEnum, parseInput } from "../../lib/validation";
import { holdingForTrade, LEDGER_TX_OPTIONS, lockPortfolioForLedger, portfolioForLedger, type PortfolioForLedger } from "../holdings/holdings.service";
import { foldHolding, loadLedger, ParcelError, tradeEvent } from "../ledger";
import type { LedgerEvent } from "../ledger";
import { assertCanWrite } from "../portfolios/access";
import { EXCHANGE_CURRENCY } from "../securities/securities.schemas";
import { findSecurity } from "../securities/securities.service";
import { csvRows, type Row } from "./trades-import.csv";
import { ImportRow, OUTGOING } from "./trades.schemas";

/**
 * Bulk import of trades (API.md Trades: POST /v1/portfolios/{p}/trades/import): a JSON array of
 * trade bodies or CSV with the header `date,type,symbol,exchange,quantity,price,brokerage,
 * currency,exchangeRate,source,notes` (column names, trade types, holding types and currency
 * codes in any case). All or nothing: every rejected row is reported with its line and reason,
 * and nothing is written. Rows are validated together with the existing ledger (a sell may use
 * units bought earlier in the same file), then written with one set-based INSERT.
 *
 * Everything is checked in memory before the first write, the holdings the file creates
 * included, so a dry run or a refused import writes nothing and uses up no ids.
 */
export const MAX_IMPORT_ROWS = 50_000;

/**
 * What a row equal to a recorded trade (same holding, trade date, type, quantity and price) does:
 * `error` refuses the import naming each such row, `skip` leaves them out, `allow` imports them.
 */
export const DUPLICATE_MODES = ["error", "skip", "allow"] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

/** REST's query strings; GraphQL hands over the same names (a boolean dryRun is taken too). */
export const ImportQuery = z.strictObject({
  dryRun: z
    .union([z.boolean(), z.enum(["true", "false"])], { error: "must be true or false" })
    .nullish()
    .transform((v) => v === true || v === "true")
    .describe("true validates the whole import (ledger rules included) and answers 200 without writing anything or using up ids"),
  duplicates: looseEnum(DUPLICATE_MODES, z.enum(DUPLICATE_MODES, { error: "must be error, skip or allow" }))
    .nullish()
    .transform((v): DuplicateMode => v ?? "error")
    .meta({ type: "string", enum: [...DUPLICATE_MODES], default: "error" })
    .describe("Rows equal to a recorded trade (same holding, date, type, quantity and price): error (409 naming each), skip (leave them out), allow (import them)"),
});

/** The answer of an import (REST and GraphQL alike). */
export interface ImportResult {
  dryRun: boolean;
  /** Trades written (0 on a dry run). */
  imported: number;
  /** Rows that passed validation and are (or on a dry run would be) imported; skipped rows are not counted. */
  valid: number;
  /** Holdings the import creates (or would create). */
  newHoldings: { symbol: string; exchange: string }[];
  tradeIds: number[];
  /** Rows left out with duplicates=skip: each row's line and the recorded trade it repeats. */
  skipped: SkippedRow[];
}

export interface SkippedRow {
  line: number;
  /** The id of the recorded trade the row repeats. */
  duplicateOf: number;
}

const rowError = (line: number, path: string, message: string): FieldError => ({ path: `line ${line}${path ? "." + path : ""}`, message, line });

/** A holding the file names: a recorded one, or one the import would create (negative id until written). */
interface ImportHolding {
  id: number;
  currencyCode: string;
  symbol: string | null;
  exchange: string | null;
  /** For a holding to create: the first row naming it, whose name and type it takes. */
  createFrom?: z.output<typeof ImportRow>;
}

/**
 * POST /v1/portfolios/{p}/trades/import. `query` is REST's query string, or GraphQL's
 * `{ dryRun, duplicates }`. A dry run runs every check a real import does and writes nothing.
 */
export async function importTrades(ctx: Context, portfolioId: unknown, body: unknown, query: unknown = {}): Promise<ImportResult> {
  const { dryRun, duplicates } = parseInput(ImportQuery, query ?? {}, "The query");
  assertCanWrite(ctx);
  const outside = await portfolioForLedger(ctx, portfolioId);

  let rows: Row[];
  if (typeof body === "string") rows = csvRows(body);
  else if (Array.isArray(body)) rows = body.map((raw, i) => ({ line: i + 1, raw: raw as Record<string, unknown> }));
  else throw new DomainError("VALIDATION_FAILED", "Send a JSON array of trades, or text/csv.", [{ path: "(body)", message: "must be a JSON array or CSV text" }]);
  if (rows.length === 0) throw new DomainError("VALIDATION_FAILED", "The import holds no trades.", [{ path: "(body)", message: "must hold at least one trade" }]);
  if (rows.length > MAX_IMPORT_ROWS) throw new DomainError("VALIDATION_FAILED", `An import holds at most ${MAX_IMPORT_ROWS} trades; this one has ${rows.length}.`);

  // 1. Each row on its own.
  const sources = await ctx.db.source.findMany({ select: { id: true, name: true } });
  const sourceByKey = new Map(sources.flatMap((s) => [[s.id, s.id] as const, [s.name.toLowerCase(), s.id] as const]));
  const errors: FieldError[] = [];
  const parsed: { line: number; data: z.output<typeof ImportRow> }[] = [];
  for (const row of rows) {
    if (!row.raw || typeof row.raw !== "object" || Array.isArray(row.raw)) {
      errors.push(rowError(row.line, "", "must be a trade object"));
      continue;
    }
    const source = row.raw.sourceId;
    const resolvedSource = typeof source === "string" ? sourceByKey.get(source) ?? sourceByKey.get(source.toLowerCase()) : source;
    if (typeof source === "string" && !resolvedSource) errors.push(rowError(row.line, "source", `is not a Source id or name (GET /v1/sources): ${source}`));
    const result = ImportRow.safeParse({ ...row.raw, sourceId: resolvedSource, portfolioId: row.raw.portfolioId ?? undefined });
    if (!result.success) {
      for (const e of fieldErrors(result.error, ImportRow)) errors.push(rowError(row.line, e.path === "(body)" ? "" : e.path, e.message));
      continue;
    }
    if (typeof source === "string" && !resolvedSource) continue;
    // The path names the portfolio; a row naming another one is a mistake, not a redirect.
    if (result.data.portfolioId !== undefined && result.data.portfolioId !== outside.id) {
      errors.push(rowError(row.line, "portfolioId", `must be ${outside.id}, the portfolio of the path, or absent`));
      continue;
    }
    parsed.push({ line: row.line, data: result.data });
  }
  if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

  return ctx.db.$transaction(async (tx) => {
    // The ledger's lock order: the portfolio (read again under its lock), then its holdings by id.
    const portfolio = await lockPortfolioForLedger(tx, ctx, outside.id);
    // 2. Holdings: the recorded ones locked; the new ones only planned, so nothing is written
    //    (and no id drawn) before every row has passed.
    const existing = await tx.holding.findMany({ where: { portfolioId: portfolio.id }, select: { id: true, symbol: true, exchange: true, currencyCode: true } });
    const byId = new Map<number, ImportHolding>(existing.map((h) => [h.id, h]));
    const bySymbol = new Map<string, ImportHolding>(existing.map((h) => [`${h.symbol}|${h.exchange}`, h]));
    if (existing.length) await tx.$queryRaw`SELECT id FROM holding WHERE portfolio_id = ${portfolio.id} ORDER BY id FOR UPDATE`;
    const planned: ImportHolding[] = [];
    const holdingOf = new Map<number, ImportHolding>();
    for (const { line, data } of parsed) {
      let h = data.holdingId !== undefined ? byId.get(data.holdingId) : bySymbol.get(`${data.symbol}|${data.exchange}`);
      if (!h && data.holdingId !== undefined) {
        errors.push(rowError(line, "holdingId", `is not a holding of portfolio ${portfolio.id}`));
        continue;
      }
      if (!h) {
        h = { id: -(planned.length + 1), symbol: data.symbol!, exchange: data.exchange!, currencyCode: await plannedCurrency(tx, portfolio, data), createFrom: data };
        planned.push(h);
        bySymbol.set(`${h.symbol}|${h.exchange}`, h);
      }
      holdingOf.set(line, h);
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    // A rate on a base-currency row is bad input (400, as POST /v1/trades answers), not a rule.
    for (const { line, data } of parsed) {
      const currency = data.currencyCode ?? holdingOf.get(line)!.currencyCode;
      if (currency === portfolio.baseCurrencyCode && data.exchangeRate && !data.exchangeRate.eq(1)) {
        errors.push(rowError(line, "exchangeRate", "must be 1 (or absent) for a trade in the portfolio's base currency"));
      }
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    // 3. Rows equal to a recorded trade: refused, left out or let through (?duplicates=).
    const skipped = duplicates === "allow" ? [] : await findDuplicates(tx, parsed, holdingOf);
    if (skipped.length && duplicates === "error") throw duplicatesFound(skipped);
    const skippedLines = new Set(skipped.map((d) => d.line));
    const kept = parsed.filter((p) => !skippedLines.has(p.line));

    // 4. Exchange rates: given, 1 in the base currency, or the FX table (one query for all rows).
    const foreign = kept.filter(({ line, data }) => (data.currencyCode ?? holdingOf.get(line)!.currencyCode) !== portfolio.baseCurrencyCode && !data.exchangeRate);
    const rateFor = await fxRates(tx, portfolio, foreign.map((r) => r.data.tradeDate));

    const prepared = kept.map(({ line, data }, i) => {
      const holding = holdingOf.get(line)!;
      const currencyCode = data.currencyCode ?? holding.currencyCode;
      let exchangeRate = data.exchangeRate;
      if (currencyCode === portfolio.baseCurrencyCode) {
        exchangeRate = new Decimal(1);
      } else if (!exchangeRate) {
        exchangeRate = rateFor(currencyCode, data.tradeDate);
        if (!exchangeRate) errors.push(rowError(line, "exchangeRate", `is required: no ${currencyCode} → ${portfolio.baseCurrencyCode} rate in the FX table on or in the 10 days before ${data.tradeDate}`));
      }
      return {
        line,
        holding,
        seq: 1e12 + i,
        tradeType: data.tradeType,
        tradeDate: data.tradeDate,
        quantity: signedQuantity(data),
        price: data.price ?? new Decimal(0),
        brokerage: data.brokerage ?? new Decimal(0),
        currencyCode,
        exchangeRate: exchangeRate ?? new Decimal(1),
        sourceId: data.sourceId ?? null,
        notes: data.notes ?? "",
        acquisitionDate: data.acquisitionDate ?? null,
        parcels: (data.parcels ?? []).map((p) => ({ tradeId: p.tradeId, units: p.quantity })),
      };
    });
    if (errors.length) throw importFailed("BUSINESS_RULE", errors);

    // 5. The ledger with the new rows, folded in memory: a short sell anywhere names its line.
    const holdingIds = [...new Set(prepared.map((p) => p.holding.id))];
    const ledger = await loadLedger(tx, portfolio, holdingIds.filter((id) => id > 0));
    const eventsOf = new Map<number, LedgerEvent[]>();
    for (const p of prepared) {
      const e = tradeEvent({ id: 0, holdingId: p.holding.id, tradeType: p.tradeType, tradeDate: p.tradeDate, quantity: p.quantity, price: p.price, brokerage: p.brokerage, exchangeRate: p.exchangeRate, acquisitionDate: p.acquisitionDate }, p.parcels.length ? p.parcels : undefined);
      const list = eventsOf.get(p.holding.id) ?? [];
      list.push({ ...e, key: `line ${p.line}`, tradeId: undefined, seq: p.seq });
      eventsOf.set(p.holding.id, list);
    }
    for (const [holdingId, added] of eventsOf) {
      try {
        const fold = foldHolding(ledger, holdingId, { add: added });
        // A Cancellation stores the units it took: every unit held on its date.
        for (const p of prepared.filter((x) => x.holding.id === holdingId && x.tradeType === "Cancellation")) {
          p.quantity = fold.disposals.filter((d) => d.eventKey === `line ${p.line}`).reduce((s, d) => s.minus(d.units), new Decimal(0));
        }
      } catch (error) {
        if (!(error instanceof ParcelError)) throw error;
        const line = Number(/^line (\d+)$/.exec(error.eventKey)?.[1]);
        errors.push(line ? rowError(line, "", error.message) : { path: error.eventKey, message: error.message });
      }
    }
    if (errors.length) throw importFailed("BUSINESS_RULE", errors);

    const newHoldings = planned.filter((h) => holdingIds.includes(h.id)).map((h) => ({ symbol: h.symbol!, exchange: h.exchange! }));
    const result: ImportResult = { dryRun, imported: 0, valid: prepared.length, newHoldings, tradeIds: [], skipped };
    if (dryRun || prepared.length === 0) return result;

    // 6. The writes: the new holdings in the order the file names them, then one INSERT for every
    //    row, in file order (ids follow the order: same-day entry order).
    for (const h of planned.filter((x) => holdingIds.includes(x.id))) {
      const created = await holdingForTrade(tx, ctx, portfolio, h.createFrom!);
      // Another account-wide write may have added the security since it was looked up: the rates were chosen for the planned currency.
      if (created.currencyCode !== h.currencyCode) throw new DomainError("CONFLICT", `The security ${h.symbol}.${h.exchange} changed while the import ran; nothing was written. Send the import again.`);
      h.id = created.id;
    }
    const col = <T>(f: (p: (typeof prepared)[number]) => T) => prepared.map(f);
    const inserted = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, source_id, notes, acquisition_date, updated_at)
      SELECT ${portfolio.id}, r.holding_id, r.trade_type::"TradeType", r.trade_date, r.quantity, r.price, r.brokerage, r.currency_code, r.exchange_rate, r.source_id, r.notes, r.acquisition_date, now()
      FROM unnest(
        ${col((p) => p.holding.id)}::int[], ${col((p) => p.tradeType)}::text[], ${col((p) => p.tradeDate)}::date[],
        ${col((p) => p.quantity.toFixed())}::numeric[], ${col((p) => p.price.toFixed())}::numeric[], ${col((p) => p.brokerage.toFixed())}::numeric[],
        ${col((p) => p.currencyCode)}::text[], ${col((p) => p.exchangeRate.toFixed())}::numeric[], ${col((p) => p.sourceId)}::uuid[],
        ${col((p) => p.notes)}::text[], ${col((p) => p.acquisitionDate)}::date[]
      ) WITH ORDINALITY AS r(holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, source_id, notes, acquisition_date, n)
      ORDER BY r.n
      RETURNING id`;
    const ids = inserted.map((r) => r.id).sort((a, b) => a - b);
    const picks = prepared.flatMap((p, i) => p.parcels.map((pick) => ({ sellTradeId: ids[i], parcelTradeId: pick.tradeId, quantity: pick.units.toFixed() })));
    if (picks.length) await tx.tradeParcel.createMany({ data: picks });
    return { ...result, imported: ids.length, tradeIds: ids };
  }, LEDGER_TX_OPTIONS);
}

/** Units as stored: negative for units leaving; a Cancellation without a quantity takes every unit (known after the fold). */
function signedQuantity(data: z.output<typeof ImportRow>): Decimal {
  const q = (data.quantity ?? new Decimal(0)).abs();
  return OUTGOING.has(data.tradeType) ? q.neg() : q;
}

/** The currency holdingForTrade will give a holding it creates for this row (the master list's, else the row's, else the exchange's). */
async function plannedCurrency(tx: Prisma.TransactionClient, portfolio: PortfolioForLedger, data: z.output<typeof ImportRow>): Promise<string> {
  const security = await findSecurity(tx, portfolio.accountId, data.symbol!, data.exchange!);
  if (security) return security.currencyCode;
  return data.currencyCode ?? (data.exchange !== "CUSTOM" ? EXCHANGE_CURRENCY[data.exchange!] : undefined) ?? portfolio.baseCurrencyCode;
}

/**
 * Rows equal to a recorded trade: same holding, trade date, type, and quantity and price as stored
 * (decimals compared exactly). Each recorded trade answers for one row at most, so a file with
 * three identical fills against two recorded ones repeats two of them; equal rows within the file
 * alone are not duplicates (identical fills happen). A Cancellation without a quantity matches
 * any recorded Cancellation of the holding on that date.
 */
async function findDuplicates(tx: Prisma.TransactionClient, rows: { line: number; data: z.output<typeof ImportRow> }[], holdingOf: Map<number, ImportHolding>): Promise<SkippedRow[]> {
  const recorded = rows.filter((r) => holdingOf.get(r.line)!.id > 0);
  if (recorded.length === 0) return [];
  const holdingIds = [...new Set(recorded.map((r) => holdingOf.get(r.line)!.id))];
  const dates = recorded.map((r) => r.data.tradeDate).sort();
  const trades = await tx.$queryRaw<{ id: number; holdingId: number; tradeType: string; tradeDate: string; quantity: string; price: string }[]>`
    SELECT id, holding_id AS "holdingId", trade_type::text AS "tradeType", trade_date::text AS "tradeDate", quantity::text AS quantity, price::text AS price
    FROM trade
    WHERE holding_id = ANY(${holdingIds}::int[]) AND trade_date BETWEEN ${dates[0]}::date AND ${dates[dates.length - 1]}::date
    ORDER BY id`;
  const key = (holdingId: number, date: string, type: string, quantity: string | undefined, price: string) => `${holdingId}|${date}|${type}|${quantity ?? "*"}|${price}`;
  const unmatched = new Map<string, number[]>();
  const take = (k: string, id: number) => {
    const list = unmatched.get(k) ?? [];
    list.push(id);
    unmatched.set(k, list);
  };
  for (const t of trades) {
    const price = new Decimal(t.price).toFixed();
    take(key(t.holdingId, t.tradeDate, t.tradeType, new Decimal(t.quantity).toFixed(), price), t.id);
    if (t.tradeType === "Cancellation") take(key(t.holdingId, t.tradeDate, t.tradeType, undefined, price), t.id);
  }
  const used = new Set<number>();
  const found: SkippedRow[] = [];
  for (const { line, data } of recorded) {
    const quantity = data.tradeType === "Cancellation" && !data.quantity ? undefined : signedQuantity(data).toFixed();
    const candidates = unmatched.get(key(holdingOf.get(line)!.id, data.tradeDate, data.tradeType, quantity, (data.price ?? new Decimal(0)).toFixed())) ?? [];
    const id = candidates.find((c) => !used.has(c));
    if (id === undefined) continue;
    used.add(id);
    found.push({ line, duplicateOf: id });
  }
  return found;
}

/** Rates to the base currency by currency, newest first, so each row finds its rate by a binary search (20,000 foreign rows against years of daily rates). */
async function fxRates(tx: Prisma.TransactionClient, portfolio: PortfolioForLedger, dates: string[]): Promise<(currency: string, date: string) => Decimal | undefined> {
  if (dates.length === 0) return () => undefined;
  const first = dates.reduce((m, d) => (d < m ? d : m));
  const last = dates.reduce((m, d) => (d > m ? d : m));
  const fx = await tx.fxRate.findMany({
    where: { accountId: portfolio.accountId, date: { gte: toDate(addDays(first, -10)), lte: toDate(last) }, OR: [{ base: portfolio.baseCurrencyCode }, { quote: portfolio.baseCurrencyCode }] },
    orderBy: { date: "desc" },
  });
  const ratesTo = new Map<string, { date: string; rate: Decimal }[]>();
  for (const r of fx) {
    const [currency, rate] = r.quote === portfolio.baseCurrencyCode ? [r.base, new Decimal(r.rate)] : [r.quote, new Decimal(1).div(r.rate).toDecimalPlaces(10, Decimal.ROUND_HALF_UP)];
    const list = ratesTo.get(currency) ?? [];
    list.push({ date: r.date.toISOString().slice(0, 10), rate });
    ratesTo.set(currency, list);
  }
  for (const list of ratesTo.values()) list.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return (currency, date) => {
    const list = ratesTo.get(currency);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].date > date) lo = mid + 1;
      else hi = mid;
    }
    const hit = list[lo];
    return hit && hit.date >= addDays(date, -10) ? hit.rate : undefined;
  };
}

/** 409: rows repeat recorded trades; each is named with its line and the trade it repeats. */
function duplicatesFound(found: SkippedRow[]): DomainError {
  const errors = found.map((d) => ({ ...rowError(d.line, "", `repeats trade ${d.duplicateOf} (same holding, date, type, quantity and price)`), duplicateOf: d.duplicateOf }));
  const n = found.length;
  return new DomainError(
    "CONFLICT",
    `The import was refused: ${n} row${n === 1 ? " repeats a trade" : "s repeat trades"} already recorded; nothing was written. Send ?duplicates=skip to leave ${n === 1 ? "it" : "them"} out, or ?duplicates=allow to import ${n === 1 ? "it" : "them"} anyway.`,
    errors,
  );
}

function importFailed(code: "VALIDATION_FAILED" | "BUSINESS_RULE", errors: FieldError[]): DomainError {
  const lines = [...new Set(errors.map((e) => e.line).filter(Boolean))];
  return new DomainError(code, `The import was rejected: ${errors.length} problem${errors.length === 1 ? "" : "s"} in ${lines.length || errors.length} row${(lines.length || errors.length) === 1 ? "" : "s"}; nothing was written.`, errors);
}

