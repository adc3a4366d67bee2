import { z } from "zod";
import { forEachRow, rowError } from "../../lib/bulk";
import { DomainError, MAX_LISTED_ERRORS, type FieldError } from "../../lib/domain-errors";
import { fieldErrors, looseEnum } from "../../lib/validation";
import { ImportRow } from "./trades.schemas";
import { BROKER_FORMAT_IDS } from "./broker-formats/format";

/**
 * The rows of a trade import (trades-import.service.ts): its query, its answer, and each row
 * checked on its own before the ledger sees any of them.
 */
export const MAX_IMPORT_ROWS = 50_000;

/** One row of an import as given (JSON, or a CSV line's cells by column), with the line it starts on (CSV; the header is line 1). */
export interface Row {
  line: number;
  raw: Record<string, unknown>;
  /** The row is a line of this service's CSV: errors name its columns (date, not tradeDate). */
  csv?: true;
  /** The row is a trade of a broker's file: errors name the file's column each field was read from. */
  fileColumns?: Readonly<Record<string, string | undefined>>;
}

/** Fields the native CSV names otherwise: the CSV column of each (trades-import.csv.ts). */
export const CSV_COLUMN_OF_FIELD: Readonly<Record<string, string>> = {
  tradeDate: "date",
  tradeType: "type",
  currencyCode: "currency",
  sourceId: "source",
};
const FIELD_OF_CSV_COLUMN: ReadonlyMap<string, string> = new Map(
  Object.entries(CSV_COLUMN_OF_FIELD).map(([field, column]) => [column, field]),
);

/** A JSON row's unknown field that is a CSV column's name (`date`) names the JSON field meant (`tradeDate`). */
function csvNameInJson(row: Pick<Row, "csv" | "fileColumns">, error: FieldError): string {
  const field = !row.csv && !row.fileColumns ? FIELD_OF_CSV_COLUMN.get(error.path) : undefined;
  return field && error.message.startsWith("is not a known field")
    ? `is not a known field; did you mean ${field}? (${error.path} is the column's name in a CSV file)`
    : error.message;
}

/**
 * A row's error at a field, as its author finds it: a CSV row's path names the column and the
 * message the JSON field, a JSON row's the other way round, so that either points at the other. A
 * broker file's row names the file's column the field was read from, and the field in the message.
 */
export function fieldError(row: Pick<Row, "line" | "csv" | "fileColumns">, field: string, message: string): FieldError {
  const [head, ...rest] = field.split(".");
  if (row.fileColumns) {
    const read = Object.hasOwn(row.fileColumns, head) ? row.fileColumns[head] : undefined;
    return read
      ? rowError(row.line, read, `${message} (the trade's ${field}, as read from the column ${read})`)
      : rowError(row.line, field, message);
  }
  const column = CSV_COLUMN_OF_FIELD[head];
  if (!column) return rowError(row.line, field, message);
  return row.csv
    ? rowError(row.line, [column, ...rest].join("."), `${message} (the field ${head} of a JSON row)`)
    : rowError(row.line, field, `${message} (the column ${column} of a CSV file)`);
}

/**
 * What a row equal to a recorded trade (same holding, trade date, type, quantity and price) does:
 * `error` refuses the import naming each such row, `skip` leaves them out, `allow` imports them.
 */
export const DUPLICATE_MODES = ["error", "skip", "allow"] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

/** What the body is read as: `auto` (the default) finds it; `native` is this service's own columns or JSON. */
export const IMPORT_FORMATS = ["auto", "native", ...BROKER_FORMAT_IDS] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** REST's query strings; GraphQL hands over the same names (a boolean dryRun is taken too). */
export const ImportQuery = z.strictObject({
  format: looseEnum(IMPORT_FORMATS, z.enum(IMPORT_FORMATS, { error: `must be one of ${IMPORT_FORMATS.join(", ")}` }))
    .nullish()
    .transform((v): ImportFormat => v ?? "auto")
    .meta({ type: "string", enum: [...IMPORT_FORMATS], default: "auto" })
    .describe(
      "The file's format: auto (found from the header row, past a preamble), native (this service's columns or JSON), or a broker's export as downloaded (docs/imports.md)",
    ),
  dryRun: z
    .union([z.boolean(), z.enum(["true", "false"])], { error: "must be true or false" })
    .nullish()
    .transform((v) => v === true || v === "true")
    .describe(
      "true validates the whole import (ledger rules included) and answers 200 without writing anything or using up ids",
    ),
  duplicates: looseEnum(DUPLICATE_MODES, z.enum(DUPLICATE_MODES, { error: "must be error, skip or allow" }))
    .nullish()
    .transform((v): DuplicateMode => v ?? "error")
    .meta({ type: "string", enum: [...DUPLICATE_MODES], default: "error" })
    .describe(
      "Rows whose broker reference a recorded trade of the portfolio has, or equal to a recorded trade (same holding, date, type, quantity and price): error (409 naming each), skip (leave them out), allow (import them)",
    ),
});

