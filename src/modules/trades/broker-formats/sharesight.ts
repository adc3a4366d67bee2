import { Decimal } from "../../../lib/money";
import { unguardedCell } from "../../../lib/csv-out";
import { EXCHANGE_CURRENCY } from "../../securities/securities.schemas";
import { eachRow, holdsColumns, parseAmount, type BrokerFormat, type Columns, type RowReader } from "./format";
import { parseDate } from "./broker-dates";

/**
 * Sharesight's generic trades file (the one its "Import trades from a spreadsheet" takes, and what
 * `GET /v1/portfolios/{p}/trades/export?format=sharesight` writes): one trade a row, dates as
 * yyyy-mm-dd or dd/mm/yyyy (Sharesight also takes US dates when told so; a file cannot say so),
 * `BUY`/`SELL`. The market code is the exchange code (ASX, NZX, NASDAQ, NYSE, LSE...). No
 * reference: duplicates are found by equality.
 *
 * The older layout that converters still write (`…,Price in Dollars,Transaction Type,Brokerage,
 * Brokerage Currency,Comments`, no "(optional)", no exchange rate) is read too: every column is
 * looked up under either name.
 */

const HEADER = [
  "Trade Date",
  "Instrument Code",
  "Market Code",
  "Quantity",
  "Price",
  "Transaction Type",
  "Exchange Rate (optional)",
  "Brokerage (optional)",
  "Brokerage Currency (optional)",
  "Comments (optional)",
] as const;

const REQUIRED = ["Trade Date", "Instrument Code", "Market Code", "Quantity", "Transaction Type"];
const PRICE = ["Price", "Price in Dollars"];

/** The file's name for each column that has two: an error names the column as the file does. */
function namedColumns(columns: Columns) {
  const named = (...names: string[]) => names.find((n) => columns.has(n)) ?? names[0];
  return {
    price: named(...PRICE),
    rate: named("Exchange Rate (optional)", "Exchange Rate"),
    brokerage: named("Brokerage (optional)", "Brokerage"),
    brokerageCurrency: named("Brokerage Currency (optional)", "Brokerage Currency"),
    comments: named("Comments (optional)", "Comments"),
  };
}

export const sharesight: BrokerFormat = {
  id: "sharesight",
  name: "Sharesight trades",
  header: HEADER,
  media: "csv",
  findHeader: (records) =>
    records.findIndex((r) => holdsColumns(r.cells, REQUIRED) && PRICE.some((p) => holdsColumns(r.cells, [p]))),
  columnOf(columns) {
    const named = namedColumns(columns);
    return {
      tradeDate: "Trade Date",
      tradeType: "Transaction Type",
      symbol: "Instrument Code",
      exchange: "Market Code",
      quantity: "Quantity",
      price: named.price,
      brokerage: named.brokerage,
      currencyCode: named.brokerageCurrency,
      exchangeRate: named.rate,
      notes: named.comments,
    };
  },
  read(columns, records) {
    const {
      price: priceColumn,
      rate: rateColumn,
      brokerage: brokerageColumn,
      brokerageCurrency: brokerageCurrencyColumn,
      comments: commentsColumn,
    } = namedColumns(columns);
    return eachRow(columns, records, (row, out) => {
      const side = row.text("Transaction Type").toUpperCase();
      if (side !== "BUY" && side !== "SELL") {
        out.ignored.push({
          line: row.line,
          reason: `Transaction Type ${row.text("Transaction Type") || "(empty)"} is not a trade`,
        });
        return;
      }
      const dateText = row.text("Trade Date");
      const tradeDate = parseDate(dateText, "yyyy-mm-dd") ?? parseDate(dateText, "dd/mm/yyyy");
      if (tradeDate === undefined)
        row.fail("Trade Date", dateText === "" ? "is empty" : `is not a date (yyyy-mm-dd or dd/mm/yyyy): ${dateText}`);
      const exchange = row.required("Market Code").toUpperCase();
      const brokerage = row.amount(brokerageColumn, "0");
      out.trades.push({
        line: row.line,
        raw: {
          tradeDate: tradeDate ?? "1970-01-01",
          tradeType: side === "BUY" ? "Buy" : "Sell",
          symbol: row.required("Instrument Code").toUpperCase(),
          exchange,
          quantity: row.amount("Quantity").replace(/^-/, ""),
          price: row.amount(priceColumn),
          brokerage,
          ...tradeCurrency(row, brokerageCurrencyColumn, exchange, brokerage),
          ...exchangeRate(row, rateColumn),
          // The export writes a comment that would run as a formula with a leading ' (lib/csv-out.ts).
          ...(row.text(commentsColumn) ? { notes: unguardedCell(row.text(commentsColumn)) } : {}),
        },
      });
    });
  },
};

/** Markets whose Sharesight code means the same market here (see tradeCurrency). */
const CHECKED_MARKETS = new Set(["ASX", "NZX", "NASDAQ", "NYSE", "LSE"]);

/**
 * The file has no trade currency: the trade is in its market's. `Brokerage Currency` is the
 * brokerage's, and this service keeps brokerage in the trade's currency, so it is the trade's
 * currency when the market's is unknown, and an error when it names another currency than a known
 * market's for brokerage that is not 0 (a converter may write the portfolio's currency there, and
 * the amount is not converted on a guess). Sharesight's own sample writes the market's currency.
 * Checked only for the markets whose Sharesight code is this service's: Sharesight's `TSE` is
 * Toronto (its Credential Direct help), this service's is Tokyo.
 */
function tradeCurrency(row: RowReader, column: string, exchange: string, brokerage: string): { currencyCode?: string } {
  const given = row.text(column).toUpperCase();
  if (!given) return {};
  const market = CHECKED_MARKETS.has(exchange) ? EXCHANGE_CURRENCY[exchange] : undefined;
  if (market === undefined || market === given) return { currencyCode: given };
  if (!new Decimal(brokerage).isZero())
    row.fail(column, `is ${given}, but ${exchange} trades in ${market}: give the brokerage in ${market}`);
  return {};
}

/**
 * Sharesight's exchange rate is units of the trade's currency per unit of the portfolio's (its
 * sample's NZD portfolio buys TSLA at 0.7089, IVV on the ASX at 0.9462; converters divide the
 * trade-currency amount by the portfolio-currency amount). This service's is the inverse: units of
 * the base currency per unit of the trade's, kept to the 10 decimals a rate stores.
 */
function exchangeRate(row: RowReader, column: string): { exchangeRate?: string } {
  const text = row.text(column);
  if (!text) return {};
  const parsed = parseAmount(text);
  if (parsed === undefined || new Decimal(parsed).lte(0)) {
    row.fail(column, parsed === undefined ? `is not a number: ${text}` : `must be above 0: ${text}`);
    return {};
  }
  const given = new Decimal(parsed);
  return { exchangeRate: new Decimal(1).div(given).toDecimalPlaces(10).toFixed() };
}
