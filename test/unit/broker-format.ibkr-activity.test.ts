import type { CsvRecord } from "../../src/lib/csv";
import { Columns } from "../../src/modules/trades/broker-formats/format";
import { ibkrActivity } from "../../src/modules/trades/broker-formats/ibkr-activity";
import { ibkrFlex } from "../../src/modules/trades/broker-formats/ibkr-flex";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `ibkr-activity`: an Interactive Brokers Activity Statement, CSV. The fixture is
 * an AUD account's half year: Statement and Account Information before the Trades section; in it
 * ASX and US stock orders, SubTotal/Total rows, an order's Execution rows, a Forex header and
 * order, an option order; Dividends, Withholding Tax and Codes after it.
 */
describe("IBKR Activity Statement", () => {
  it("reads the Order rows of Stocks; the side is the sign of Quantity, the exchange the currency's", async () => {
    const read = await readBrokerFixture(ibkrActivity, "ibkr-activity.csv");
    expect(read.headerLine).toBe(8);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 9: Quantity 200 → a buy; "2024-07-16, 10:14:03" → 2024-07-16; Comm/Fee −6 → 6; AUD → ASX.
      {
        line: 9,
        raw: {
          tradeDate: "2024-07-16",
          tradeType: "Buy",
          symbol: "BHP",
          exchange: "ASX",
          quantity: "200",
          price: "44.18",
          brokerage: "6",
          currencyCode: "AUD",
        },
      },
      // Line 10: Quantity −80 → a sell of 80.
      {
        line: 10,
        raw: {
          tradeDate: "2024-10-03",
          tradeType: "Sell",
          symbol: "BHP",
          exchange: "ASX",
          quantity: "80",
          price: "45.9",
          brokerage: "6",
          currencyCode: "AUD",
        },
      },
      // Line 13: USD → NYSE (the statement names no exchange); Comm/Fee −1 → 1.
      {
        line: 13,
        raw: {
          tradeDate: "2024-08-05",
          tradeType: "Buy",
          symbol: "AMZN",
          exchange: "NYSE",
          quantity: "15",
          price: "161.02",
          brokerage: "1",
          currencyCode: "USD",
        },
      },
      // Line 14: the quoted "1,000" is 1000; its executions (lines 15–16, 600 + 400) are not read.
      {
        line: 14,
        raw: {
          tradeDate: "2024-11-11",
          tradeType: "Buy",
          symbol: "KO",
          exchange: "NYSE",
          quantity: "1000",
          price: "62.15",
          brokerage: "5.1",
          currencyCode: "USD",
        },
      },
      // Line 17: "BRK B" → BRK.B; Quantity −2 → a sell of 2; Comm/Fee −1.02 → 1.02.
      {
        line: 17,
        raw: {
          tradeDate: "2024-12-02",
          tradeType: "Sell",
          symbol: "BRK.B",
          exchange: "NYSE",
          quantity: "2",
          price: "470.3",
          brokerage: "1.02",
          currencyCode: "USD",
        },
      },
    ]);
    expect(read.ignored).toEqual([
      { line: 11, reason: "a SubTotal row of the Trades section is not a trade" },
      { line: 12, reason: "a Total row of the Trades section is not a trade" },
      { line: 15, reason: "DataDiscriminator Execution is not Order: the Order rows are the trades" },
      { line: 16, reason: "DataDiscriminator Execution is not Order: the Order rows are the trades" },
      { line: 18, reason: "a SubTotal row of the Trades section is not a trade" },
      { line: 19, reason: "a Total row of the Trades section is not a trade" },
      // Line 20 is the Forex header (Comm in AUD, no Comm/Fee), line 22 the options' header.
      { line: 21, reason: "Asset Category Forex is not Stocks" },
      { line: 23, reason: "Asset Category Equity and Index Options is not Stocks" },
      // The sections after Trades: one entry per section, not one per line.
      { line: 24, reason: "the Dividends section (lines 24–26) is not trades" },
      { line: 27, reason: "the Withholding Tax section (lines 27–28) is not trades" },
      { line: 29, reason: "the Codes section (lines 29–31) is not trades" },
    ]);
  });

  describe("rows written in memory", () => {
    const header = new Columns(ibkrActivity.header);
    const order = (line: number, over: Record<number, string> = {}): CsvRecord => {
      const cells = ["Trades", "Data", "Order", "Stocks", "AUD", "WES", "2025-01-20, 11:02:09", "30"];
      cells.push("71.4", "71.9", "-2142", "-6", "2148", "0", "15", "O");
      for (const [i, v] of Object.entries(over)) cells[Number(i)] = v;
      return { line, cells };
    };

    it("an unreadable date or amount, a currency of no one exchange: errors naming the line and column", () => {
      const result = ibkrActivity.read(header, [
        order(2, { 6: "20/01/2025 11:02" }),
        order(3, { 8: "n/a" }),
        order(4, { 4: "EUR", 5: "SAP" }),
        order(5, { 11: "" }),
      ]);
      expect(result.errors).toEqual([
        { path: "line 2.Date/Time", line: 2, message: "is not a date (yyyy-mm-dd, hh:mm:ss): 20/01/2025 11:02" },
        { path: "line 3.T. Price", line: 3, message: "is not a number: n/a" },
        {
          path: "line 4.Currency",
          line: 4,
          message: "names no one exchange (EUR): import a Flex Query, which names each trade's exchange",
        },
      ]);
      // An empty Comm/Fee is no brokerage.
      expect(result.trades.find((t) => t.line === 5)?.raw.brokerage).toBe("0");
    });

    it("a header in lower case; a Stocks order under a header without Comm/Fee is an error", () => {
      const lower = new Columns(ibkrActivity.header.map((h) => h.toLowerCase()));
      expect(ibkrActivity.read(lower, [order(2)]).trades.map((t) => t.raw.symbol)).toEqual(["WES"]);
      const forexHeader = ["Trades", "Header", "DataDiscriminator", "Asset Category", "Currency", "Symbol"];
      forexHeader.push(
        "Date/Time",
        "Quantity",
        "T. Price",
        "",
        "Proceeds",
        "Comm in AUD",
        "",
        "",
        "MTM in AUD",
        "Code",
      );
      const result = ibkrActivity.read(header, [{ line: 2, cells: forexHeader }, order(3)]);
      expect(result.errors).toEqual([
        { path: "line 3.Comm/Fee", line: 3, message: "is not a column of the Trades header above this row" },
      ]);
    });
  });

  it("finds no header in another format's records", () => {
    expect(ibkrActivity.findHeader([{ line: 1, cells: [...ibkrFlex.header] }])).toBe(-1);
    // The Trades section's columns without `Trades,Header` in front are not this format's header.
    expect(ibkrActivity.findHeader([{ line: 1, cells: ibkrActivity.header.slice(2) }])).toBe(-1);
  });
});
