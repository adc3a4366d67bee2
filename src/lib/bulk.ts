import { DomainError, type FieldError } from "./domain-errors";
import { Slicer } from "./slices";

/**
 * Rules every bulk body (a JSON array or text/csv of rows) follows, whichever endpoint takes it:
 * its rows are counted before any is looked at, and looked at a slice at a time.
 */

export const formatCount = (n: number) => n.toLocaleString("en-US");

/** 413 for a bulk body with more rows than its endpoint takes at once (`given` when known). */
export function tooManyRows(what: string, max: number, given?: number): DomainError {
  const count = given === undefined ? `more than ${formatCount(max)}` : formatCount(given);
  const named = what.replace(/^The /, "the ");
  return new DomainError(
    "PAYLOAD_TOO_LARGE",
    `Too many rows (${count}) in ${named}: at most ${formatCount(max)} rows are accepted at once; send them in several requests.`,
    [{ path: "(body)", message: `must have at most ${formatCount(max)} rows` }],
  );
}

/**
 * `each` over the rows, in slices of the event loop (lib/slices.ts): validating 50,000 rows full
 * of errors takes seconds of CPU, which must not be seconds in which no other request (nor
 * /health) is answered.
 */
export async function forEachRow<T>(rows: readonly T[], each: (row: T, index: number) => void): Promise<void> {
  const slicer = new Slicer();
  for (let i = 0; i < rows.length; i++) {
    if (slicer.due()) await slicer.turn();
    each(rows[i], i);
  }
}

/**
 * A row's error at `field` (`line 3.close`, `line 3.parcels[0].tradeId`; the row itself when no
 * field), with its line: how every bulk body names a bad row (docs/conventions.md §7.4).
 */
export const rowError = (line: number, field: string, message: string): FieldError => ({
  path: `line ${line}${field ? (field.startsWith("[") ? "" : ".") + field : ""}`,
  message,
  line,
});
