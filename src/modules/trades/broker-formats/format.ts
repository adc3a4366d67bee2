import type { CsvRecord } from "../../../lib/csv";
import type { FieldError } from "../../../lib/domain-errors";
import { Decimal } from "../../../lib/money";
import { parseDate, type DatePattern } from "./broker-dates";

/**
 * A broker's export read as it is (docs/data.md §4): each format is a detector (its header row,
 * found by content past a preamble), a column mapping and a row parser, in a file of its own under
 * this folder, registered in registry.ts. Adding a format is that file and a fixture.
 *
 * A format reads the file's records (CSV, or the rows of a workbook sheet, as text cells) into
 * trade bodies as the JSON import takes them, lists the rows that are not trades with the reason,
 * and names the line and the file's column of every cell it cannot read.
 */

export const BROKER_FORMAT_IDS = [
  "commsec",
  "commsec-summary",
  "commsec-confirmations",
  "selfwealth",
  "stake",
  "ibkr-flex",
  "ibkr-activity",
  "sharesight",
] as const;
export type BrokerFormatId = (typeof BROKER_FORMAT_IDS)[number];

/** A trade as the JSON import takes it (trades.schemas.ts ImportRow), every value as text. */
export interface BrokerTradeBody {
  tradeDate: string;
  tradeType: "Buy" | "Sell";
  symbol: string;
  exchange: string;
  quantity: string;
  price: string;
  brokerage: string;
  /** Absent: the holding's currency (the security's, else the exchange's). */
  currencyCode?: string;
  exchangeRate?: string;
  notes?: string;
  reference?: string;
}

export interface BrokerTrade {
  /** The line of the file (the row of the sheet) the trade is on. */
  line: number;
  raw: BrokerTradeBody;
}

/** A row of the file that is not a trade (interest, a deposit, a DRP `In`, a subtotal...). */
export interface IgnoredRow {
  line: number;
  reason: string;
}

export interface BrokerRead {
  trades: BrokerTrade[];
  ignored: IgnoredRow[];
  /** Said once for the file (e.g. trade dates derived from settlement dates). */
  warnings: string[];
  /** Cells that could not be read, each naming its line and the file's column. */
  errors: FieldError[];
  /** The currency the file's rates convert to, when it shows one (an IBKR account's own base). */
  ratesTo?: string;
}

export interface BrokerFormat {
  id: BrokerFormatId;
  /** As the broker names the export ("CommSec Transactions"). */
  name: string;
  /** The header row as the broker writes it, for the 400 of a file no format places. */
  header: readonly string[];
  /** What the body is: CSV text, or an .xlsx workbook. */
  media: "csv" | "xlsx";
  /**
   * The file names no exchange for US shares and the format writes US_EXCHANGE: the import takes
   * the portfolio's or the master list's US listing of the symbol instead, when there is one.
   */
  guessesUsListing?: true;
  /** The index in `records` of this format's header row, or -1 when the file is not this format. */
  findHeader(records: readonly CsvRecord[]): number;
  /**
   * The records after the header read into trades; `header` is the header row's cells. `before`:
   * the records above the header (a title, another section of a multi-section file), for a format
   * whose rows there are worth listing as ignored.
   */
  read(header: Columns, records: readonly CsvRecord[], before?: readonly CsvRecord[]): BrokerRead;
  /**
   * The file's column each field of a trade is read from (this file's, when the export's columns
   * vary): an error the import finds in a field names the column the user can look at. A field
   * worked out from several cells (Stake's brokerage, the sum of three fees) or not read from the
   * file at all (an ASX trade's exchange) has none, and the error names the field.
   */
  columnOf(header: Columns): ColumnOf;
}

/** The file's column a trade's field is read from, for the fields the file has a column for. */
export type ColumnOf = Partial<Record<keyof BrokerTradeBody, string>>;

/** A column name as matched: case, spaces and a stray space inside ("Buy/ Sell") do not count. */
export const columnKey = (name: string) => name.replace(/\s+/g, "").toLowerCase();

/** The header row's columns by name (columnKey), for cells read by the documented name. */
export class Columns {
  private readonly index = new Map<string, number>();
  /** The index by the name as a format asks for it, remembered: a file asks for the same few names on every row. */
  private readonly asked = new Map<string, number | undefined>();

  /** The names (columnKey) the header holds more than once. */
  private readonly repeated = new Set<string>();

  constructor(readonly names: readonly string[]) {
    names.forEach((n, i) => {
      const key = columnKey(n);
      if (!this.index.has(key)) this.index.set(key, i);
      else if (key !== "") this.repeated.add(key);
    });
  }

  /**
   * The columns a format read (cell) that the header holds more than once, as the header writes
   * them: which of the cells a row meant is unknown, so the file is refused rather than read from
   * the first (a repeated column nothing reads is no matter).
   */
  repeatedRead(): string[] {
    return [...this.asked.keys()]
      .filter((name) => this.repeated.has(columnKey(name)))
      .map((name) => this.names[this.index.get(columnKey(name))!]);
  }

  has(name: string): boolean {
    return this.index.has(columnKey(name));
  }

