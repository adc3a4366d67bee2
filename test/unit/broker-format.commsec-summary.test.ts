import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { commsecSummary } from "../../src/modules/trades/broker-formats/commsec-summary";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `commsec-summary`: CommSec's Transaction Summary, every cell quoted, CRLF lines.
 * A preamble (title, period, account, name, a blank line) precedes the header; rows are sorted
 * by code, not date; a sale has a negative Quantity, Trade Value and Total Value; the brokerage
 * column includes GST. A subtotal row follows the trades and a GLOSSARY block ends the file.
 */
describe("CommSec Transaction Summary", () => {
  it("finds the header past the preamble and reads each Buy and Sell", async () => {
    const read = await readBrokerFixture(commsecSummary, "commsec-summary.csv");
    // Lines 1-4 are the preamble, line 5 is blank.
    expect(read.headerLine).toBe(6);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 7: 75 × 131.45 = 9,858.75 (Trade Value); Brokerage+GST 19.95; Total 9,878.70.
      {
        line: 7,
        raw: {
          tradeDate: "2024-09-09",
          tradeType: "Buy",
          symbol: "A200",
          exchange: "ASX",
          quantity: "75",
          price: "131.45",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "512345678",
        },
      },
      // Line 8: 40 × 298.12 = 11,924.80; brokerage 29.95 (GST 2.72 is part of it, not added).
      {
        line: 8,
        raw: {
          tradeDate: "2024-11-21",
          tradeType: "Buy",
          symbol: "CSL",
          exchange: "ASX",
          quantity: "40",
          price: "298.12",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "523456789",
        },
      },
      // Line 9: a sale written as Quantity -15, Trade Value -3,769.50: 15 units at 251.30, brokerage
      // 19.95 (Total -3,749.55 = -3,769.50 + 19.95). Sorted by code, so it comes before February's TLS.
      {
        line: 9,
        raw: {
          tradeDate: "2025-06-12",
          tradeType: "Sell",
          symbol: "CSL",
          exchange: "ASX",
          quantity: "15",
          price: "251.3",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "598765432",
        },
      },
      // Line 10: Quantity "2,400" with a thousands comma; 2,400 × 4.01 = 9,624.00.
      {
        line: 10,
        raw: {
          tradeDate: "2025-02-03",
          tradeType: "Buy",
          symbol: "TLS",
          exchange: "ASX",
          quantity: "2400",
          price: "4.01",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "534567890",
        },
      },
      // Line 11: Quantity "-2,400" at 4.42 = -10,608.00; brokerage 29.95; Total -10,578.05.
      {
        line: 11,
        raw: {
          tradeDate: "2025-04-23",
          tradeType: "Sell",
          symbol: "TLS",
          exchange: "ASX",
          quantity: "2400",
          price: "4.42",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "587654321",
        },
      },
    ]);
  });

  it("lists the subtotal row and the GLOSSARY trailer as ignored, not as errors", async () => {
    const read = await readBrokerFixture(commsecSummary, "commsec-summary.csv");
    expect(read.ignored).toEqual([
      { line: 12, reason: "Type (empty) is not a trade: SUBTOTAL" },
      // Line 13 is blank; the glossary's three lines of prose after line 14 are not read as rows.
      {
        line: 14,
        reason:
          "GLOSSARY: the export's trailer starts here (this row and the 3 after it explain the columns; they are not trades)",
      },
    ]);
  });

  it("names the line and column of a cell it cannot read", async () => {
    const read = await readBrokerFixture(commsecSummary, "commsec-summary-bad.csv");
    expect(read.headerLine).toBe(4);
    expect(read.errors).toEqual([
      // Letter O for zero in the price.
      { path: "line 5.Unit Price ($)", line: 5, message: "is not a number: 131.45OO" },
      // 31 February is no date.
      { path: "line 6.Date", line: 6, message: "is not a date (dd/mm/yyyy): 31/02/2025" },
      // A Buy written with a sale's negative quantity: the file contradicts itself.
      { path: "line 7.Quantity", line: 7, message: "is negative for a Buy: -2400" },
    ]);
    expect(read.ignored.map((i) => i.line)).toEqual([8]);
  });

  it("does not take another format's file for its own", async () => {
    for (const file of ["commsec-transactions.csv", "commsec-confirmations.csv", "selfwealth.csv", "sharesight.csv"]) {
      const text = readFileSync(join(__dirname, "../fixtures/brokers", file), "utf8");
      const records = await readCsvRecords(text, { what: "The import", maxRecords: 1000 });
      expect(commsecSummary.findHeader(records)).toBe(-1);
    }
  });
});
