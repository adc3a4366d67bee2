import { parse as parseCsv } from "csv-parse/sync";
import { DomainError, type FieldError } from "../../lib/errors";
import { closest } from "../../lib/validation";

/**
 * The CSV form of a trade import (API.md Trades): the header names the columns, in any order and
 * case; the first three are required. Each row becomes the raw fields of a trade body, with the
 * line it starts on (the header is line 1), for trades-import.service.ts to validate.
 */
export const CSV_COLUMNS = ["date", "type", "symbol", "exchange", "quantity", "price", "brokerage", "currency", "exchangeRate", "source", "notes"];
export const REQUIRED_COLUMNS = ["date", "type", "quantity"];
/** The CSV columns as the OpenAPI document describes the text/csv body. */
export const IMPORT_CSV = { columns: CSV_COLUMNS, required: REQUIRED_COLUMNS };

export interface Row {
  line: number;
  raw: Record<string, unknown>;
}

/** CSV text → rows with their line numbers (the header is line 1). Column names are read in any case. */
export function csvRows(text: string): Row[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // One kind of line break, so the parser's line count is the file's (Excel writes CRLF).
    records = parseCsv(text.replace(/\r\n?/g, "\n"), { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, info: true }) as never;
  } catch (error) {
    throw new DomainError("VALIDATION_FAILED", `The CSV cannot be read: ${(error as Error).message}`);
  }
  if (records.length === 0) throw new DomainError("VALIDATION_FAILED", "The CSV is empty; the first line must be the header.");
  const byLowerCase = new Map(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const header = records[0].record.map((h) => byLowerCase.get(h.trim().toLowerCase()) ?? h.trim());
  const headerErrors: FieldError[] = [];
  header.forEach((h, i) => {
    if (!CSV_COLUMNS.includes(h)) {
      const near = closest(h, CSV_COLUMNS);
      headerErrors.push({ path: `line 1.${h}`, message: `is not a known column${near ? `; did you mean ${near}?` : ""}`, line: 1 });
    } else if (header.indexOf(h) !== i) headerErrors.push({ path: `line 1.${h}`, message: "repeats a column", line: 1 });
  });
  for (const c of REQUIRED_COLUMNS) if (!header.includes(c)) headerErrors.push({ path: `line 1.${c}`, message: "is a required column and is missing", line: 1 });
  if (headerErrors.length) {
    throw new DomainError("VALIDATION_FAILED", `The CSV header must use the columns ${CSV_COLUMNS.join(",")} (in any order and case): ${headerErrors.map((e) => `${e.path.slice(7)} ${e.message}`).join("; ")}.`, headerErrors);
  }
  // Fewer cells than columns leave the last ones empty; more cells mean the row does not fit its
  // header (an unquoted comma in notes, say), and dropping them would import a different trade.
  const overfull = records.slice(1).filter(({ record }) => record.length > header.length);
  if (overfull.length) {
    const errors = overfull.slice(0, 100).map(({ record, info }) => ({ path: `line ${info.lines}`, message: `has ${record.length} cells for the header's ${header.length} columns (quote a cell that holds a comma)`, line: info.lines }));
    throw new DomainError("VALIDATION_FAILED", `The CSV has rows with more cells than its header has columns, first on line ${errors[0].line}.`, errors);
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

