import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { commsecConfirmations } from "../../src/modules/trades/broker-formats/commsec-confirmations";
import { readBrokerFixture } from "./broker-formats.helpers";

/**
 * docs/data.md §4, `commsec-confirmations`: CommSec's Confirmations export, one contract note a
 * row, dated d/mm/yyyy (no leading zero on the day), `B`/`S`, brokerage including GST. The header
 * writes `Buy/ Sell` with a stray space. A cancelled confirmation is not a trade.
 */
describe("CommSec Confirmations", () => {
  it("reads each confirmed B and S on its trade date", async () => {
    const read = await readBrokerFixture(commsecConfirmations, "commsec-confirmations.csv");
    expect(read.headerLine).toBe(1);
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.trades).toEqual([
      // Line 2: "2/07/2024" → 2024-07-02; 40 × 203.15 = 8,126.00 + 19.95 = Net Proceeds 8,145.95.
      {
        line: 2,
        raw: {
          tradeDate: "2024-07-02",
          tradeType: "Buy",
          symbol: "MQG",
          exchange: "ASX",
          quantity: "40",
          price: "203.15",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "723456781",
        },
      },
      // Line 3: Units "1,250" (quoted, thousands comma); 1,250 × 15.62 = 19,525.00 + 29.95 = 19,554.95.
      {
        line: 3,
        raw: {
          tradeDate: "2024-08-19",
          tradeType: "Buy",
          symbol: "NXT",
          exchange: "ASX",
          quantity: "1250",
          price: "15.62",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "724567892",
        },
      },
      // Line 4: S; 15 × 226.40 = 3,396.00 − 19.95 = 3,376.05.
      {
        line: 4,
        raw: {
          tradeDate: "2024-11-06",
          tradeType: "Sell",
          symbol: "MQG",
          exchange: "ASX",
          quantity: "15",
          price: "226.4",
          brokerage: "19.95",
          currencyCode: "AUD",
          reference: "725678903",
        },
      },
      // Line 7 (5 is blank, 6 cancelled): 1,250 × 16.08 = 20,100.00 − 29.95 = 20,070.05.
      {
        line: 7,
        raw: {
          tradeDate: "2025-03-31",
          tradeType: "Sell",
          symbol: "NXT",
          exchange: "ASX",
          quantity: "1250",
          price: "16.08",
          brokerage: "29.95",
          currencyCode: "AUD",
          reference: "727890125",
        },
      },
    ]);
  });

  it("lists a cancelled confirmation as ignored", async () => {
    const read = await readBrokerFixture(commsecConfirmations, "commsec-confirmations.csv");
    expect(read.ignored).toEqual([
      { line: 6, reason: 'Confirmation 726789014 is "Cancelled": a cancelled confirmation is not a trade' },
    ]);
  });

  it("names the line and column of a cell it cannot read", async () => {
    const read = await readBrokerFixture(commsecConfirmations, "commsec-confirmations-bad.csv");
    expect(read.errors).toEqual([
      // Month 13: a US-ordered date is not CommSec's.
      { path: "line 2.Trade Date", line: 2, message: "is not a date (dd/mm/yyyy): 7/13/2024" },
      // The path names the column as documented, stray space included.
      { path: "line 3.Buy/ Sell", line: 3, message: "is not B or S: X" },
      { path: "line 3.Units", line: 3, message: "is empty" },
    ]);
  });

  it("does not take another format's file for its own", async () => {
    for (const file of ["commsec-transactions.csv", "commsec-summary.csv", "selfwealth.csv", "sharesight.csv"]) {
      const text = readFileSync(join(__dirname, "../fixtures/brokers", file), "utf8");
      const records = await readCsvRecords(text, { what: "The import", maxRecords: 1000 });
      expect(commsecConfirmations.findHeader(records)).toBe(-1);
    }
  });
});
