import { readCsvRecords, type CsvRecord } from "../../../lib/csv";
import { tooManyRows } from "../../../lib/bulk";
import { DomainError } from "../../../lib/domain-errors";
import { commsec } from "./commsec";
import { commsecConfirmations } from "./commsec-confirmations";
import { commsecSummary } from "./commsec-summary";
import { Columns, type BrokerFormat, type BrokerFormatId, type BrokerRead, type ColumnOf } from "./format";
import { ibkrActivity } from "./ibkr-activity";
import { ibkrFlex } from "./ibkr-flex";
import { selfwealth } from "./selfwealth";
import { sharesight } from "./sharesight";
import { stake } from "./stake";
import { readXlsxSheet } from "./xlsx";

/**
 * The broker formats the trade import reads (docs/data.md §4), in the order `auto` tries them: a
 * file is the first format whose header row it holds. Headers are distinct enough that at most
 * one matches a real export; CommSec's three come first as the most common in Australia.
 */
export const BROKER_FORMATS: readonly BrokerFormat[] = [
  commsec,
  commsecSummary,
  commsecConfirmations,
  selfwealth,
  stake,
  ibkrFlex,
  ibkrActivity,
  sharesight,
];

/** Records of a broker file read at the most: the trades' limit, plus room for the rows that are not trades. */
const MAX_RECORDS = 100_000;

export interface BrokerFile {
  format: BrokerFormat;
  /** The line of the header row. */
  headerLine: number;
  read: BrokerRead;
  /** The file's column each field of its trades was read from. */
  columnOf: ColumnOf;
}

/**
 * Reads a broker's export: CSV text or an .xlsx workbook, in the format named, or with `auto` the
 * one whose header it holds. A file no format places is a 400 listing each format's header.
 * `maxTrades`: the import's row limit (413 beyond).
 */
export async function readBrokerFile(
  body: string | Buffer,
  format: BrokerFormatId | "auto",
  maxTrades: number,
): Promise<BrokerFile> {
  const media = typeof body === "string" ? "csv" : "xlsx";
  const candidates = BROKER_FORMATS.filter((f) => f.media === media && (format === "auto" || f.id === format));
  if (candidates.length === 0) throw wrongMedia(format, media);
  const records =
    media === "csv"
      ? await readCsvRecords(body as string, { what: "The import", maxRecords: MAX_RECORDS })
      : await readXlsxSheet(body as Buffer, "Trades", "The import", MAX_RECORDS);
  for (const f of candidates) {
    const at = f.findHeader(records);
    if (at < 0) continue;
    const header = new Columns(records[at].cells);
    const read = f.read(header, records.slice(at + 1), records.slice(0, at));
    const repeated = header.repeatedRead();
    if (repeated.length > 0) throw repeatedColumns(f, records[at].line, repeated);
    if (read.trades.length > maxTrades) throw tooManyRows("The import", maxTrades, read.trades.length);
    return { format: f, headerLine: records[at].line, read, columnOf: f.columnOf(header) };
  }
  throw unplaced(format, candidates, records);
}

function repeatedColumns(format: BrokerFormat, line: number, columns: string[]): DomainError {
  const errors = columns.map((column) => ({
    path: `line ${line}.${column}`,
    message: "repeats a column the import reads: which of its cells a row means is unknown; keep one",
    line,
  }));
  return new DomainError(
    "VALIDATION_FAILED",
    `The ${format.name} file cannot be read: its header (line ${line}) repeats ${columns.join(", ")}.`,
    errors,
  );
}

function wrongMedia(format: BrokerFormatId | "auto", media: "csv" | "xlsx"): DomainError {
  const message =
    media === "xlsx"
      ? `an .xlsx workbook is read as ${BROKER_FORMATS.filter((f) => f.media === "xlsx")
          .map((f) => f.id)
          .join(", ")}, not ${format}`
      : `${format} is an .xlsx workbook: send it as application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`;
  return new DomainError("VALIDATION_FAILED", `The import cannot be read: ${message}.`, [{ path: "format", message }]);
}

/** The 400 of a file that holds no header of the formats tried: each format with the header it looks for. */
function unplaced(
  format: BrokerFormatId | "auto",
  tried: readonly BrokerFormat[],
  records: readonly CsvRecord[],
): DomainError {
  const first = records[0]?.cells.join(",") ?? "(an empty file)";
  const expected = tried.map((f) => `${f.id} (${f.name}): ${f.header.join(",")}`);
  const summary =
    format === "auto"
      ? `The import matches no known format: no line holds the header of one (its first line is ${first.slice(0, 200)}). Send the file as exported, or give its format; each format is listed with the header it looks for.`
      : `The import is not a ${tried[0].name} file: no line holds its header ${tried[0].header.join(",")}.`;
  return new DomainError(
    "VALIDATION_FAILED",
    summary,
    expected.map((e) => ({ path: "(body)", message: `is not ${e}` })),
  );
}
