import {
  Columns,
  detector,
  emptyRead,
  holdsColumns,
  isBlankRecord,
  parseAmount,
  RowReader,
  US_EXCHANGE,
  type BrokerFormat,
  type BrokerRead,
} from "./format";
import { parseDate } from "./broker-dates";

/**
 * Interactive Brokers' Flex Query, CSV, Trades section (docs/data.md §4; research notes §1.5): the
 * columns are the ones the user ticked, read by name in any order; others are ignored.
 *
 * The file comes plain (the header row, then one row a trade) or wrapped. "Include header and
 * trailer records" writes `HEADER,TRNT,<columns>` and `DATA,TRNT,<cells>` lines between `BOF`/`EOF`
 * and `TRAILER` lines; older files put `BOS,TRNT`…`EOS` around each section and `BOA`/`EOA` around
 * each account. A query of several sections (cash transactions CTRN, equity summary EQUT…) holds
 * their headers and rows too: only the trades section is read, another section's rows are listed as
 * ignored, and wrapper and header lines are not rows.
 *
 * - `TradeDate` is yyyyMMdd (yyyy-MM-dd when the query is set so).
 * - `Buy/Sell` is BUY or SELL; a sell's `Quantity` is negative and stored positive. A cancellation
 *   (`BUY (Ca.)`) is an error: its trade is in the file or an earlier one, and importing one of the
 *   two without the other would be wrong either way.
 * - `IBCommission` is negative: brokerage is its absolute value, in the trade's currency
 *   (`CurrencyPrimary`; IBKR charges in the trade's currency unless the account is set otherwise).
 * - The exchange rate is `FXRateToBase` (base-currency units per unit of the trade's currency, as
 *   this service's rate is), when the query has the column.
 * - The exchange is `ListingExchange` in the service's codes (LISTING_EXCHANGES); a code not in the
 *   table is that cell's error (the service takes known exchanges only: a typo must not make a second
 *   holding). Without the column, the exchange follows the currency (exchangeOfCurrency).
 * - The reference is `TransactionID`, when the query has it.
 * - Not trades, listed as ignored: an `AssetClass` other than STK (CASH is an FX conversion, OPT an
 *   option...); without that column, a `Symbol` such as AUD.USD is an FX conversion. With a
 *   `LevelOfDetail` column only EXECUTION rows are trades (ORDER rows sum the same executions, and
 *   CLOSED_LOT and the summaries are not trades).
 */

const REQUIRED = ["Buy/Sell", "TradeDate", "Symbol", "Quantity", "TradePrice", "IBCommission", "CurrencyPrimary"];

const HEADER = [
  "Buy/Sell",
  "TradeDate",
  "Symbol",
  "Quantity",
  "TradePrice",
  "IBCommission",
  "CurrencyPrimary",
  "FXRateToBase",
  "ListingExchange",
  "TransactionID",
] as const;

/**
 * IBKR's `ListingExchange` → the service's exchange code. US listings are NASDAQ or NYSE as the
 * master list names them (its NYSE Arca and Cboe ETFs, SPY and VTI, are NYSE there). IBKR's TSE is
 * Toronto (the service's TSX); TSEJ is Tokyo (the service's TSE). Borsa Italiana (BVME) is part of
 * Euronext (Euronext Milan).
 */
export const LISTING_EXCHANGES: ReadonlyMap<string, string> = new Map([
  ["NASDAQ", "NASDAQ"],
  ["NYSE", "NYSE"],
  ["ARCA", US_EXCHANGE],
  ["NYSEARCA", US_EXCHANGE],
  ["AMEX", US_EXCHANGE],
  ["BATS", US_EXCHANGE],
  ["PINK", "OTC"],
  ["OTC", "OTC"],
  ["ASX", "ASX"],
  ["CHIXAU", "ASX"],
  ["NZE", "NZX"],
  ["LSE", "LSE"],
  ["LSEETF", "LSE"],
  ["TSE", "TSX"],
  ["SEHK", "HKEX"],
  ["SGX", "SGX"],
  ["TSEJ", "TSE"],
  ["BVME", "EURONEXT"],
  ["IBIS", "XETRA"],
  ["IBIS2", "XETRA"],
  ["AEB", "EURONEXT"],
  ["SBF", "EURONEXT"],
]);

