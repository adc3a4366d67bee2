import { z } from "zod";
import { readCsv, refuseHeaderColumns, refuseOverfullRows } from "../../lib/csv";
import { crossField, idSchema } from "../../lib/validation";
import { exchangeCode, symbol } from "../securities/securities.schemas";
import { ImportQuery, MAX_IMPORT_ROWS } from "../trades/trades-import.rows";
import { incomeFields, incomeRules } from "./income.schemas";

/**
 * The rows of an income import (income-import.service.ts, docs/rules.md §6.1): the row
 * schema, the CSV form and the answer. A row is an income body (POST /v1/income) whose holding is
 * named by holdingId or by symbol and exchange, a holding of the import's portfolio.
 */
export const MAX_INCOME_IMPORT_ROWS = MAX_IMPORT_ROWS;

/** REST's query string; GraphQL hands over the same name. */
export const IncomeImportQuery = ImportQuery.pick({ dryRun: true });

export const IncomeImportRow = z
  .strictObject({
    ...incomeFields,
    holdingId: idSchema.optional().describe("The holding; or give symbol and exchange"),
    symbol: symbol.optional().describe("With exchange: a holding of the portfolio"),
    exchange: exchangeCode.optional(),
  })
  .check(
    crossField((i, ctx, valid) => {
      incomeRules(i, ctx, valid);
      if (valid("holdingId") && valid("symbol") && valid("exchange") && i.holdingId === undefined)
        if (!i.symbol || !i.exchange)
          ctx.addIssue({ code: "custom", path: ["symbol"], message: "give holdingId, or symbol and exchange" });
    }),
  )
  .meta({ id: "IncomeImportRow" });
export type IncomeImportRow = z.output<typeof IncomeImportRow>;

/** The answer of an income import (REST and GraphQL alike). */
export interface IncomeImportResult {
  dryRun: boolean;
  /** Records written (0 on a dry run). */
  imported: number;
  /** Rows that passed every check and are (on a dry run: would be) imported. */
  valid: number;
  /** Ids of the records written, in row order. */
  incomeIds: number[];
}

export const IncomeImportResponse = z
  .object({
    dryRun: z.boolean(),
    imported: z.number().int().describe("Records written (0 on a dry run)"),
    valid: z.number().int().describe("Rows that passed every check"),
    incomeIds: z.array(z.number().int()).describe("Ids of the records written, in row order"),
  })
  .meta({ id: "IncomeImportResult" });

/** One row as given, with the line it starts on (CSV: the header is line 1; JSON: position + 1). */
export interface Row {
  line: number;
  raw: unknown;
}

const BOOLEAN_COLUMNS = new Set(["isTrustIncome", "isReinvested", "isConfirmed"]);
/** The CSV columns: the row's field names (components, a JSON object, only in JSON rows). */
export const INCOME_CSV_COLUMNS = Object.keys(IncomeImportRow.shape).filter((c) => c !== "components");
export const INCOME_CSV = { columns: INCOME_CSV_COLUMNS, required: ["exDividendDate", "paidDate"] };

/** CSV text → rows of raw fields with their lines; at most MAX_INCOME_IMPORT_ROWS (413 beyond). */
export async function incomeCsvRows(text: string): Promise<Row[]> {
  const { header, rows } = await readCsv(text, {
    what: "The import",
    ...INCOME_CSV,
    maxRows: MAX_INCOME_IMPORT_ROWS,
    refuseHeader: refuseHeaderColumns(INCOME_CSV_COLUMNS),
  });
  refuseOverfullRows({ header, rows });
  return rows.map(({ cells, line }) => {
    const raw: Record<string, unknown> = {};
    header.forEach((column, i) => {
      const cell = cells[i];
      if (cell === undefined || cell === "") return;
      // true/false in any case; anything else is left for the schema to refuse at its field.
      raw[column] = BOOLEAN_COLUMNS.has(column) && /^(true|false)$/i.test(cell) ? cell.toLowerCase() === "true" : cell;
    });
    return { line, raw };
  });
}
