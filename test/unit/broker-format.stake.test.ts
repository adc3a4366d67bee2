import type { CsvRecord } from "../../src/lib/csv";
import { Columns } from "../../src/modules/trades/broker-formats/format";
import { ibkrFlex } from "../../src/modules/trades/broker-formats/ibkr-flex";
import { stake } from "../../src/modules/trades/broker-formats/stake";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `stake`: Stake Wall St's transaction report, the `Trades` sheet of the .xlsx
 * (test/fixtures/brokers/make-stake-xlsx.ts writes it). The trade date is DATE (US), brokerage the
 * three fees, the currency USD on NYSE (the sheet names no exchange), the rate LOCAL CURRENCY VALUE
 * ÷ VALUE (USD) in AUD per USD. The fixture's FX RATE is USD per AUD, the quotient's inverse.
 */
describe("Stake Wall St transaction report", () => {
  it("reads each trade of the Trades sheet", async () => {
    const read = await readBrokerFixture(stake, "stake-trades.xlsx");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.ignored).toEqual([]);
    expect(read.trades).toEqual([
      // Row 2: 12 × 170.25 = 2,043.00 USD; brokerage 3 + 0 + 0; rate 3,118.13 ÷ 2,043.00 =
      // 1.52625061184… → 1.5262506118 (FX RATE 0.6552 is its inverse, 1 ÷ 0.6552 = 1.52625…).
      {
        line: 2,
        raw: {
          tradeDate: "2024-03-05",
          tradeType: "Buy",
          symbol: "AAPL",
          exchange: "NYSE",
          quantity: "12",
          price: "170.25",
          brokerage: "3",
          currencyCode: "USD",
          exchangeRate: "1.5262506118",
          reference: "T-4417-0091",
        },
      },
      // Row 3: 5.5 units (fractional) of BRK.B; rate 3,415.16 ÷ 2,270.40 = 1.50421071176… → 1.5042107118.
      {
        line: 3,
        raw: {
          tradeDate: "2024-06-18",
          tradeType: "Buy",
          symbol: "BRK.B",
          exchange: "NYSE",
          quantity: "5.5",
          price: "412.8",
          brokerage: "3",
          currencyCode: "USD",
          exchangeRate: "1.5042107118",
          reference: "T-4417-0352",
        },
      },
      // Row 5 (row 4 is empty): UNITS −7 stored as 7; brokerage 3 + 0.01 + 0.04 = 3.05; the values
      // are negative, the rate is not: −2,320.47 ÷ −1,557.50 = 1.48986837881… → 1.4898683788.
      {
        line: 5,
        raw: {
          tradeDate: "2024-09-12",
          tradeType: "Sell",
          symbol: "AAPL",
          exchange: "NYSE",
          quantity: "7",
          price: "222.5",
          brokerage: "3.05",
          currencyCode: "USD",
          exchangeRate: "1.4898683788",
          reference: "T-4417-0788",
        },
      },
      // Row 6: DATE (US) as text, SYMBOL in lower case, VALUE (USD) a formula whose result is 408.15;
      // brokerage 3 + 0.01 + 0.02 = 3.03; rate 619.35 ÷ 408.15 = 1.51745681734… → 1.5174568173.
      {
        line: 6,
        raw: {
          tradeDate: "2024-11-04",
          tradeType: "Sell",
          symbol: "NVDA",
          exchange: "NYSE",
          quantity: "3",
          price: "136.05",
          brokerage: "3.03",
          currencyCode: "USD",
          exchangeRate: "1.5174568173",
          reference: "T-4417-1020",
        },
      },
    ]);
  });

  describe("rows written in memory", () => {
    // DATE (US), SETTLEMENT DATE (US), REFERENCE, SYMBOL, SIDE, UNITS, EFFECTIVE PRICE (USD),
    // BROKERAGE FEE (USD), TAF FEE (USD), SEC FEE (USD), VALUE (USD), FX RATE, LOCAL CURRENCY VALUE
    const row = (line: number, ...cells: string[]): CsvRecord => ({ line, cells });
    const read = (...records: CsvRecord[]) => stake.read(new Columns(stake.header), records);
    const buy = (line: number, over: Record<number, string> = {}) => {
      const cells = [
        "2025-02-03",
        "2025-02-04",
        `R-${line}`,
        "MSFT",
        "B",
        "10",
        "410",
        "3",
        "",
        "",
        "4100",
        "0.625",
        "6560",
      ];
      for (const [i, v] of Object.entries(over)) cells[Number(i)] = v;
      return row(line, ...cells);
    };

    it("an FX RATE in AUD per USD agrees too; empty fee cells are 0", () => {
      // 6,560 ÷ 4,100 = 1.6 AUD per USD: FX RATE 1.6 is the quotient itself, 0.625 its inverse.
      const result = read(buy(2, { 11: "1.6" }), buy(3));
      expect(result.errors).toEqual([]);
      expect(result.trades.map((t) => [t.raw.exchangeRate, t.raw.brokerage])).toEqual([
        ["1.6", "3"],
        ["1.6", "3"],
      ]);
    });

    it("an FX RATE that agrees with neither the quotient nor its inverse is an error on FX RATE", () => {
      // 6,560 ÷ 4,100 = 1.6: 1.5 is 6% off, 1 ÷ 1.5 = 0.667 further still; 1.61 is within 1%.
      const result = read(buy(2, { 11: "1.5" }), buy(3, { 11: "1.61" }));
      expect(result.errors).toEqual([
        {
          path: "line 2.FX RATE",
          line: 2,
          message: "1.5 agrees with neither LOCAL CURRENCY VALUE ÷ VALUE (USD) = 1.6 nor its inverse (within 1%)",
        },
      ]);
    });

    it("an unreadable date or amount names its line and column", () => {
      const result = read(buy(2, { 0: "03/02/2025" }), buy(3, { 5: "ten" }), buy(4, { 10: "0" }), buy(5, { 12: "" }));
      expect(result.errors).toEqual([
        { path: "line 2.DATE (US)", line: 2, message: "is not a date (yyyy-mm-dd): 03/02/2025" },
        { path: "line 3.UNITS", line: 3, message: "is not a number: ten" },
        {
          path: "line 4.VALUE (USD)",
          line: 4,
          message: "is 0: the exchange rate is LOCAL CURRENCY VALUE ÷ VALUE (USD)",
        },
        { path: "line 5.LOCAL CURRENCY VALUE", line: 5, message: "is empty" },
      ]);
    });

    it("a fee written negative is an error on its column, not a cost of its size", () => {
      // A fee is a cost: -3 taken as a cost of 3 would store a brokerage the sheet does not show.
      const result = read(buy(2, { 7: "-3" }), buy(3, { 8: "(0.02)" }));
      expect(result.errors).toEqual([
        {
          path: "line 2.BROKERAGE FEE (USD)",
          line: 2,
          message: "is negative (-3): a fee is a cost, written positive",
        },
        { path: "line 3.TAF FEE (USD)", line: 3, message: "is negative (-0.02): a fee is a cost, written positive" },
      ]);
    });

    it("a SIDE other than B or S is ignored with its line", () => {
      const result = read(buy(2, { 4: "" }), buy(3, { 4: "X" }), buy(4, { 4: "s" }));
      expect(result.ignored).toEqual([
        { line: 2, reason: "SIDE (empty) is not B or S" },
        { line: 3, reason: "SIDE X is not B or S" },
      ]);
      expect(result.trades.map((t) => [t.line, t.raw.tradeType])).toEqual([[4, "Sell"]]);
    });
  });

  it("finds no header in another format's records", () => {
    const flexHeader: CsvRecord = { line: 1, cells: [...ibkrFlex.header] };
    expect(stake.findHeader([flexHeader])).toBe(-1);
    expect(stake.findHeader([{ line: 1, cells: ["DATE", "TYPE", "AMOUNT (AUD)"] }])).toBe(-1);
  });
});