/** The exchanges the service names by the currency a file gives instead (IBKR statements). */
const EXCHANGE_BY_CURRENCY: ReadonlyMap<string, string> = new Map([
  ["AUD", "ASX"],
  ["USD", US_EXCHANGE],
  ["NZD", "NZX"],
  ["GBP", "LSE"],
  ["CAD", "TSX"],
  ["HKD", "HKEX"],
  ["SGD", "SGX"],
  ["JPY", "TSE"],
]);

/**
 * The exchange of a trade whose file names only its currency, or undefined when the currency is
 * traded on several (EUR) or on none the service knows.
 */
export const exchangeOfCurrency = (currency: string): string | undefined =>
  EXCHANGE_BY_CURRENCY.get(currency.toUpperCase());

/** The Flex record types that wrap sections, accounts and the file. */
const WRAPPERS = new Set(["BOF", "EOF", "BOA", "EOA", "BOS", "EOS", "TRAILER"]);

const ASSET_CLASSES: Record<string, string> = {
  CASH: "an FX conversion",
  OPT: "an option",
  FOP: "a futures option",
  FUT: "a future",
  BOND: "a bond",
  WAR: "a warrant",
  CFD: "a CFD",
  FUND: "a fund",
};

/** A record of labels only (no cell a number): another section's header in a plain file. */
const isLabelRow = (cells: readonly string[]) =>
  cells.filter((c) => c.trim() !== "").length >= 2 &&
  cells.every((c) => c.trim() === "" || parseAmount(c) === undefined);

export const ibkrFlex: BrokerFormat = {
  id: "ibkr-flex",
  name: "Interactive Brokers Flex Query (Trades)",
  ...detector("csv", HEADER, REQUIRED),
  columnOf: (header) => ({
    tradeDate: "TradeDate",
    tradeType: "Buy/Sell",
    symbol: "Symbol",
    // Without the column, the exchange follows CurrencyPrimary.
    exchange: header.has("ListingExchange") ? "ListingExchange" : undefined,
    quantity: "Quantity",
    price: "TradePrice",
    brokerage: "IBCommission",
    currencyCode: "CurrencyPrimary",
    exchangeRate: "FXRateToBase",
    reference: "TransactionID",
  }),
  read(header, records, before = []) {
    const out = emptyRead();
    // Another section may come before the trades: its data rows are listed as the ones after are.
    for (const record of before)
      if (record.cells[0]?.trim().toUpperCase() === "DATA")
        out.ignored.push({
          line: record.line,
          reason: `a row of the Flex section ${record.cells[1]?.trim() || "(unnamed)"}, not of the trades`,
        });
    // The trades section's columns, or undefined while the lines are another section's.
    let columns: Columns | undefined = header;
    let section = sectionOf(header.names);
    for (const record of records) {
      const cells = record.cells;
      if (isBlankRecord(record)) continue;
      // A plain file's first column may be Symbol: a trade of EOS (Electro Optic Systems, ASX) or
      // of DATA is a trade, known by its Buy/Sell cell, not a record type.
      if (columns && section === undefined && /^(BUY|SELL)\b/i.test(columns.cell(record, "Buy/Sell"))) {
        readTrade(new RowReader(columns, record, out.errors), columns, out);
        continue;
      }
      const kind = cells[0].trim().toUpperCase();
      if (kind === "HEADER" || (kind !== "DATA" && !WRAPPERS.has(kind) && isLabelRow(cells))) {
        columns = holdsColumns(cells, REQUIRED) ? new Columns(cells) : undefined;
        section = sectionOf(cells);
        continue;
      }
      if (kind === "EOS") columns = undefined;
      if (WRAPPERS.has(kind)) continue;
      if (!columns || (kind === "DATA" && cells[1]?.trim() !== (section ?? ""))) {
        const named = kind === "DATA" ? `the Flex section ${cells[1]?.trim() || "(unnamed)"}` : "another Flex section";
        out.ignored.push({ line: record.line, reason: `a row of ${named}, not of the trades` });
        continue;
      }
      readTrade(new RowReader(columns, record, out.errors), columns, out);
    }
    out.ratesTo = ratesTo(out);
    return out;
  },
};

