import { BROKER_FORMATS } from "./broker-formats/registry";
import { CSV_COLUMNS } from "./trades-import.csv";

/** A format the trade import reads (GET /v1/trade-import-formats, Query.tradeImportFormats). */
export interface TradeImportFormatView {
  /** The import's `format` for it. */
  id: string;
  name: string;
  /** csv: text/csv (REST and GraphQL); xlsx: the workbook, REST only. */
  media: "csv" | "xlsx";
  /** The header row it is found by, as the broker writes it (matched in any case and spacing). */
  header: string[];
}

/**
 * The formats the trade import reads, in the order `format=auto` tries them: this service's own
 * columns, then each broker's export (docs/imports.md). What a client offers its user to pick from,
 * and the header each looks for when a file is placed in none.
 */
export async function listTradeImportFormats(): Promise<TradeImportFormatView[]> {
  return [
    { id: "native", name: "This service's own columns", media: "csv", header: [...CSV_COLUMNS] },
    ...BROKER_FORMATS.map((f) => ({ id: f.id, name: f.name, media: f.media, header: [...f.header] })),
  ];
}
