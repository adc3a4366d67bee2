import type { CsvRecord } from "../../../lib/csv";
import {
  Columns,
  emptyRead,
  holdsColumns,
  isBlankRecord,
  RowReader,
  type BrokerFormat,
  type BrokerRead,
} from "./format";
import { exchangeOfCurrency } from "./ibkr-flex";

/**
 * Interactive Brokers' Activity Statement, CSV (docs/data.md §4; research notes §1.5): one file of
 * many sections, each line starting with its section's name and its kind (`Header`, `Data`,
 * `SubTotal`, `Total`). The trades are the `Trades` section's `Data` rows of `Order`s of `Stocks`.
 *
 * - The columns are read by name from the latest `Trades,Header` line: IBKR writes a new one when an
 *   asset category's columns differ (Forex has `Comm in USD`, not `Comm/Fee`), and some statements
 *   add `Account` or `TradeID`.
 * - `Date/Time` is `"yyyy-MM-dd, HH:mm:ss"`, quoted as it holds a comma; the time is not kept.
 * - The side is the sign of `Quantity` (a sell is negative, stored positive).
 * - Brokerage is `Comm/Fee`'s absolute value (IBKR writes it negative), in the row's `Currency`.
 * - The statement names no exchange: it follows the currency (ibkr-flex.ts exchangeOfCurrency: AUD
 *   ASX, USD NYSE, NZD NZX, GBP LSE, CAD TSX, HKD HKEX, SGD SGX, JPY TSE). A currency traded on
 *   several exchanges or none the service knows (EUR, CHF) is an error on `Currency` that points to
 *   the Flex Query, which names each trade's listing exchange.
 * - No exchange rate (the service takes its own for the trade date) and no reference: a second
 *   import of the same statement finds duplicates by equality.
 * - Listed as ignored: `SubTotal`/`Total` rows, asset categories other than Stocks (Forex, Equity
 *   and Index Options...), and discriminators other than `Order` (`Execution`, `ClosedLot`: an
 *   order's executions would count it twice).
 * - Lines of the sections after Trades (Dividends, Withholding Tax, Interest, Codes, Notes...) are
 *   listed once per run of lines of a section, not once a line: a statement has hundreds of them and
 *   the answer would be about them rather than the trades. The sections before the Trades header
 *   (Statement, Account Information, Net Asset Value...) are the file's preamble, as in every format.
 */

const HEADER = [
  "Trades",
  "Header",
  "DataDiscriminator",
  "Asset Category",
  "Currency",
  "Symbol",
  "Date/Time",
  "Quantity",
  "T. Price",
  "C. Price",
  "Proceeds",
  "Comm/Fee",
  "Basis",
  "Realized P/L",
  "MTM P/L",
  "Code",
] as const;

/** The columns a trade is read without: a statement's Trades header may leave them out. */
const UNREAD: readonly string[] = ["C. Price", "Proceeds", "Basis", "Realized P/L", "MTM P/L", "Code"];
const REQUIRED = HEADER.filter((c) => !UNREAD.includes(c));

const isTradesHeader = (cells: readonly string[]) =>
  /^trades$/i.test(cells[0]?.trim() ?? "") && /^header$/i.test(cells[1]?.trim() ?? "");

export const ibkrActivity: BrokerFormat = {
  id: "ibkr-activity",
  name: "Interactive Brokers Activity Statement",
  header: HEADER,
  media: "csv",
  guessesUsListing: true,
  findHeader: (records) => records.findIndex((r) => isTradesHeader(r.cells) && holdsColumns(r.cells, REQUIRED)),
  columnOf: () => ({
    tradeDate: "Date/Time",
    tradeType: "Quantity",
    symbol: "Symbol",
    quantity: "Quantity",
    price: "T. Price",
    brokerage: "Comm/Fee",
    currencyCode: "Currency",
  }),
  read(header, records) {
    const out = emptyRead();
    let columns = header;
    let readable = true;
    // The run of lines of another section being passed over: listed as one ignored entry.
    let other: { name: string; first: number; last: number } | undefined;
    const endOther = () => {
      if (!other) return;
      const lines = other.first === other.last ? `line ${other.first}` : `lines ${other.first}–${other.last}`;
      out.ignored.push({ line: other.first, reason: `the ${other.name} section (${lines}) is not trades` });
      other = undefined;
    };
    for (const record of records) {
      const cells = record.cells;
      if (isBlankRecord(record)) continue;
      const section = cells[0].trim();
      if (section.toLowerCase() !== "trades") {
        if (other && other.name !== section) endOther();
        other ??= { name: section, first: record.line, last: record.line };
        other.last = record.line;
        continue;
      }
      endOther();
      const kind = cells[1]?.trim() ?? "";
      if (/^header$/i.test(kind)) {
        columns = new Columns(cells);
        readable = holdsColumns(cells, REQUIRED);
        continue;
      }
      readRow(record, kind, columns, readable, out);
    }
    endOther();
    return out;
  },
};

function readRow(record: CsvRecord, kind: string, columns: Columns, readable: boolean, out: BrokerRead): void {
  const ignore = (reason: string): void => {
    out.ignored.push({ line: record.line, reason });
  };
  if (!/^data$/i.test(kind)) return ignore(`a ${kind || "(blank)"} row of the Trades section is not a trade`);
  const category = columns.cell(record, "Asset Category");
  if (category.toLowerCase() !== "stocks") return ignore(`Asset Category ${category || "(empty)"} is not Stocks`);
  const discriminator = columns.cell(record, "DataDiscriminator");
  if (discriminator.toLowerCase() !== "order") {
    return ignore(`DataDiscriminator ${discriminator || "(empty)"} is not Order: the Order rows are the trades`);
  }
  const row = new RowReader(columns, record, out.errors);
  if (!readable) {
    row.fail("Comm/Fee", "is not a column of the Trades header above this row");
    return;
  }
  const quantity = row.amount("Quantity");
  const currency = row.required("Currency").toUpperCase();
  const exchange = currency ? exchangeOfCurrency(currency) : "";
  if (exchange === undefined) {
    row.fail("Currency", `names no one exchange (${currency}): import a Flex Query, which names each trade's exchange`);
  }
  out.trades.push({
    line: row.line,
    raw: {
      tradeDate: row.date("Date/Time", "yyyy-mm-dd, hh:mm:ss"),
      tradeType: quantity.startsWith("-") ? "Sell" : "Buy",
      // IBKR writes a share class with a space (BRK B); the service's symbols use a dot (BRK.B).
      symbol: row.required("Symbol").toUpperCase().replace(/\s+/g, "."),
      exchange: exchange ?? "",
      quantity: quantity.replace(/^-/, ""),
      price: row.amount("T. Price"),
      brokerage: row.amount("Comm/Fee", "0").replace(/^-/, ""),
      currencyCode: currency,
    },
  });
}
