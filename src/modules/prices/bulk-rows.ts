import type { z } from "zod";
import { forEachRow, rowError, tooManyRows } from "../../lib/bulk";
import { readCsv, type HeaderProblem } from "../../lib/csv";
import { MAX_LISTED_ERRORS, validationFailed, type DomainError, type FieldError } from "../../lib/domain-errors";
import { fieldErrors } from "../../lib/validation";

/**
 * The rows of a bulk body (custom prices, market prices, exchange rates): a JSON array or the
 * text of a text/csv body, each row validated on its own and named in errors by its label. Every
 * error is collected before any is answered; nothing is written on any error.
 */

/**
 * A row of a bulk body, with the line errors name it by (docs/conventions.md §7.4): in CSV as a
 * spreadsheet counts it (the header is line 1), in a JSON array its position + 1.
 */
export interface BulkRow {
  line: number;
  value: unknown;
}

/**
 * A JSON array as parsed by the transport, or the text of a text/csv body, as rows with their
 * lines: at most `max` of them, counted before any row is validated (a CSV is read no further than
 * that). `what` names the rows, in the plural, as errors begin ("The market prices are invalid").
 */
export async function bulkRows(
  input: unknown,
  columns: readonly string[],
  max: number,
  what: string,
): Promise<BulkRow[]> {
  if (typeof input === "string") return csvRows(input, columns, max, what);
  if (!Array.isArray(input))
    throw validationFailed(`${what} must be a JSON array or text/csv.`, [
      { path: "(body)", message: "must be a JSON array of rows, or text/csv" },
    ]);
  if (input.length > max) throw tooManyRows(what, max, input.length);
  return input.map((value, i) => ({ line: i + 1, value }));
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
    return validationFailed(`${what} are invalid: line 1: ${message}.`, [{ path: "line 1", message }]);
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
    line: r.line,
    value: Object.fromEntries(header.map((c, i) => [c, r.cells[i]])),
  }));
}

/** Validates every row, listing each bad field under its row's line; nothing is written on any error. */
export async function validateRows<S extends z.ZodType>(
  schema: S,
  rows: BulkRow[],
  what: string,
): Promise<z.output<S>[]> {
  if (rows.length === 0)
    throw validationFailed(`${what} are missing: the body has no rows.`, [
      { path: "(body)", message: "must have at least 1 row" },
    ]);
  const errors: FieldError[] = [];
  const values: z.output<S>[] = [];
  await forEachRow(rows, (row) => {
    const result = schema.safeParse(row.value);
    if (result.success) values.push(result.data);
    else
      for (const e of fieldErrors(result.error, schema, row.value))
        errors.push(rowError(row.line, e.path === "(body)" ? "" : e.path, e.message));
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
  return validationFailed(`${what} are invalid: ${detail}`, errors);
}

/** An upsert cannot write one key twice in a statement, and which row should win is unclear: refused. */
export function rejectRepeats<T>(
  rows: BulkRow[],
  values: T[],
  key: (v: T) => string,
  field: string,
  what: string,
  sameness: string,
): void {
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  values.forEach((v, i) => {
    const k = key(v);
    const first = seen.get(k);
    if (first) errors.push(rowError(rows[i].line, field, `repeats line ${first} (${sameness})`));
    else seen.set(k, rows[i].line);
  });
  if (errors.length > 0) throw invalidRows(what, errors);
}
