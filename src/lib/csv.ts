import { Readable } from "node:stream";
import { setImmediate as yieldToIo } from "node:timers/promises";
import { CsvError, Parser } from "csv-parse";
import { formatCount, tooManyRows } from "./bulk";
import { DomainError, validationFailed, type FieldError } from "./domain-errors";
import { Slicer } from "./slices";
import { closest } from "./field-errors";
import { unclosedQuoteLine } from "./csv-unclosed-quote";

/**
 * The one reader of text/csv bulk bodies (trade imports, market prices, FX rates, custom prices).
 * It parses incrementally and stops at the row limit, so memory and CPU are bounded by the limit,
 * not by the file: csv-parse/sync built all 9,000,000 rows of a 17 MiB file before any count was
 * checked, and the process died out of heap (issue 20, row 1). Between chunks it yields to the
 * event loop, so a large body does not hold up every other request while it is read.
 */

/**
 * Characters parsed between two turns of the event loop. csv-parse parses a chunk whole before the
 * first of its records is read: 64 KiB of `1\n` rows was 32,000 records and a second of CPU in one turn.
 */
const CHUNK_CHARS = 4 * 1024;
/** Bytes one record's cells may hold: the widest real row is a trade with a 10,000-character note (30 KB in UTF-8 at most). */
export const MAX_RECORD_BYTES = 64 * 1024;

/** Something wrong with the header row (line 1), for the endpoint to word as its clients know it. */
export type HeaderProblem =
  | { kind: "unknown"; column: string; near?: string }
  | { kind: "repeated"; column: string }
  | { kind: "missing"; column: string };

export interface CsvSpec {
  /** How messages name the body: "The market prices", "The import". */
  what: string;
  /** The columns the header may name, as documented; matched in any case and spacing. */
  columns: readonly string[];
  required: readonly string[];
  /** Data rows accepted at once (the header not counted). */
  maxRows: number;
  /** The error answered for a header with problems (in header order, then the missing columns). */
  refuseHeader(problems: HeaderProblem[], header: string[]): DomainError;
}

export interface CsvRow {
  /** The line the row starts on as the user counts them: the header is line 1, blank lines count. */
  line: number;
  /** The cells as given (trimmed), up to the header's width; fewer than the header's columns is the caller's call. */
  cells: string[];
  /** How many cells the row has, past the header's width too (the caller refuses such a row). */
  width: number;
}

export interface CsvTable {
  /** The header's column names, as documented (`exchangeRate` for `EXCHANGERATE`). */
  header: string[];
  rows: CsvRow[];
}

/** The header row checked against the spec: the names as documented, and what is wrong with it. */
export function matchHeader(
  given: string[],
  columns: readonly string[],
  required: readonly string[],
): { header: string[]; problems: HeaderProblem[] } {
  const byLowerCase = new Map(columns.map((c) => [c.toLowerCase(), c]));
  const header = given.map((h) => byLowerCase.get(h.trim().toLowerCase()) ?? h.trim());
  const problems: HeaderProblem[] = [];
  header.forEach((h, i) => {
    if (!columns.includes(h)) problems.push({ kind: "unknown", column: h, near: closest(h, columns) });
    else if (header.indexOf(h) !== i) problems.push({ kind: "repeated", column: h });
  });
  for (const c of required) if (!header.includes(c)) problems.push({ kind: "missing", column: c });
  return { header, problems };
}

/**
 * Cells one record may have. csv-parse builds a record's cells before anyone can count them, and
 * max_record_size counts the bytes of cells, not the commas between them: one line of 19 MiB of
 * commas was 10,000,000 empty cells and half a GB. No bulk body has a tenth of this many columns.
 */
export const MAX_CELLS = 1000;

/**
 * The body's text in chunks of about CHUNK_CHARS, line breaks made "\n" (Excel writes CRLF; one
 * kind of break keeps csv-parse's line count the file's), with a pause for the event loop after
 * each. A chunk never ends inside a surrogate pair or between a CR and its LF. Cells are counted
 * on the way (commas outside quotes, as RFC 4180 quotes them), and a record of more than MAX_CELLS
 * ends the text with a refusal before the parser reaches it.
 */
async function* chunks(text: string, what: string): AsyncGenerator<string> {
  let quoted = false;
  let cells = 1;
  let line = 1;
  let recordLine = 1;
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + CHUNK_CHARS, text.length);
    if (end < text.length) {
      const last = text.charCodeAt(end - 1);
      if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) end--;
    }
    const chunk = text.slice(start, end).replace(/\r\n?/g, "\n");
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x22) quoted = !quoted;
      else if (c === 0x0a) {
        line++;
        if (!quoted) [cells, recordLine] = [1, line];
      } else if (c === 0x2c && !quoted && ++cells > MAX_CELLS) {
        const message = `has more than ${formatCount(MAX_CELLS)} cells`;
        throw validationFailed(`${what} is not valid CSV: line ${recordLine} ${message}.`, [
          { path: `line ${recordLine}`, message },
        ]);
      }
    }
    yield chunk;
    start = end;
    await yieldToIo();
  }
}

/** A record as the parser hands it on: its cells and the line it ends on. */
interface LinedRecord {
  record: string[];
  endLine: number;
}

/**
 * csv-parse's stream, each record handed on with the line it ends on, read off the parser's own
 * count as the record is pushed (the value its `info` option gives). The `info` option itself
 * copies the parser's state twice for every record: half of the parser's time.
 */
class LinedParser extends Parser {
  override push(record: string[] | null, encoding?: BufferEncoding): boolean {
    return super.push(record === null ? null : ({ record, endLine: this.info.lines } satisfies LinedRecord), encoding);
  }
}