/** The answer of an import (REST and GraphQL alike). */
export interface ImportResult {
  dryRun: boolean;
  /** The format the body was read as (`native` for JSON and this service's CSV). */
  format: Exclude<ImportFormat, "auto">;
  /** Rows of a broker's file that are not trades (interest, deposits, DRP allotments...), with the reason. */
  ignored: { line: number; reason: string }[];
  /** Said of the whole file (e.g. trade dates derived from settlement dates). */
  warnings: string[];
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
  /** The broker reference both have, when that is what makes it a duplicate. */
  reference?: string;
}

/** A holding the file names: a recorded one, or one the import would create (negative id until written). */
export interface ImportHolding {
  id: number;
  currencyCode: string;
  symbol: string | null;
  exchange: string | null;
  /** For a holding to create: the first row naming it, whose name and type it takes. */
  createFrom?: z.output<typeof ImportRow>;
}

export type ImportRowData = z.output<typeof ImportRow>;
export interface ParsedRow {
  line: number;
  data: ImportRowData;
}

/**
 * Each row on its own: a trade object, a known source (by id or name, any case), valid fields,
 * and no other portfolio than the path's. Every problem is collected before any is answered.
 */
export async function parseRows(
  rows: Row[],
  sources: { id: string; name: string }[],
  portfolioId: number,
): Promise<ParsedRow[]> {
  const sourceByKey = new Map(sources.flatMap((s) => [[s.id, s.id] as const, [s.name.toLowerCase(), s.id] as const]));
  const errors: FieldError[] = [];
  const parsed: ParsedRow[] = [];
  await forEachRow(rows, (row) => {
    if (!row.raw || typeof row.raw !== "object" || Array.isArray(row.raw)) {
      errors.push(rowError(row.line, "", "must be a trade object"));
      return;
    }
    const source = row.raw.sourceId;
    const resolvedSource =
      typeof source === "string" ? (sourceByKey.get(source) ?? sourceByKey.get(source.toLowerCase())) : source;
    if (typeof source === "string" && !resolvedSource)
      errors.push(fieldError(row, "sourceId", `is not a Source id or name (GET /v1/sources): ${source}`));
    // A copy only where the row changes: a source named by its name, or a null portfolio (absent).
    const given =
      typeof source === "string" || row.raw.portfolioId === null
        ? { ...row.raw, sourceId: resolvedSource, portfolioId: row.raw.portfolioId ?? undefined }
        : row.raw;
    const result = ImportRow.safeParse(given);
    if (!result.success) {
      for (const e of fieldErrors(result.error, ImportRow, given))
        errors.push(
          e.path === "(body)" ? rowError(row.line, "", e.message) : fieldError(row, e.path, csvNameInJson(row, e)),
        );
      return;
    }
    if (typeof source === "string" && !resolvedSource) return;
    // The path names the portfolio; a row naming another one is a mistake, not a redirect.
    if (result.data.portfolioId !== undefined && result.data.portfolioId !== portfolioId) {
      errors.push(rowError(row.line, "portfolioId", `must be ${portfolioId}, the portfolio of the path, or absent`));
      return;
    }
    parsed.push({ line: row.line, data: result.data });
  });
  if (errors.length) throw importFailed("VALIDATION_FAILED", errors);
  return parsed;
}

export function importFailed(code: "VALIDATION_FAILED" | "BUSINESS_RULE", errors: FieldError[]): DomainError {
  const lines = [...new Set(errors.map((e) => e.line).filter(Boolean))];
  const listed = errors.length > MAX_LISTED_ERRORS ? ` (the first ${MAX_LISTED_ERRORS} are listed)` : "";
  return new DomainError(
    code,
    `The import was rejected: ${errors.length} problem${errors.length === 1 ? "" : "s"} in ${lines.length || errors.length} row${(lines.length || errors.length) === 1 ? "" : "s"}${listed}; nothing was written.`,
    errors,
  );
}