/**
 * The account's base currency, which FXRateToBase converts to: IBKR writes exactly 1 on a trade in
 * it. Undefined when no trade shows it, or trades of two currencies do.
 */
function ratesTo(read: BrokerRead): string | undefined {
  const atOne = new Set(read.trades.filter((t) => t.raw.exchangeRate === "1").map((t) => String(t.raw.currencyCode)));
  return atOne.size === 1 ? [...atOne][0] : undefined;
}

/** The section code of a `HEADER,TRNT,…` row, or undefined for a plain header. */
function sectionOf(cells: readonly string[]): string | undefined {
  return cells[0]?.trim().toUpperCase() === "HEADER" ? (cells[1]?.trim() ?? "") : undefined;
}

function readTrade(row: RowReader, columns: Columns, out: BrokerRead): void {
  const assetClass = row.text("AssetClass").toUpperCase();
  if (columns.has("AssetClass") && assetClass !== "STK") {
    const what = ASSET_CLASSES[assetClass] ?? "not a stock";
    out.ignored.push({ line: row.line, reason: `AssetClass ${assetClass || "(empty)"} is ${what}, not a stock trade` });
    return;
  }
  if (!columns.has("AssetClass") && /^[A-Z]{3}\.[A-Z]{3}$/.test(row.text("Symbol")) && !row.text("ListingExchange")) {
    out.ignored.push({ line: row.line, reason: `Symbol ${row.text("Symbol")} is an FX conversion, not a stock trade` });
    return;
  }
  const level = row.text("LevelOfDetail").toUpperCase();
  if (columns.has("LevelOfDetail") && level !== "EXECUTION") {
    out.ignored.push({
      line: row.line,
      reason: `LevelOfDetail ${level || "(empty)"} is not an execution: executions are the trades`,
    });
    return;
  }
  const side = row.text("Buy/Sell").toUpperCase();
  if (side !== "BUY" && side !== "SELL") {
    row.fail(
      "Buy/Sell",
      side.includes("CA.")
        ? `is a cancellation (${row.text("Buy/Sell")}): remove it and the trade it cancels from the file`
        : `is not BUY or SELL: ${row.text("Buy/Sell") || "(empty)"}`,
    );
    return;
  }
  const dateText = row.text("TradeDate");
  const currency = row.required("CurrencyPrimary").toUpperCase();
  out.trades.push({
    line: row.line,
    raw: {
      tradeDate:
        parseDate(dateText, "yyyymmdd") ?? parseDate(dateText, "yyyy-mm-dd") ?? row.date("TradeDate", "yyyymmdd"),
      tradeType: side === "BUY" ? "Buy" : "Sell",
      // IBKR writes a share class with a space (BRK B); the service's symbols use a dot (BRK.B).
      symbol: row.required("Symbol").toUpperCase().replace(/\s+/g, "."),
      exchange: exchange(row, columns, currency),
      quantity: row.amount("Quantity").replace(/^-/, ""),
      price: row.amount("TradePrice"),
      brokerage: row.amount("IBCommission", "0").replace(/^-/, ""),
      currencyCode: currency,
      ...(row.text("FXRateToBase") ? { exchangeRate: row.amount("FXRateToBase") } : {}),
      ...(row.text("TransactionID") ? { reference: row.text("TransactionID") } : {}),
    },
  });
}

function exchange(row: RowReader, columns: Columns, currency: string): string {
  if (!columns.has("ListingExchange")) {
    const byCurrency = exchangeOfCurrency(currency);
    if (!byCurrency && currency) {
      row.fail("CurrencyPrimary", `names no one exchange (${currency}): add ListingExchange to the Flex Query`);
    }
    return byCurrency ?? "";
  }
  const given = row.required("ListingExchange").toUpperCase();
  const known = LISTING_EXCHANGES.get(given);
  if (known || given === "") return known ?? "";
  row.fail(
    "ListingExchange",
    `is not an exchange this service knows: ${given} (it knows ${[...new Set(LISTING_EXCHANGES.keys())].join(", ")})`,
  );
  return given;
}