  /** The cell of `record` under `name` (trimmed; "" when the column or the cell is absent). */
  cell(record: CsvRecord, name: string): string {
    let i = this.asked.get(name);
    if (i === undefined && !this.asked.has(name)) this.asked.set(name, (i = this.index.get(columnKey(name))));
    return i === undefined ? "" : (record.cells[i] ?? "").trim();
  }
}

/** Whether `cells` hold every one of `required` as a column name (any order, case and spacing). */
export function holdsColumns(cells: readonly string[], required: readonly string[]): boolean {
  const keys = new Set(cells.map(columnKey));
  return required.every((r) => keys.has(columnKey(r)));
}

/** The first record holding every one of `required`: the header of a format matched by column names. */
export function findHeaderRow(records: readonly CsvRecord[], required: readonly string[]): number {
  return records.findIndex((r) => holdsColumns(r.cells, required));
}

/**
 * The detector of a format matched by column names: the header it documents, its media, and its
 * header row found as the first record holding every one of `required` (the whole header unless
 * the export's columns vary).
 */
export function detector(
  media: BrokerFormat["media"],
  header: readonly string[],
  required: readonly string[] = header,
): Pick<BrokerFormat, "header" | "media" | "findHeader"> {
  return { header, media, findHeader: (records) => findHeaderRow(records, required) };
}

/**
 * Reads one row's cells by the file's column names, collecting an error for each that cannot be
 * read: the path is `line N.<the file's column>`, as the user finds it in the file.
 */
export class RowReader {
  constructor(
    private readonly columns: Columns,
    private readonly record: CsvRecord,
    private readonly errors: FieldError[],
  ) {}

  get line(): number {
    return this.record.line;
  }

  text(column: string): string {
    return this.columns.cell(this.record, column);
  }

  /** A cell that must not be empty. */
  required(column: string): string {
    const value = this.text(column);
    if (value === "") this.fail(column, "is empty");
    return value;
  }

  /** A number as brokers write it: `$1,234.50`, `1 000`, `(12.50)` for −12.50; empty is `empty`. */
  amount(column: string, empty?: string): string {
    const value = this.text(column);
    if (value === "" && empty !== undefined) return empty;
    const parsed = parseAmount(value);
    if (parsed === undefined) this.fail(column, value === "" ? "is empty" : `is not a number: ${value}`);
    return parsed ?? "0";
  }

  /**
   * A date in one of the broker's patterns, as yyyy-mm-dd. `dayFirst`: d/mm/yyyy too (a time may
   * follow), as an Australian spreadsheet re-saves an Australian broker's dates (22/07/2024 0:00).
   */
  date(column: string, pattern: DatePattern, dayFirst = false): string {
    const value = this.text(column);
    const parsed = parseDate(value, pattern) ?? (dayFirst ? parseDate(value, "dd/mm/yyyy") : undefined);
    if (parsed === undefined) this.fail(column, value === "" ? "is empty" : `is not a date (${pattern}): ${value}`);
    return parsed ?? "1970-01-01";
  }

  fail(column: string, message: string): void {
    this.errors.push({ path: `line ${this.line}.${column}`, message, line: this.line });
  }
}

/** `$1,234.50` → "1234.50"; `(12.50)` → "-12.50"; undefined when not a number. */
export function parseAmount(text: string): string | undefined {
  let t = text.replace(/[\s$,]/g, "");
  let negative = false;
  if (/^\(.*\)$/.test(t)) [t, negative] = [t.slice(1, -1), true];
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  const d = new Decimal(t);
  return (negative ? d.negated() : d).toFixed();
}

/** A record whose cells are all empty (`,,,,`): no row of the file's, neither a trade nor ignored. */
export const isBlankRecord = (record: CsvRecord) => record.cells.every((c) => c.trim() === "");

/** The broker's reference as a trade body's field, when the row has one. */
export const withReference = (reference: string): { reference?: string } => (reference ? { reference } : {});

/** An empty read, to add to. */
export const emptyRead = (): BrokerRead => ({ trades: [], ignored: [], warnings: [], errors: [] });

/**
 * The read of a file of one row a record: `readRow` adds each row's trade or lists it as ignored,
 * and the RowReader collects its cells' errors. A blank record is no row (isBlankRecord).
 */
export function eachRow(
  columns: Columns,
  records: readonly CsvRecord[],
  readRow: (row: RowReader, out: BrokerRead) => void,
): BrokerRead {
  const out = emptyRead();
  for (const record of records) {
    if (!isBlankRecord(record)) readRow(new RowReader(columns, record, out.errors), out);
  }
  return out;
}

/**
 * The exchange of a US listing a file does not name (Stake's `Trades` sheet, an IBKR Activity
 * Statement's USD rows). The service has no generic "US" code (securities.schemas.ts
 * EXCHANGE_CURRENCY, Yahoo's suffixes): NYSE and NASDAQ price and trade alike (USD, no Yahoo
 * suffix), so NYSE stands for either; a symbol the master list holds on NASDAQ becomes a security of
 * the account's own on NYSE unless the import resolves it against the master list.
 */
export const US_EXCHANGE = "NYSE";
