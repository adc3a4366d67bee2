import { Decimal } from "../../../lib/money";
import { detector, eachRow, parseAmount, US_EXCHANGE, type BrokerFormat, type RowReader } from "./format";

/**
 * Stake Wall St's transaction report (Account → Reports → Transaction report, the .xlsx), its
 * `Trades` sheet: one US trade a row (docs/data.md §4; research notes §1.4).
 *
 * - The trade date is `DATE (US)` (`SETTLEMENT DATE (US)` is T+1 or T+2 later and not read).
 * - Brokerage is `BROKERAGE FEE (USD)` + `TAF FEE (USD)` + `SEC FEE (USD)`: the US regulatory fees
 *   are costs of the trade, as brokerage is (an empty fee cell is 0).
 * - The currency is USD and the exchange rate is `LOCAL CURRENCY VALUE` ÷ `VALUE (USD)`: units of
 *   the account's currency (AUD; NZD for a New Zealand account) per USD, rounded to 10 decimals as
 *   the service stores rates. Whichever way `FX RATE` is written, the two values settle it; it is
 *   only checked, and a rate that agrees within 1% with neither the quotient nor its inverse is an
 *   error on `FX RATE`: the values would not be what this format takes them for.
 * - The sheet does not name the exchange: every trade is on US_EXCHANGE (format.ts).
 * - `UNITS` of a sell may be written negative: the quantity is stored positive, `SIDE` says sell.
 * - `REFERENCE` is the trade's reference, so a second import of the same report finds duplicates.
 * - A `SIDE` other than `B`/`S` is listed as ignored.
 */

const HEADER = [
  "DATE (US)",
  "SETTLEMENT DATE (US)",
  "REFERENCE",
  "SYMBOL",
  "SIDE",
  "UNITS",
  "EFFECTIVE PRICE (USD)",
  "BROKERAGE FEE (USD)",
  "TAF FEE (USD)",
  "SEC FEE (USD)",
  "VALUE (USD)",
  "FX RATE",
  "LOCAL CURRENCY VALUE",
] as const;

/** The columns a report may leave out: the settlement date is not read, an absent fee is 0, FX RATE is only checked. */
const OPTIONAL: readonly string[] = ["SETTLEMENT DATE (US)", "TAF FEE (USD)", "SEC FEE (USD)", "FX RATE"];
const REQUIRED = HEADER.filter((c) => !OPTIONAL.includes(c));

/** How far `FX RATE` may be from the rate the values give (either way round) before it is an error. */
const FX_TOLERANCE = new Decimal("0.01");

/** Whether `a` is within FX_TOLERANCE of `b` (b not zero), relatively. */
const near = (a: Decimal, b: Decimal) => a.minus(b).abs().lte(b.abs().times(FX_TOLERANCE));

export const stake: BrokerFormat = {
  id: "stake",
  name: "Stake Wall St transaction report",
  ...detector("xlsx", HEADER, REQUIRED),
  guessesUsListing: true,
  columnOf: () => ({
    tradeDate: "DATE (US)",
    tradeType: "SIDE",
    symbol: "SYMBOL",
    quantity: "UNITS",
    price: "EFFECTIVE PRICE (USD)",
    reference: "REFERENCE",
  }),
  read: (columns, records) =>
    eachRow(columns, records, (row, out) => {
      const side = row.text("SIDE").toUpperCase();
      if (side !== "B" && side !== "S") {
        out.ignored.push({ line: row.line, reason: `SIDE ${row.text("SIDE") || "(empty)"} is not B or S` });
        return;
      }
      // A fee is a cost, written positive: a negative one is refused rather than added as a cost.
      const brokerage = ["BROKERAGE FEE (USD)", "TAF FEE (USD)", "SEC FEE (USD)"]
        .map((c) => {
          const fee = new Decimal(row.amount(c, "0"));
          if (fee.isNegative()) row.fail(c, `is negative (${fee.toFixed()}): a fee is a cost, written positive`);
          return fee.abs();
        })
        .reduce((a, b) => a.plus(b));
      out.trades.push({
        line: row.line,
        raw: {
          tradeDate: row.date("DATE (US)", "yyyy-mm-dd"),
          tradeType: side === "B" ? "Buy" : "Sell",
          symbol: row.required("SYMBOL").toUpperCase(),
          exchange: US_EXCHANGE,
          quantity: row.amount("UNITS").replace(/^-/, ""),
          price: row.amount("EFFECTIVE PRICE (USD)"),
          brokerage: brokerage.toFixed(),
          currencyCode: "USD",
          ...exchangeRate(row),
          reference: row.required("REFERENCE"),
        },
      });
    }),
};

/** LOCAL CURRENCY VALUE ÷ VALUE (USD), checked against FX RATE when the sheet gives one. */
function exchangeRate(row: RowReader): { exchangeRate?: string } {
  const usd = decimalCell(row, "VALUE (USD)");
  const local = decimalCell(row, "LOCAL CURRENCY VALUE");
  const given = row.text("FX RATE") === "" ? undefined : decimalCell(row, "FX RATE");
  if (usd === undefined || local === undefined) return {};
  if (usd.isZero() || local.isZero()) {
    row.fail(
      usd.isZero() ? "VALUE (USD)" : "LOCAL CURRENCY VALUE",
      "is 0: the exchange rate is LOCAL CURRENCY VALUE ÷ VALUE (USD)",
    );
    return {};
  }
  const rate = local.div(usd).abs().toDecimalPlaces(10);
  const agrees = (g: Decimal) => !g.isZero() && (near(g.abs(), rate) || near(new Decimal(1).div(g.abs()), rate));
  if (given !== undefined && !agrees(given)) {
    row.fail(
      "FX RATE",
      `${row.text("FX RATE")} agrees with neither LOCAL CURRENCY VALUE ÷ VALUE (USD) = ${rate.toFixed()} nor its inverse (within 1%)`,
    );
  }
  return { exchangeRate: rate.toFixed() };
}

/** A cell's number, or undefined when it cannot be read (the error is recorded on the cell). */
function decimalCell(row: RowReader, column: string): Decimal | undefined {
  const parsed = parseAmount(row.text(column));
  if (parsed === undefined) row.amount(column);
  return parsed === undefined ? undefined : new Decimal(parsed);
}