/** A record of the body: its cells (trimmed) and the line it starts on (the first line is 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * The body's records, parsed incrementally. `tooMany(parsed)` answers whether the records parsed
 * so far (counted by the parser, the header included) are past the caller's limit: a CSV error
 * ahead of the records read drops those parsed before it, and they still say whether the limit
 * came first. Leaving the loop early stops the parser and the text.
 */
async function* csvRecords(text: string, what: string, tooMany: (parsed: number) => DomainError | undefined) {
  const source = Readable.from(chunks(text, what));
  const parser = source.pipe(
    new LinedParser({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  source.on("error", (error) => parser.destroy(error));
  const slicer = new Slicer();
  try {
    for await (const { record, endLine } of parser as AsyncIterable<LinedRecord>) {
      // A quoted cell may span lines: the record starts as many lines before its end as it holds breaks.
      let line = endLine;
      for (const cell of record) for (let i = cell.indexOf("\n"); i >= 0; i = cell.indexOf("\n", i + 1)) line--;
      yield { line, cells: record } satisfies CsvRecord;
      // Records parsed ahead are read without a turn of the event loop in between: give it one.
      if (slicer.due()) await slicer.turn();
    }
  } catch (error) {
    // csv-parse's codes are not all CSV_-prefixed (INVALID_OPENING_QUOTE): any CsvError is the body's.
    if (!(error instanceof CsvError)) throw error;
    const limit = tooMany(parser.info.records);
    if (limit) throw limit;
    // A quote that never closes is found at the end of the text: the line to fix is the one it opens on.
    const lines =
      (error.code === "CSV_QUOTE_NOT_CLOSED" ? unclosedQuoteLine(text) : undefined) ??
      (error as CsvError & { lines?: number }).lines ??
      1;
    throw validationFailed(`${what} is not valid CSV: ${error.message}`, [
      { path: `line ${lines}`, message: error.message },
    ]);
  } finally {
    // Leaving the loop early (a bad header, one row too many) stops the parser; this stops the text.
    source.destroy();
  }
}

/**
 * Reads a CSV bulk body: the header (line 1) checked by name, then at most `maxRows` rows. One row
 * more and reading stops with 413, whatever the rest of the body holds.
 */
export async function readCsv(text: string, spec: CsvSpec): Promise<CsvTable> {
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  const over = (parsed: number) => (parsed - 1 > spec.maxRows ? tooManyRows(spec.what, spec.maxRows) : undefined);
  for await (const { line, cells: record } of csvRecords(text, spec.what, over)) {
    if (!header) {
      const matched = matchHeader(record, spec.columns, spec.required);
      if (matched.problems.length) throw spec.refuseHeader(matched.problems, matched.header);
      header = matched.header;
      continue;
    }
    if (rows.length === spec.maxRows) throw tooManyRows(spec.what, spec.maxRows);
    // Cells past the header's are never read, only counted: 50,000 over-full rows keep no more.
    rows.push({
      line,
      cells: record.length > header.length ? record.slice(0, header.length) : record,
      width: record.length,
    });
  }
  if (!header) {
    const message = `must be the header ${spec.columns.join(",")} (in any order and case)`;
    throw validationFailed(`${spec.what} is empty; the first line must be the header ${spec.columns.join(",")}.`, [
      { path: "line 1", message },
    ]);
  }
  return { header, rows };
}

/**
 * Reads every record of a CSV body whose header is not on line 1 or not one (a broker's export:
 * a preamble, several sections, a trailer), at most `maxRecords` of them (413 beyond, counted
 * as rows of `what`).
 */
export async function readCsvRecords(text: string, spec: { what: string; maxRecords: number }): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  const over = (parsed: number) => (parsed > spec.maxRecords ? tooManyRows(spec.what, spec.maxRecords) : undefined);
  for await (const record of csvRecords(text, spec.what, over)) {
    if (records.length === spec.maxRecords) throw tooManyRows(spec.what, spec.maxRecords);
    records.push(record);
  }
  return records;
}

/**
 * The refusal of a header with problems as the imports word it: one error per bad column of line
 * 1 (`line 1.brokrage`: "is not a known column; did you mean brokerage?"), the documented columns
 * in the message.
 */
export function refuseHeaderColumns(columns: readonly string[]): CsvSpec["refuseHeader"] {
  return (problems) => {
    const errors: FieldError[] = problems.map((p) => ({
      path: `line 1.${p.column}`,
      message:
        p.kind === "unknown"
          ? `is not a known column${p.near ? `; did you mean ${p.near}?` : ""}`
          : p.kind === "repeated"
            ? "repeats a column"
            : "is a required column and is missing",
      line: 1,
    }));
    return new DomainError(
      "VALIDATION_FAILED",
      `The CSV header must use the columns ${columns.join(",")} (in any order and case): ${errors.map((e) => `${e.path.slice(7)} ${e.message}`).join("; ")}.`,
      errors,
    );
  };
}

/**
 * Refuses rows with more cells than the header has columns, naming each line: an unquoted comma
 * in a note, say, and dropping the extra cells would import something else than was meant.
 */
export function refuseOverfullRows({ header, rows }: CsvTable): void {
  const errors: FieldError[] = rows
    .filter(({ width }) => width > header.length)
    .map(({ width, line }) => ({
      path: `line ${line}`,
      message: `has ${width} cells for the header's ${header.length} columns (quote a cell that holds a comma)`,
      line,
    }));
  if (errors.length)
    throw new DomainError(
      "VALIDATION_FAILED",
      `The CSV has ${errors.length === 1 ? "a row" : `${errors.length} rows`} with more cells than its header has columns, first on line ${errors[0].line}.`,
      errors,
    );
}
