import { setImmediate as yieldToIo } from "node:timers/promises";
import { DomainError } from "./errors";

/**
 * Rules every bulk body (a JSON array or text/csv of rows) follows, whichever endpoint takes it:
 * its rows are counted before any is looked at, and looked at a slice at a time.
 */

/** Rows handled between two turns of the event loop. */
const ROWS_PER_TURN = 1000;

export const formatCount = (n: number) => n.toLocaleString("en-US");

/** 413 for a bulk body with more rows than its endpoint takes at once (`given` when known). */
export function tooManyRows(what: string, max: number, given?: number): DomainError {
  const count = given === undefined ? `more than ${formatCount(max)}` : formatCount(given);
  const named = what.replace(/^The /, "the ");
  return new DomainError("PAYLOAD_TOO_LARGE", `Too many rows (${count}) in ${named}: at most ${formatCount(max)} rows are accepted at once; send them in several requests.`, [
    { path: "(body)", message: `must have at most ${formatCount(max)} rows` },
  ]);
}

/**
 * `each` over the rows, with a turn of the event loop every ROWS_PER_TURN rows: validating 50,000
 * rows full of errors takes seconds of CPU, which must not be seconds in which no other request
 * (nor /health) is answered.
 */
export async function forEachRow<T>(rows: readonly T[], each: (row: T, index: number) => void): Promise<void> {
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await yieldToIo();
    each(rows[i], i);
  }
}
