import { readCsv, refuseHeaderColumns, refuseOverfullRows } from "../../lib/csv";
import { unguardedCell } from "../../lib/csv-out";
import { MAX_IMPORT_ROWS, type Row } from "./trades-import.rows";

/**
 * The CSV form of a trade import (docs/conventions.md §7.4), and of the trade export
 * (trades-export.ts): the header names the columns, in any order and case; date, type and
 * quantity are required. holdingType and name apply to a holding the row creates. Each row becomes the raw fields of a trade body, with the
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
  "reference",
  "acquisitionDate",
  "holdingType",
  "name",
] as const;
export const REQUIRED_COLUMNS = ["date", "type", "quantity"];
/** The CSV columns as the OpenAPI document describes the text/csv body. */
export const IMPORT_CSV = { columns: [...CSV_COLUMNS], required: REQUIRED_COLUMNS };

/** CSV text → rows with their line numbers (the header is line 1); at most MAX_IMPORT_ROWS of them (413 beyond). */
export async function csvRows(text: string): Promise<Row[]> {
  const { header, rows } = await readCsv(text, {
    what: "The import",
    columns: CSV_COLUMNS,
    required: REQUIRED_COLUMNS,
    maxRows: MAX_IMPORT_ROWS,
    refuseHeader: refuseHeaderColumns(CSV_COLUMNS),
  });
  // Fewer cells than columns leave the last ones empty; more cells do not fit the header.
  refuseOverfullRows({ header, rows });
  const column = new Map(header.map((c, i) => [c, i]));
  return rows.map(({ cells, line }) => {
    const get = (c: string) => {
      const i = column.get(c);
      const v = i === undefined ? undefined : cells[i];
      // A text cell a CSV writer guarded against formulas ('=…, as the export writes) reads back as written.
      return v === undefined || v === "" ? undefined : unguardedCell(v);
    };
    return {
      line,
      csv: true as const,
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
        reference: get("reference"),
        acquisitionDate: get("acquisitionDate"),
        holdingType: get("holdingType"),
        name: get("name"),
      },
    };
  });
}
