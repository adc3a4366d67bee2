import { readCsv, type HeaderProblem } from "../../lib/csv";
import { DomainError, type FieldError } from "../../lib/domain-errors";
import { MAX_IMPORT_ROWS, type Row } from "./trades-import.rows";

/**
 * The CSV form of a trade import (docs/conventions.md §7.4): the header names the columns, in any order and
 * case; the first three are required. Each row becomes the raw fields of a trade body, with the
 * line it starts on (the header is line 1), for trades-import.service.ts to validate.
 */
export const CSV_COLUMNS = [
  "date",
  "type",
  "symbol",
  "exchange",
  "quantity",
  "price",
  "brokerage",
  "currency",
  "exchangeRate",
  "source",
  "notes",
];
export const REQUIRED_COLUMNS = ["date", "type", "quantity"];
/** The CSV columns as the OpenAPI document describes the text/csv body. */
export const IMPORT_CSV = { columns: CSV_COLUMNS, required: REQUIRED_COLUMNS };

/** One error per bad column of line 1, each naming the column. */
function refuseHeader(problems: HeaderProblem[]): DomainError {
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
    `The CSV header must use the columns ${CSV_COLUMNS.join(",")} (in any order and case): ${errors.map((e) => `${e.path.slice(7)} ${e.message}`).join("; ")}.`,
    errors,
  );
}

/** CSV text → rows with their line numbers (the header is line 1); at most MAX_IMPORT_ROWS of them (413 beyond). */
export async function csvRows(text: string): Promise<Row[]> {
  const { header, rows } = await readCsv(text, {
    what: "The import",
    columns: CSV_COLUMNS,
    required: REQUIRED_COLUMNS,
    maxRows: MAX_IMPORT_ROWS,
    refuseHeader,
  });
  // Fewer cells than columns leave the last ones empty; more cells mean the row does not fit its
  // header (an unquoted comma in notes, say), and dropping them would import a different trade.
  const overfull = rows.filter(({ width }) => width > header.length);
  if (overfull.length) {
    const errors = overfull.map(({ width, line }) => ({
      path: `line ${line}`,
      message: `has ${width} cells for the header's ${header.length} columns (quote a cell that holds a comma)`,
      line,
    }));
    throw new DomainError(
      "VALIDATION_FAILED",
      `The CSV has ${overfull.length === 1 ? "a row" : `${overfull.length} rows`} with more cells than its header has columns, first on line ${errors[0].line}.`,
      errors,
    );
  }
  const column = new Map(header.map((c, i) => [c, i]));
  return rows.map(({ cells, line }) => {
    const get = (c: string) => {
      const i = column.get(c);
      const v = i === undefined ? undefined : cells[i];
      return v === undefined || v === "" ? undefined : v;
    };
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
