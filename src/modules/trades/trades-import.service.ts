import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import type { Context } from "../../context";
import { addDays, toDate } from "../../lib/dates";
import { DomainError, type FieldError } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { fieldErrors, parseInput } from "../../lib/validation";
import { holdingForTrade, LEDGER_TX_OPTIONS, lockPortfolioForLedger, portfolioForLedger } from "../holdings/holdings.service";
import { foldHolding, loadLedger, ParcelError, tradeEvent } from "../holdings/ledger";
import type { LedgerEvent } from "../holdings/parcels";
import { assertCanWrite } from "../portfolios/access";
import { ImportRow, OUTGOING } from "./trades.schemas";

/**
 * Bulk import of trades (API.md Trades: POST /v1/portfolios/{p}/trades/import): a JSON array of
 * trade bodies or CSV with the header `date,type,symbol,exchange,quantity,price,brokerage,
 * currency,exchangeRate,source,notes`. All or nothing: every rejected row is reported with its
 * line and reason, and nothing is written. Rows are validated together with the existing ledger
 * (a sell may use units bought earlier in the same file), then written with one set-based INSERT.
 */
export const MAX_IMPORT_ROWS = 50_000;
const CSV_COLUMNS = ["date", "type", "symbol", "exchange", "quantity", "price", "brokerage", "currency", "exchangeRate", "source", "notes"];

export const ImportQuery = z.object({
  dryRun: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true"),
});

export interface ImportResult {
  dryRun: boolean;
  /** Trades written (0 on a dry run). */
  imported: number;
  /** Rows that passed validation. */
  valid: number;
  /** Holdings the import creates (or would create). */
  newHoldings: { symbol: string; exchange: string }[];
  tradeIds: number[];
}

interface Row {
  line: number;
  raw: Record<string, unknown>;
}

/** CSV text → rows with their line numbers (the header is line 1). */
function csvRows(text: string): Row[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // One kind of line break, so the parser's line count is the file's (Excel writes CRLF).
    records = parseCsv(text.replace(/\r\n?/g, "\n"), { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, info: true }) as never;
  } catch (error) {
    throw new DomainError("VALIDATION_FAILED", `The CSV cannot be read: ${(error as Error).message}`);
  }
  if (records.length === 0) throw new DomainError("VALIDATION_FAILED", "The CSV is empty; the first line must be the header.");
  const header = records[0].record.map((h) => h.trim());
  const unknown = header.filter((h) => !CSV_COLUMNS.includes(h));
  const missing = ["date", "type", "quantity"].filter((c) => !header.includes(c));
  if (unknown.length || missing.length) {
    throw new DomainError(
      "VALIDATION_FAILED",
      `The CSV header must use the columns ${CSV_COLUMNS.join(",")}${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}${missing.length ? `; missing: ${missing.join(", ")}` : ""}.`,
    );
  }
  return records.slice(1).map(({ record: cells, info }) => {
    const get = (c: string) => {
      const v = cells[header.indexOf(c)];
      return v === undefined || v === "" ? undefined : v;
    };
    // info.lines is the line a record ends on; a quoted cell may span lines.
    const line = info.lines - cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
    return {
      line,
      raw: {
        tradeDate: get("date"),
        tradeType: get("type"),
        symbol: get("symbol"),
        exchange: get("exchange"),
        quantity: get("quantity"),
        price: get("price"),
        brokerage: get("brokerage"),
        currencyCode: get("currency"),
        exchangeRate: get("exchangeRate"),
        sourceId: get("source"),
        notes: get("notes"),
      },
    };
  });
}

const rowError = (line: number, path: string, message: string): FieldError => ({ path: `line ${line}${path ? "." + path : ""}`, message, line });

