import type { CsvRecord } from "../../src/lib/csv";
import { Columns } from "../../src/modules/trades/broker-formats/format";
import { ibkrActivity } from "../../src/modules/trades/broker-formats/ibkr-activity";
import { ibkrFlex } from "../../src/modules/trades/broker-formats/ibkr-flex";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `ibkr-flex`: an Interactive Brokers Flex Query's Trades section, columns by name
 * in any order. ibkr-flex.csv is wrapped ("include header and trailer records": BOF, HEADER/DATA
 * with the section code, TRAILER, EOF) and holds an equity summary (EQUT) before the trades and cash
 * transactions (CTRN) after; ibkr-flex-plain.csv is a bare header in mixed case with LevelOfDetail,
 * then a second section after a blank line.
 */
describe("IBKR Flex Query, trades", () => {
  it("reads the TRNT section of a wrapped file, ignoring other asset classes and sections", async () => {
    const read = await readBrokerFixture(ibkrFlex, "ibkr-flex.csv");
    // Lines 1–4 (BOF and the EQUT section) come before the trades header.
    expect(read.headerLine).toBe(5);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 6: BUY 20 MSFT at 412.35, IBCommission −1 → 1; FXRateToBase 1.4892 AUD per USD.
      {
        line: 6,
        raw: {
          tradeDate: "2024-09-03",
          tradeType: "Buy",
          symbol: "MSFT",
          exchange: "NASDAQ",
          quantity: "20",
          price: "412.35",
          brokerage: "1",
          currencyCode: "USD",
          exchangeRate: "1.4892",
          reference: "2871033012",
        },
      },
      // Line 7: an ASX buy in the base currency: FXRateToBase 1; IBCommission −6 → 6 AUD.
      {
        line: 7,
        raw: {
          tradeDate: "2024-09-10",
          tradeType: "Buy",
          symbol: "VAS",
          exchange: "ASX",
          quantity: "150",
          price: "99.12",
          brokerage: "6",
          currencyCode: "AUD",
          exchangeRate: "1",
          reference: "2871944120",
        },
      },
      // Line 9: SELL, Quantity −4 → 4; ListingExchange ARCA → NYSE (the master list's name for
      // NYSE Arca ETFs); IBCommission −1.02 → 1.02.
      {
        line: 9,
        raw: {
          tradeDate: "2024-10-15",
          tradeType: "Sell",
          symbol: "SPY",
          exchange: "NYSE",
          quantity: "4",
          price: "584.1",
          brokerage: "1.02",
          currencyCode: "USD",
          exchangeRate: "1.4956",
          reference: "2874522871",
        },
      },
      // Line 11: IBKR's "BRK B" is the service's BRK.B.
      {
        line: 11,
        raw: {
          tradeDate: "2024-11-20",
          tradeType: "Buy",
          symbol: "BRK.B",
          exchange: "NYSE",
          quantity: "3",
          price: "462.75",
          brokerage: "1",
          currencyCode: "USD",
          exchangeRate: "1.5318",
          reference: "2877004519",
        },
      },
    ]);
    expect(read.ignored).toEqual([
      // Line 3: the equity summary (EQUT) comes before the trades section; its row is listed too.
      { line: 3, reason: "a row of the Flex section EQUT, not of the trades" },
      { line: 8, reason: "AssetClass CASH is an FX conversion, not a stock trade" },
      { line: 10, reason: "AssetClass OPT is an option, not a stock trade" },
      // Lines 12–13 (TRAILER, the CTRN header) and 16–17 (TRAILER, EOF) are not rows.
      { line: 14, reason: "a row of the Flex section CTRN, not of the trades" },
      { line: 15, reason: "a row of the Flex section CTRN, not of the trades" },
    ]);
  });

  it("reads a plain file by column name in any case, executions only, unknown exchanges kept", async () => {
    const read = await readBrokerFixture(ibkrFlex, "ibkr-flex-plain.csv");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.trades).toEqual([
      // Line 2: the EXECUTION of 40 CSL; its ORDER row (line 3) sums the same fills.
      {
        line: 2,
        raw: {
          tradeDate: "2024-05-02",
          tradeType: "Buy",
          symbol: "CSL",
          exchange: "ASX",
          quantity: "40",
          price: "286.4",
          brokerage: "6",
          currencyCode: "AUD",
          exchangeRate: "1",
          reference: "3012004411",
        },
      },
      // Line 4: SELL −100 ENI on Borsa Italiana (BVME), part of Euronext: EURONEXT.
      {
        line: 4,
        raw: {
          tradeDate: "2024-06-10",
          tradeType: "Sell",
          symbol: "ENI",
          exchange: "EURONEXT",
          quantity: "100",
          price: "14.322",
          brokerage: "3",
          currencyCode: "EUR",
          exchangeRate: "1.6215",
          reference: "3012009876",
        },
      },
      // Line 6: the quoted Description "WALMART INC, COMMON" keeps its comma; −1.0000 → 1.
      {
        line: 6,
        raw: {
          tradeDate: "2024-07-15",
          tradeType: "Buy",
          symbol: "WMT",
          exchange: "NYSE",
          quantity: "25",
          price: "68.91",
          brokerage: "1",
          currencyCode: "USD",
          exchangeRate: "1.4803",
          reference: "3012044780",
        },
      },
    ]);
    expect(read.ignored).toEqual([
      { line: 3, reason: "LevelOfDetail ORDER is not an execution: executions are the trades" },
      // No AssetClass column: a currency pair with no listing exchange is an FX conversion.
      { line: 5, reason: "Symbol EUR.AUD is an FX conversion, not a stock trade" },
      // Line 7 is blank, line 8 another section's header.
      { line: 9, reason: "a row of another Flex section, not of the trades" },
    ]);
    expect(read.warnings).toEqual([]);
  });

  describe("rows written in memory", () => {
    const HEADER = ["Buy/Sell", "TradeDate", "Symbol", "Quantity", "TradePrice", "IBCommission", "CurrencyPrimary"];
    const read = (header: string[], ...rows: string[][]) =>
      ibkrFlex.read(
        new Columns(header),
        rows.map((cells, i): CsvRecord => ({ line: i + 2, cells })),
      );

    it("an unreadable date or amount, a cancellation: errors naming the line and column", () => {
      const result = read(
        [...HEADER, "ListingExchange"],
        ["BUY", "2024/09/03", "MSFT", "20", "412.35", "-1", "USD", "NASDAQ"],
        ["SELL", "20240903", "MSFT", "-2O", "412.35", "-1", "USD", "NASDAQ"],
        ["BUY (Ca.)", "20240903", "MSFT", "20", "412.35", "-1", "USD", "NASDAQ"],
        ["BUY", "20240903", "MSFT", "20", "412.35", "-1", "USD", "ENEXT.BE"],
      );
      expect(result.errors).toEqual([
        { path: "line 2.TradeDate", line: 2, message: "is not a date (yyyymmdd): 2024/09/03" },
        { path: "line 3.Quantity", line: 3, message: "is not a number: -2O" },
        {
          path: "line 4.Buy/Sell",
          line: 4,
          message: "is a cancellation (BUY (Ca.)): remove it and the trade it cancels from the file",
        },
        {
          path: "line 5.ListingExchange",
          line: 5,
          message: expect.stringMatching(/^is not an exchange this service knows: ENEXT.BE \(it knows NASDAQ, NYSE, /),
        },
      ]);
    });

    it("without ListingExchange the exchange follows the currency; EUR names none; yyyy-mm-dd dates", () => {
      const result = read(
        HEADER,
        ["BUY", "2024-09-03", "VGS", "10", "128.4", "-6", "AUD"],
        ["BUY", "20240903", "ASML", "1", "880", "-1.25", "EUR"],
      );
      expect(result.trades.map((t) => [t.raw.tradeDate, t.raw.exchange])).toEqual([
        ["2024-09-03", "ASX"],
        ["2024-09-03", ""],
      ]);
      expect(result.errors).toEqual([
        {
          path: "line 3.CurrencyPrimary",
          line: 3,
          message: "names no one exchange (EUR): add ListingExchange to the Flex Query",
        },
      ]);
    });

    it("older files: a BOS…EOS section around the trades, another section after it", () => {
      const result = read(
        HEADER,
        ["SELL", "20241001", "VAS", "-5", "101.3", "-6", "AUD"],
        ["EOS", "TRNT", "1"],
        ["BOS", "CTRN", "Cash Transactions"],
        ["ClientAccountID", "CurrencyPrimary", "Amount", "Type"],
        ["U7654321", "AUD", "250", "Deposits/Withdrawals"],
        ["EOS", "CTRN", "1"],
        ["EOA", "U7654321"],
      );
      expect(result.errors).toEqual([]);
      expect(result.trades.map((t) => [t.line, t.raw.tradeType, t.raw.quantity])).toEqual([[2, "Sell", "5"]]);
      expect(result.ignored).toEqual([{ line: 6, reason: "a row of another Flex section, not of the trades" }]);
    });
  });

  it("a plain file whose first column is Symbol: EOS, BOF or DATA there is a trade's symbol, not a record type", () => {
    // Electro Optic Systems trades as EOS on the ASX; a wrapper line (EOS,TRNT,<count>) has no
    // BUY or SELL under Buy/Sell, a trade always has.
    const header = ["Symbol", "Buy/Sell", "TradeDate", "Quantity", "TradePrice", "IBCommission", "CurrencyPrimary"];
    const result = ibkrFlex.read(
      new Columns(header),
      [
        ["CBA", "BUY", "20240805", "10", "130", "-6", "AUD"],
        ["EOS", "BUY", "20240805", "500", "1.52", "-6", "AUD"],
        ["BOF", "BUY", "20240806", "1", "2", "-6", "AUD"],
        ["DATA", "SELL", "20240807", "-1", "3", "-6", "AUD"],
        ["CBA", "SELL", "20240808", "-10", "131", "-6", "AUD"],
        ["EOS", "TRNT", "5"],
      ].map((cells, i): CsvRecord => ({ line: i + 2, cells })),
    );
    expect(result.errors).toEqual([]);
    expect(result.ignored).toEqual([]);
    expect(result.trades.map((t) => [t.line, t.raw.symbol, t.raw.tradeType, t.raw.quantity])).toEqual([
      [2, "CBA", "Buy", "10"],
      [3, "EOS", "Buy", "500"],
      [4, "BOF", "Buy", "1"],
      [5, "DATA", "Sell", "1"],
      [6, "CBA", "Sell", "10"],
    ]);
  });

  it("names the currency FXRateToBase converts to: the one currency of the trades at rate 1", () => {
    const header = ["Buy/Sell", "TradeDate", "Symbol", "Quantity", "TradePrice", "IBCommission", "CurrencyPrimary"];
    const read = (...rows: [string, string][]) =>
      ibkrFlex.read(
        new Columns([...header, "FXRateToBase"]),
        rows.map(([currency, rate], i): CsvRecord => ({
          line: i + 2,
          cells: ["BUY", "20240805", "X", "1", "1", "-1", currency, rate],
        })),
      ).ratesTo;
    expect(read(["USD", "1"], ["AUD", "0.66"])).toBe("USD");
    expect(read(["AUD", "1"], ["USD", "1.49"], ["AUD", "1"])).toBe("AUD");
    // Two currencies at 1, or none: the file does not say.
    expect(read(["AUD", "1"], ["USD", "1"])).toBeUndefined();
    expect(read(["USD", "1.49"])).toBeUndefined();
  });

  it("finds no header in another format's records", () => {
    expect(ibkrFlex.findHeader([{ line: 1, cells: [...ibkrActivity.header] }])).toBe(-1);
    expect(
      ibkrFlex.findHeader([
        { line: 1, cells: ["Trade Date", "Instrument Code", "Market Code", "Quantity", "Price", "Transaction Type"] },
      ]),
    ).toBe(-1);
  });
});
