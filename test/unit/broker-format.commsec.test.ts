import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { commsec, DERIVED_TRADE_DATES } from "../../src/modules/trades/broker-formats/commsec";
import { Columns } from "../../src/modules/trades/broker-formats/format";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `commsec`: CommSec's Transactions export is the trading account's cash. A trade
 * is a `Details` of `B|S <units> <code> @ <price>` (units with thousands commas), dated on its
 * settlement day: the trade date is 2 business days earlier. Brokerage is what the debit or credit
 * holds beyond units × price. The fixture spans FY2025; three settlements fall on a Monday or
 * Tuesday, so T+2 steps back over a weekend.
 */
describe("CommSec Transactions", () => {
  it("reads each B/S row as a trade dated 2 business days before its settlement", async () => {
    const read = await readBrokerFixture(commsec, "commsec-transactions.csv");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.trades).toEqual([
      // Line 2: settled Mon 15/07/2024 → traded Thu 11/07 (over the weekend of 13-14 July).
      // Brokerage 19.95 = 8,569.95 − 2,500 × 3.42 (8,550.00). "2,500" is quoted with its comma.
      {
        line: 2,
        raw: {
          tradeDate: "2024-07-11",
          tradeType: "Buy",
          symbol: "S32",
          exchange: "ASX",
          quantity: "2500",
          price: "3.42",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "C4417209",
        },
      },
      // Line 3: settled Wed 28/08/2024 → Mon 26/08. 19.95 = 19,699.95 − 150 × 131.20 (19,680.00).
      {
        line: 3,
        raw: {
          tradeDate: "2024-08-26",
          tradeType: "Buy",
          symbol: "CBA",
          exchange: "ASX",
          quantity: "150",
          price: "131.2",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "C4452871",
        },
      },
      // Line 7 (line 6 is blank): settled Tue 03/12/2024 → Fri 29/11. A sale is a credit:
      // 19.95 = |3,630.05 − 1,000 × 3.65 (3,650.00)|.
      {
        line: 7,
        raw: {
          tradeDate: "2024-11-29",
          tradeType: "Sell",
          symbol: "S32",
          exchange: "ASX",
          quantity: "1000",
          price: "3.65",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "C4528830",
        },
      },
      // Line 9: settled Mon 03/03/2025 → Thu 27/02. 29.95 = 24,053.95 − 1,050 × 22.88 (24,024.00).
      {
        line: 9,
        raw: {
          tradeDate: "2025-02-27",
          tradeType: "Buy",
          symbol: "WDS",
          exchange: "ASX",
          quantity: "1050",
          price: "22.88",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "C4601194",
        },
      },
      // Line 11: settled Fri 16/05/2025 → Wed 14/05. 29.95 = |24,321.05 − 150 × 162.34 (24,351.00)|.
      {
        line: 11,
        raw: {
          tradeDate: "2025-05-14",
          tradeType: "Sell",
          symbol: "CBA",
          exchange: "ASX",
          quantity: "150",
          price: "162.34",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "C4655342",
        },
      },
    ]);
  });

  it("lists interest, dividends and transfers as ignored, quoting their Details", async () => {
    const read = await readBrokerFixture(commsec, "commsec-transactions.csv");
    expect(read.ignored).toEqual([
      { line: 4, reason: 'Details "DIRECT CREDIT INTEREST" is not a trade' },
      { line: 5, reason: 'Details "CBA FNL DIV 001307512345" is not a trade' },
      { line: 8, reason: 'Details "Transfer from CDIA 062000 10482256" is not a trade' },
      { line: 10, reason: 'Details "DIRECT CREDIT INTEREST" is not a trade' },
      { line: 12, reason: 'Details "Transfer to other Bank NetBank" is not a trade' },
    ]);
  });

  it("warns once that the trade dates were derived from settlement dates", async () => {
    const read = await readBrokerFixture(commsec, "commsec-transactions.csv");
    expect(read.warnings).toEqual([DERIVED_TRADE_DATES]);
    expect(read.warnings[0]).toMatch(/settlement/);
    expect(read.warnings[0]).toMatch(/2 business days/);
  });

  it("names the line and column of a trade it cannot read", async () => {
    const read = await readBrokerFixture(commsec, "commsec-transactions-bad.csv");
    expect(read.errors).toEqual([
      // Starts as a trade ("B ") but has no "@": an error, not cash to ignore.
      {
        path: "line 2.Details",
        line: 2,
        message: 'reads as a trade but not as "B|S <units> <code> @ <price>": B 2,500 S32 3.420000',
      },
      { path: "line 3.Date", line: 3, message: "is not a date (dd/mm/yyyy): 2024-08-28" },
      // A sale with no credit: its total, so its brokerage, is unknown.
      { path: "line 5.Credit($)", line: 5, message: "is empty" },
    ]);
    expect(read.ignored).toEqual([{ line: 4, reason: 'Details "DIRECT CREDIT INTEREST" is not a trade' }]);
  });

  it("reads a total written negative or in parentheses (a spreadsheet's re-save) as the same amount", async () => {
    const text = [
      "Date,Reference,Details,Debit($),Credit($),Balance($)",
      '17/07/2024,C4417209,"B 2,500 S32 @ 3.420000","(8,569.95)",,"$31,430.05"',
      "18/07/2024,C4417210,B 100 CBA @ 130.000000,-13019.95,,18410.10",
      "19/07/2024,C4417211,S 100 CBA @ 130.000000,,(12980.05),31390.15",
    ].join("\n");
    const records = await readCsvRecords(text, { what: "The import", maxRecords: 10 });
    const read = commsec.read(new Columns(records[0].cells), records.slice(1));
    expect(read.errors).toEqual([]);
    // Brokerage is the total beyond (or short of) units × price: 8,569.95 − 2,500 × 3.42 = 19.95;
    // 13,019.95 − 100 × 130 = 19.95; 100 × 130 − 12,980.05 = 19.95.
    expect(read.trades.map((t) => [t.line, t.raw.tradeType, t.raw.brokerage])).toEqual([
      [2, "Buy", "19.95"],
      [3, "Buy", "19.95"],
      [4, "Sell", "19.95"],
    ]);
  });

  it("refuses a total on the wrong side of units × price, or money both ways, naming the column", async () => {
    const text = [
      "Date,Reference,Details,Debit($),Credit($),Balance($)",
      // A buy of 1,000 × 94.50 = 94,500.00 debited 94,000.00: the brokerage would be −500.
      '17/07/2024,C1,"B 1,000 CBA @ 94.50",94000.00,,0',
      // A sale of 100 × 94.50 = 9,450.00 credited 9,500.00: the brokerage would be −50.
      "18/07/2024,C2,S 100 CBA @ 94.50,,9500.00,0",
      // A buy with a debit and a credit: which way did the money go?
      "19/07/2024,C3,B 10 CBA @ 94.50,964.95,964.95,0",
      // A buy of 10 × 94.50 = 945.00 debited 964.95 (brokerage 19.95) with a zero credit: fine.
      "22/07/2024,C4,B 10 CBA @ 94.50,964.95,0.00,0",
    ].join("\n");
    const records = await readCsvRecords(text, { what: "The import", maxRecords: 10 });
    const read = commsec.read(new Columns(records[0].cells), records.slice(1));
    expect(read.errors).toEqual([
      {
        path: "line 2.Debit($)",
        line: 2,
        message: "is 94000.00, less than the units × price (94500.00): a buy's debit is its value plus the brokerage",
      },
      {
        path: "line 3.Credit($)",
        line: 3,
        message: "is 9500.00, more than the units × price (9450.00): a sale's credit is its value less the brokerage",
      },
      { path: "line 4.Credit($)", line: 4, message: "holds 964.95, but a buy's money is in Debit($) alone" },
    ]);
    expect(read.trades.find((t) => t.line === 5)?.raw.brokerage).toBe("19.95");
  });

  it("does not take another format's file for its own", async () => {
    for (const file of ["commsec-summary.csv", "commsec-confirmations.csv", "selfwealth.csv", "sharesight.csv"]) {
      const text = readFileSync(join(__dirname, "../fixtures/brokers", file), "utf8");
      const records = await readCsvRecords(text, { what: "The import", maxRecords: 1000 });
      expect(commsec.findHeader(records)).toBe(-1);
    }
  });
});
