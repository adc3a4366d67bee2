import type { Context } from "../../context";
import { forEachRow, rowError, tooManyRows } from "../../lib/bulk";
import { DomainError, type FieldError } from "../../lib/domain-errors";
import { fieldErrors, parseInput } from "../../lib/validation";
import { ParcelError, type LedgerEvent } from "../ledger";
import { loadFxTable } from "../ledger/fx-load";
import { assertCanWrite, scopedPortfolio } from "../ledger/portfolio-access";
import { ledgerWrite } from "../ledger/unit-of-work";
import { importFailed } from "../trades/trades-import.rows";
import {
  IncomeImportQuery,
  IncomeImportRow,
  incomeCsvRows,
  MAX_INCOME_IMPORT_ROWS,
  type IncomeImportResult,
  type Row,
} from "./income-import.rows";
import { newAllotment, newIncomeRecord } from "./stored-income";

export { IncomeImportQuery, type IncomeImportResult } from "./income-import.rows";

const byLine = (errors: FieldError[]) => errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));

/** Rows inserted by one statement: 24 columns each stay well under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1000;

/**
 * POST /v1/portfolios/{p}/income/import, GraphQL `importIncome` (docs/rules.md §6.1): a JSON
 * array of income bodies or CSV with their field names as the header, all or nothing. Each row is
 * the record createIncome would write (newIncomeRecord: amounts, franking credit, exchange rate,
 * a DRP's parcel), checked with the portfolio's ledger under its lock; every rejected row is
 * listed with its line and field and nothing is written. A dry run runs every check and writes
 * nothing. `query` is REST's query string, or GraphQL's `{ dryRun }`.
 */
export async function importIncome(
  ctx: Context,
  portfolioId: unknown,
  body: unknown,
  query: unknown = {},
): Promise<IncomeImportResult> {
  const { dryRun } = parseInput(IncomeImportQuery, query ?? {}, "The query");
  assertCanWrite(ctx);
  const outside = await scopedPortfolio(ctx, portfolioId);

  let rows: Row[];
  if (typeof body === "string") rows = await incomeCsvRows(body);
  else if (Array.isArray(body)) {
    // Counted before any row is looked at: the cost of a refusal must not grow with the body.
    if (body.length > MAX_INCOME_IMPORT_ROWS) throw tooManyRows("The import", MAX_INCOME_IMPORT_ROWS, body.length);
    rows = body.map((raw, i) => ({ line: i + 1, raw }));
  } else
    throw new DomainError("VALIDATION_FAILED", "Send a JSON array of income records, or text/csv.", [
      { path: "(body)", message: "must be a JSON array or CSV text" },
    ]);
  if (rows.length === 0)
    throw new DomainError("VALIDATION_FAILED", "The import holds no income records.", [
      { path: "(body)", message: "must hold at least one income record" },
    ]);

  // 1. Each row on its own.
  const errors: FieldError[] = [];
  const parsed: { line: number; data: IncomeImportRow }[] = [];
  await forEachRow(rows, ({ line, raw }) => {
    const result = IncomeImportRow.safeParse(raw);
    if (result.success) parsed.push({ line, data: result.data });
    else
      for (const e of fieldErrors(result.error, IncomeImportRow, raw))
        errors.push(rowError(line, e.path === "(body)" ? "" : e.path, e.message));
  });
  // Rows refused here are listed with those the next steps refuse: one answer names every bad row.

  // The ledger's lock order: the portfolio (read again under its lock), then its holdings by id.
  return ledgerWrite(ctx, outside.id, async ({ tx, portfolio, lockHoldings, load }) => {
    await lockHoldings();
    const holdings = await tx.holding.findMany({
      where: { portfolioId: portfolio.id },
      select: { id: true, portfolioId: true, symbol: true, exchange: true, currencyCode: true },
    });
    const byId = new Map(holdings.map((h) => [h.id, h]));
    const bySymbol = new Map(holdings.map((h) => [`${h.symbol}|${h.exchange}`, h]));

    // The one FX rule's rates for the rows that give none, read once for the file's dates.
    const fx = await loadFxTable(
      tx,
      portfolio,
      parsed.filter(({ data }) => data.exchangeRate === undefined).map(({ data }) => data.paidDate),
    );

    // 2. Each row as createIncome stores it, on a holding of this portfolio.
    const records: { line: number; row: Awaited<ReturnType<typeof newIncomeRecord>> }[] = [];
    const refused: FieldError[] = [];
    for (const { line, data } of parsed) {
      const holding =
        data.holdingId !== undefined ? byId.get(data.holdingId) : bySymbol.get(`${data.symbol}|${data.exchange}`);
      if (!holding) {
        errors.push(
          data.holdingId !== undefined
            ? rowError(line, "holdingId", `is not a holding of portfolio ${portfolio.id}`)
            : rowError(line, "symbol", `${data.symbol}.${data.exchange} is not a holding of portfolio ${portfolio.id}`),
        );
        continue;
      }
      try {
        records.push({
          line,
          row: await newIncomeRecord(tx, portfolio, holding, { ...data, holdingId: holding.id }, fx),
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // A field the row's own values get wrong (400), or a rule of the stored data (no exchange rate: 422).
        const into = error.code === "VALIDATION_FAILED" ? errors : refused;
        if (error.errors?.length) for (const e of error.errors) into.push(rowError(line, e.path, e.message));
        else into.push(rowError(line, "exchangeRate", error.message));
      }
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", byLine(errors));
    if (refused.length) throw importFailed("BUSINESS_RULE", byLine(refused));

    // 3. The DRP parcels with the ledger, folded in memory: a rule a row breaks names its line.
    const allotments = new Map<number, LedgerEvent[]>();
    for (const { line, row } of records) {
      const added = newAllotment(row, `line ${line}`);
      if (added) allotments.set(row.holdingId, [...(allotments.get(row.holdingId) ?? []), added]);
    }
    if (allotments.size) {
      const ledger = await load([...allotments.keys()]);
      for (const [holdingId, added] of allotments) {
        const fold = ledger.attempt(holdingId, added);
        if (!(fold instanceof ParcelError)) continue;
        const line = Number(/^line (\d+)$/.exec(fold.eventKey)?.[1]);
        if (line) refused.push(rowError(line, "", fold.message));
        // A recorded event the new parcels break (a later consolidation): every reinvested row of the holding is named.
        else
          for (const a of added)
            refused.push(rowError(Number(a.key.slice(5)), "", `${fold.message} (${fold.eventKey})`));
      }
      if (refused.length) throw importFailed("BUSINESS_RULE", refused);
    }

    const result: IncomeImportResult = { dryRun, imported: 0, valid: records.length, incomeIds: [] };
    if (dryRun) return result;

    // 4. The writes, in row order (ids follow it).
    const incomeIds: number[] = [];
    for (let i = 0; i < records.length; i += INSERT_CHUNK) {
      const created = await tx.income.createManyAndReturn({
        data: records.slice(i, i + INSERT_CHUNK).map((r) => r.row),
        select: { id: true },
      });
      incomeIds.push(...created.map((c) => c.id).sort((a, b) => a - b));
    }
    return { ...result, imported: incomeIds.length, incomeIds };
  });
}
