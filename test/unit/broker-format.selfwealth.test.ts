import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { Columns } from "../../src/modules/trades/broker-formats/format";
import { selfwealth } from "../../src/modules/trades/broker-formats/selfwealth";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `selfwealth`: SelfWealth's Movements export, dates `yyyy-mm-dd 00:00:00`,
 * `Action` Buy/Sell, the price from `Average Price`, SelfWealth's flat $9.50 brokerage. `In` rows
 * (a DRP allotment, a transfer in) carry no price and are not trades. The fixture's header is
 * written in mixed case (`TRADE DATE`, `settlement date`, `name`), which matching ignores.
 */
describe("SelfWealth Movements", () => {
  it("reads each Buy and Sell, whatever the header's case", async () => {
    const read = await readBrokerFixture(selfwealth, "selfwealth.csv");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 2: 60 × 99.87 = Consideration 5,992.20; + 9.50 = Total 6,001.70.
      {
        line: 2,
        raw: {
          tradeDate: "2024-07-22",
          tradeType: "Buy",
          symbol: "VAS",
          exchange: "ASX",
          quantity: "60",
          price: "99.87",
          brokerage: "9.5",
          currencyCode: "AUD",
          reference: "2481937",
        },
      },
      // Line 4: 120 × 43.56 = 5,227.20; + 9.50 = 5,236.70.
      {
        line: 4,
        raw: {
          tradeDate: "2024-10-14",
          tradeType: "Buy",
          symbol: "BHP",
          exchange: "ASX",
          quantity: "120",
          price: "43.56",
          brokerage: "9.5",
          currencyCode: "AUD",
          reference: "2503318",
        },
      },
      // Line 7 (5 is blank): 120 × 36.05 = 4,326.00; − 9.50 = 4,316.50.
      {
        line: 7,
        raw: {
          tradeDate: "2025-04-07",
          tradeType: "Sell",
          symbol: "BHP",
          exchange: "ASX",
          quantity: "120",
          price: "36.05",
          brokerage: "9.5",
          currencyCode: "AUD",
          reference: "2561044",
        },
      },
      // Line 8: Units "1,000" quoted; 1,000 × 52.335 = 52,335.00; + 9.50 = 52,344.50. The trade
      // date is the Thursday; the settlement date (Monday) is not read.
      {
        line: 8,
        raw: {
          tradeDate: "2025-06-19",
          tradeType: "Buy",
          symbol: "NDQ",
          exchange: "ASX",
          quantity: "1000",
          price: "52.335",
          brokerage: "9.5",
          currencyCode: "AUD",
          reference: "2584467",
        },
      },
    ]);
  });

  it("lists In rows (a DRP allotment, a transfer in) as ignored", async () => {
    const read = await readBrokerFixture(selfwealth, "selfwealth.csv");
    expect(read.ignored).toEqual([
      {
        line: 3,
        reason:
          "Action In (3 VAS) is a DRP allotment or a transfer in and has no price: record a DRP on its income record, a transfer as a TransferIn",
      },
      {
        line: 6,
        reason:
          "Action In (200 ETHI) is a DRP allotment or a transfer in and has no price: record a DRP on its income record, a transfer as a TransferIn",
      },
    ]);
  });

  it("names the line and column of a cell it cannot read", async () => {
    const read = await readBrokerFixture(selfwealth, "selfwealth-bad.csv");
    expect(read.errors).toEqual([
      // Month first, as a US spreadsheet re-saves it: no 22nd month.
      { path: "line 2.Trade Date", line: 2, message: "is not a date (yyyy-mm-dd): 07/22/2024 00:00:00" },
      { path: "line 3.Average Price", line: 3, message: "is not a number: n/a" },
    ]);
  });

  it("reads the dates of a file re-saved by a spreadsheet in an Australian locale (22/07/2024 0:00)", async () => {
    const text = [
      "Trade Date,Settlement Date,Action,Reference,Code,Name,Units,Average Price,Consideration,Brokerage,Total",
      "22/07/2024 0:00,24/07/2024 0:00,Buy,2481937,VAS,VANGUARD AUSTRALIAN SHARES INDEX ETF,60,99.87,5992.2,9.5,6001.7",
      "1/10/2024,3/10/2024,Sell,2481938,VAS,VANGUARD AUSTRALIAN SHARES INDEX ETF,10,101.5,1015,9.5,1005.5",
    ].join("\r\n");
    const records = await readCsvRecords(text, { what: "The import", maxRecords: 10 });
    const read = selfwealth.read(new Columns(records[0].cells), records.slice(1));
    expect(read.errors).toEqual([]);
    expect(read.trades.map((t) => [t.line, t.raw.tradeDate, t.raw.tradeType])).toEqual([
      [2, "2024-07-22", "Buy"],
      [3, "2024-10-01", "Sell"],
    ]);
  });

  describe("the row's money agrees with its trade, or the row is refused naming the column", () => {
    const HEADER =
      "Trade Date,Settlement Date,Action,Reference,Code,Name,Units,Average Price,Consideration,Brokerage,Total";
    const read = async (...rows: string[]) => {
      const records = await readCsvRecords([HEADER, ...rows].join("\n"), { what: "The import", maxRecords: 10 });
      return selfwealth.read(new Columns(records[0].cells), records.slice(1));
    };
    const row = (side: string, units: string, price: string, consideration: string, total: string) =>
      `2024-07-22 00:00:00,2024-07-24 00:00:00,${side},1,VAS,VANGUARD,${units},${price},${consideration},9.50,${total}`;

    it("takes an average price rounded to 6 decimals: 3 × 33.333333 = 99.999999 against a consideration of 100", async () => {
      // |99.999999 − 100| = 0.000001, within 3 × 0.0000005 + 0.00005 = 0.0000515; Total 100 + 9.50.
      const r = await read(row("Buy", "3", "33.333333", "100.0000", "109.50"));
      expect(r.errors).toEqual([]);
      expect(r.trades).toHaveLength(1);
    });

    it("takes a sale's money written negative, as a spreadsheet may, and cells left empty", async () => {
      // 10 × 101.5 = 1,015.00; less 9.50 = 1,005.50.
      const r = await read(row("Sell", "10", "101.5", "-1015.0000", "(1005.50)"), row("Buy", "10", "101.5", "", ""));
      expect(r.errors).toEqual([]);
      expect(r.trades).toHaveLength(2);
    });

    it("refuses a Consideration that is not Units × Average Price", async () => {
      // 60 × 99.87 = 5,992.20, not 5,992.30 (0.10 apart, past 60 × 0.0000005 + 0.00005).
      const r = await read(row("Buy", "60", "99.870000", "5992.3000", "6001.80"));
      expect(r.errors).toEqual([
        {
          path: "line 2.Consideration",
          line: 2,
          message:
            "is 5992.3, but Units × Average Price is 5992.2 (60 × 99.87): the row's money disagrees with its trade",
        },
      ]);
    });

    it("refuses a Total that is not the consideration plus (a buy) or less (a sale) the brokerage", async () => {
      // The sale's total with the brokerage added: 1,015.00 + 9.50 = 1,024.50, not 1,005.50.
      const r = await read(row("Sell", "10", "101.5", "1015.0000", "1024.50"));
      expect(r.errors).toEqual([
        {
          path: "line 2.Total",
          line: 2,
          message:
            "is 1024.5, but Consideration less Brokerage is 1005.5: a sale's total is its consideration less the brokerage",
        },
      ]);
    });

    it("does not check the money of a row whose units or price did not read (that cell is the error)", async () => {
      const r = await read(row("Buy", "60", "n/a", "5992.2000", "6001.70"));
      expect(r.errors.map((e) => e.path)).toEqual(["line 2.Average Price"]);
    });
  });

  it("does not take another format's file for its own", async () => {
    for (const file of [
      "commsec-transactions.csv",
      "commsec-summary.csv",
      "commsec-confirmations.csv",
      "sharesight.csv",
    ]) {
      const text = readFileSync(join(__dirname, "../fixtures/brokers", file), "utf8");
      const records = await readCsvRecords(text, { what: "The import", maxRecords: 1000 });
      expect(selfwealth.findHeader(records)).toBe(-1);
    }
  });
});
