import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { sharesight } from "../../src/modules/trades/broker-formats/sharesight";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `sharesight`: Sharesight's generic trades file, yyyy-mm-dd or dd/mm/yyyy,
 * `BUY`/`SELL` in any case, optional exchange rate, brokerage and brokerage currency. The fixture
 * is an AUD portfolio holding ASX and NASDAQ shares over FY2025. Sharesight's exchange rate is
 * units of the trade's currency per unit of the portfolio's (0.64 USD per AUD), the inverse of
 * this service's (1.5625 AUD per USD).
 */
describe("Sharesight trades file", () => {
  it("reads each BUY and SELL, inverting Sharesight's exchange rate", async () => {
    const read = await readBrokerFixture(sharesight, "sharesight.csv");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 2: an ASX buy, brokerage 19.95 in AUD, the market's currency.
      {
        line: 2,
        raw: {
          tradeDate: "2024-08-05",
          tradeType: "Buy",
          symbol: "VGS",
          exchange: "ASX",
          quantity: "45",
          price: "124.18",
          brokerage: "19.95",
          currencyCode: "AUD",
        },
      },
      // Line 3: 0.64 USD per AUD → 1 / 0.64 = 1.5625 AUD per USD; the quoted comment keeps its comma.
      {
        line: 3,
        raw: {
          tradeDate: "2024-09-16",
          tradeType: "Buy",
          symbol: "MSFT",
          exchange: "NASDAQ",
          quantity: "12",
          price: "430.5",
          brokerage: "3",
          currencyCode: "USD",
          exchangeRate: "1.5625",
          notes: "Limit order, filled in two parts",
        },
      },
      // Line 4: code, market and type in lower or mixed case; 1 / 0.6512 = 1.53562653562… → 10 decimals.
      {
        line: 4,
        raw: {
          tradeDate: "2024-11-29",
          tradeType: "Buy",
          symbol: "GOOGL",
          exchange: "NASDAQ",
          quantity: "20",
          price: "168.95",
          brokerage: "3",
          currencyCode: "USD",
          exchangeRate: "1.5356265356",
        },
      },
      // Line 6 (5 is blank): dd/mm/yyyy, and a sale's quantity written negative is stored positive.
      {
        line: 6,
        raw: {
          tradeDate: "2025-03-18",
          tradeType: "Sell",
          symbol: "VGS",
          exchange: "ASX",
          quantity: "20",
          price: "131.02",
          brokerage: "19.95",
          currencyCode: "AUD",
        },
      },
      // Line 8: 1 / 0.6425 = 1.55642023346… → 1.5564202335 (half up).
      {
        line: 8,
        raw: {
          tradeDate: "2025-05-02",
          tradeType: "Sell",
          symbol: "MSFT",
          exchange: "NASDAQ",
          quantity: "5",
          price: "436.1",
          brokerage: "3",
          currencyCode: "USD",
          exchangeRate: "1.5564202335",
        },
      },
      // Line 9: no brokerage, no currency, no rate: brokerage 0, the holding's currency, the FX table's rate.
      {
        line: 9,
        raw: {
          tradeDate: "2025-06-27",
          tradeType: "Buy",
          symbol: "WES",
          exchange: "ASX",
          quantity: "30",
          price: "81.4",
          brokerage: "0",
        },
      },
    ]);
    expect(read.ignored).toEqual([{ line: 7, reason: "Transaction Type DRP is not a trade" }]);
  });

  it('reads the older layout (Price in Dollars, no "(optional)") that converters still write', async () => {
    const read = await readBrokerFixture(sharesight, "sharesight-legacy.csv");
    expect(read.errors).toEqual([]);
    expect(read.trades).toEqual([
      {
        line: 2,
        raw: {
          tradeDate: "2024-08-14",
          tradeType: "Buy",
          symbol: "WES",
          exchange: "ASX",
          quantity: "30",
          price: "68.41",
          brokerage: "19.95",
          currencyCode: "AUD",
        },
      },
      // "2/05/2025": the day without its leading zero.
      {
        line: 3,
        raw: {
          tradeDate: "2025-05-02",
          tradeType: "Sell",
          symbol: "WES",
          exchange: "ASX",
          quantity: "30",
          price: "79.9",
          brokerage: "19.95",
          currencyCode: "AUD",
          notes: "Rebalance",
        },
      },
    ]);
  });

  it("names the line and column of a cell it cannot read", async () => {
    const read = await readBrokerFixture(sharesight, "sharesight-bad.csv");
    expect(read.errors).toEqual([
      // Month 13 in either pattern.
      { path: "line 2.Trade Date", line: 2, message: "is not a date (yyyy-mm-dd or dd/mm/yyyy): 2024-13-01" },
      { path: "line 3.Quantity", line: 3, message: "is not a number: ten" },
      // NASDAQ trades in USD: brokerage in AUD would be read as USD, so it is refused, not converted.
      {
        path: "line 3.Brokerage Currency (optional)",
        line: 3,
        message: "is AUD, but NASDAQ trades in USD: give the brokerage in USD",
      },
      // A rate of 0 cannot be inverted.
      { path: "line 3.Exchange Rate (optional)", line: 3, message: "must be above 0: 0" },
    ]);
  });

  it("does not take another format's file for its own", async () => {
    for (const file of [
      "commsec-transactions.csv",
      "commsec-summary.csv",
      "commsec-confirmations.csv",
      "selfwealth.csv",
    ]) {
      const text = readFileSync(join(__dirname, "../fixtures/brokers", file), "utf8");
      const records = await readCsvRecords(text, { what: "The import", maxRecords: 1000 });
      expect(sharesight.findHeader(records)).toBe(-1);
    }
  });
});
