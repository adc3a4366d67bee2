import { stringify } from "csv-stringify/sync";
import { Decimal } from "./money";

/**
 * The one writer of CSV answers (report downloads, the trade export): a header row, then one row
 * per item, RFC 4180 quoting (csv-stringify), CRLF line ends and a UTF-8 text without BOM.
 *
 * Numbers are written as numbers (a Decimal in full, never in exponent notation), so a
 * spreadsheet sums them. A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is written with a leading `'` (OWASP's CSV injection guard): a security name or a note
 * typed by someone else must not run as a formula on the adviser's machine. A cell that starts
 * with `'` gets one too, so that reading one `'` off (unguardedCell) gives back what was typed.
 * A cell holding a line break is quoted, whichever break it is: unquoted, a spreadsheet would
 * start a row there, and the guard would not cover the row's first cell. So is a cell with a
 * space at either end: readers trim unquoted cells (this service's import does), not quoted ones.
 */

export type CsvValue = string | number | boolean | Decimal | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const GUARDED_START = /^[=+\-@\t\r']/;

/** One cell as written: numbers as numbers, text guarded, null and undefined empty. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Decimal) return value.toFixed();
  if (typeof value === "number") return Number.isFinite(value) ? new Decimal(value).toFixed() : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return GUARDED_START.test(value) ? `'${value}` : value;
}

/**
 * A text cell as it was before the guard: one leading `'` off a cell the guard prefixes. A reader
 * that turns every line break into \n (lib/csv.ts) hands a guarded `'\r\n…` on as `'\n…`: that
 * `'` is the guard's too.
 */
export function unguardedCell(value: string): string {
  return value.startsWith("'") && (GUARDED_START.test(value.slice(1)) || value[1] === "\n") ? value.slice(1) : value;
}

/** The CSV text of `rows` under `columns`. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify(
    [columns.map((c) => csvCell(c.header)), ...rows.map((r) => columns.map((c) => csvCell(c.value(r))))],
    { record_delimiter: "windows", quoted_match: /[\r\n]|^\s|\s$/ },
  );
}

/** A CSV drawing of an operation's answer (a list of T), for its `Accept: text/csv` form. */
export interface CsvView {
  fileName: string;
  /** The headers, for the API description. */
  columns: readonly string[];
  render: (result: unknown) => string;
}

/**
 * `columns` drawn over the answer's rows: the answer itself when it is the list, else the list
 * `rowsOf` takes from it (a report's holdings).
 */
export function csvView<T, R = T[]>(
  fileName: string,
  columns: readonly CsvColumn<T>[],
  rowsOf: (result: R) => readonly T[] = (result) => result as unknown as T[],
): CsvView {
  return { fileName, columns: columns.map((c) => c.header), render: (result) => toCsv(columns, rowsOf(result as R)) };
}