export async function importTrades(ctx: Context, portfolioId: unknown, body: unknown, query: unknown = {}): Promise<ImportResult> {
  const { dryRun } = parseInput(ImportQuery, query ?? {}, "The query");
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
    if (typeof source === "string" && !resolvedSource) {
      errors.push(rowError(row.line, "source", `is not a Source id or name (GET /v1/sources): ${source}`));
      continue;
    }
    const result = ImportRow.safeParse({ ...row.raw, sourceId: resolvedSource, portfolioId: row.raw.portfolioId ?? undefined });
    if (!result.success) {
      for (const e of fieldErrors(result.error)) errors.push(rowError(row.line, e.path === "(body)" ? "" : e.path, e.message));
      continue;
    }
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
    // 2. Holdings: the existing ones locked, the new ones created (rolled back on a dry run).
    const existing = await tx.holding.findMany({ where: { portfolioId: portfolio.id }, select: { id: true, symbol: true, exchange: true, currencyCode: true } });
    const byId = new Map(existing.map((h) => [h.id, h]));
    const bySymbol = new Map(existing.map((h) => [`${h.symbol}|${h.exchange}`, h]));
    if (existing.length) await tx.$queryRaw`SELECT id FROM holding WHERE portfolio_id = ${portfolio.id} ORDER BY id FOR UPDATE`;
    const newHoldings: { symbol: string; exchange: string }[] = [];
    const holdingOf = new Map<number, { id: number; currencyCode: string }>();
    for (const { line, data } of parsed) {
      let h = data.holdingId !== undefined ? byId.get(data.holdingId) : bySymbol.get(`${data.symbol}|${data.exchange}`);
      if (!h && data.holdingId !== undefined) {
        errors.push(rowError(line, "holdingId", `is not a holding of portfolio ${portfolio.id}`));
        continue;
      }
      if (!h) {
        h = await holdingForTrade(tx, ctx, portfolio, data);
        bySymbol.set(`${h.symbol}|${h.exchange}`, h);
        byId.set(h.id, h);
        newHoldings.push({ symbol: h.symbol!, exchange: h.exchange! });
      }
      holdingOf.set(line, h);
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    // 3. Exchange rates: given, 1 in the base currency, or the FX table (one query for all rows).
    const foreign = parsed.filter(({ line, data }) => (data.currencyCode ?? holdingOf.get(line)!.currencyCode) !== portfolio.baseCurrencyCode && !data.exchangeRate);
    const fx = foreign.length
      ? await tx.fxRate.findMany({
          where: {
            accountId: portfolio.accountId,
            date: { gte: toDate(addDays(foreign.reduce((m, r) => (r.data.tradeDate < m ? r.data.tradeDate : m), "9999-12-31"), -10)), lte: toDate(foreign.reduce((m, r) => (r.data.tradeDate > m ? r.data.tradeDate : m), "0000-01-01")) },
            OR: [{ base: portfolio.baseCurrencyCode }, { quote: portfolio.baseCurrencyCode }],
          },
          orderBy: { date: "desc" },
        })
      : [];
    // Rates to the base currency by currency, newest first, so each row finds its rate by a binary
    // search instead of a scan (20,000 foreign rows against years of daily rates).
    const ratesTo = new Map<string, { date: string; rate: Decimal }[]>();
    for (const r of fx) {
      const [currency, rate] = r.quote === portfolio.baseCurrencyCode ? [r.base, new Decimal(r.rate)] : [r.quote, new Decimal(1).div(r.rate).toDecimalPlaces(10, Decimal.ROUND_HALF_UP)];
      const list = ratesTo.get(currency) ?? [];
      list.push({ date: r.date.toISOString().slice(0, 10), rate });
      ratesTo.set(currency, list);
    }
    for (const list of ratesTo.values()) list.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    const rateFor = (currency: string, date: string): Decimal | undefined => {
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

    // A rate on a base-currency row is bad input (400, as POST /v1/trades answers), not a rule.
    for (const { line, data } of parsed) {
      const currency = data.currencyCode ?? holdingOf.get(line)!.currencyCode;
      if (currency === portfolio.baseCurrencyCode && data.exchangeRate && !data.exchangeRate.eq(1)) {
        errors.push(rowError(line, "exchangeRate", "must be 1 (or absent) for a trade in the portfolio's base currency"));
      }
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    const prepared = parsed.map(({ line, data }, i) => {
      const holding = holdingOf.get(line)!;
      const currencyCode = data.currencyCode ?? holding.currencyCode;
      let exchangeRate = data.exchangeRate;
      if (currencyCode === portfolio.baseCurrencyCode) {
        exchangeRate = new Decimal(1);
      } else if (!exchangeRate) {
        exchangeRate = rateFor(currencyCode, data.tradeDate);
        if (!exchangeRate) errors.push(rowError(line, "exchangeRate", `is required: no ${currencyCode} → ${portfolio.baseCurrencyCode} rate in the FX table on or in the 10 days before ${data.tradeDate}`));
      }
      const q = (data.quantity ?? new Decimal(0)).abs();
      return {
        line,
        holdingId: holding.id,
        seq: 1e12 + i,
        tradeType: data.tradeType,
        tradeDate: data.tradeDate,
        quantity: OUTGOING.has(data.tradeType) ? q.neg() : q,
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

    // 4. The ledger with the new rows: a short sell anywhere names its line.
    const ledger = await loadLedger(tx, portfolio, [...new Set(prepared.map((p) => p.holdingId))]);
    const eventsOf = new Map<number, LedgerEvent[]>();
    for (const p of prepared) {
      const e = tradeEvent({ id: 0, holdingId: p.holdingId, tradeType: p.tradeType, tradeDate: p.tradeDate, quantity: p.quantity, price: p.price, brokerage: p.brokerage, exchangeRate: p.exchangeRate, acquisitionDate: p.acquisitionDate }, p.parcels.length ? p.parcels : undefined);
      const list = eventsOf.get(p.holdingId) ?? [];
      list.push({ ...e, key: `line ${p.line}`, tradeId: undefined, seq: p.seq });
      eventsOf.set(p.holdingId, list);
    }
    for (const [holdingId, added] of eventsOf) {
      try {
        const fold = foldHolding(ledger, holdingId, { add: added });
        // A Cancellation stores the units it took: every unit held on its date.
        for (const p of prepared.filter((x) => x.holdingId === holdingId && x.tradeType === "Cancellation")) {
          p.quantity = fold.disposals.filter((d) => d.eventKey === `line ${p.line}`).reduce((s, d) => s.minus(d.units), new Decimal(0));
        }
      } catch (error) {
        if (!(error instanceof ParcelError)) throw error;
        const line = Number(/^line (\d+)$/.exec(error.eventKey)?.[1]);
        errors.push(line ? rowError(line, "", error.message) : { path: error.eventKey, message: error.message });
      }
    }
    if (errors.length) throw importFailed("BUSINESS_RULE", errors);

    const result: ImportResult = { dryRun, imported: 0, valid: prepared.length, newHoldings, tradeIds: [] };
    if (dryRun) throw new DryRunDone(result);

    // 5. One INSERT for every row, in file order (ids follow the order: same-day entry order).
    const col = <T>(f: (p: (typeof prepared)[number]) => T) => prepared.map(f);
    const inserted = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, source_id, notes, acquisition_date, updated_at)
      SELECT ${portfolio.id}, r.holding_id, r.trade_type::"TradeType", r.trade_date, r.quantity, r.price, r.brokerage, r.currency_code, r.exchange_rate, r.source_id, r.notes, r.acquisition_date, now()
      FROM unnest(
        ${col((p) => p.holdingId)}::int[], ${col((p) => p.tradeType)}::text[], ${col((p) => p.tradeDate)}::date[],
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
  }, LEDGER_TX_OPTIONS).catch((error) => {
    if (error instanceof DryRunDone) return error.result;
    throw error;
  });
}

/** Thrown to roll a dry run's transaction back (holdings it created included). */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

function importFailed(code: "VALIDATION_FAILED" | "BUSINESS_RULE", errors: FieldError[]): DomainError {
  const lines = [...new Set(errors.map((e) => e.line).filter(Boolean))];
  return new DomainError(code, `The import was rejected: ${errors.length} problem${errors.length === 1 ? "" : "s"} in ${lines.length || errors.length} row${(lines.length || errors.length) === 1 ? "" : "s"}; nothing was written.`, errors);
}

