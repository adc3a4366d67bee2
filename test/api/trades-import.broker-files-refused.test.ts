import { BROKER_FORMATS } from "../../src/modules/trades/broker-formats/registry";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectRejected } from "../support/outcomes";
import { tradeImportApi } from "./trades-import.requests";

/**
 * Broker files the trade import refuses (docs/imports.md), each answered 400 (403, 404) with the
 * line and the file's column to look at, and nothing written: a file no format places, a format
 * named that the file is not, cells that cannot be read or break a trade's rule, a header that
 * repeats a column the import reads, a body of the wrong kind, and keys that may not import.
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});

const { importFile } = tradeImportApi(t, () => key);

describe("files refused", () => {
  it("a file no format places: 400 listing each format with the header it looks for", async () => {
    const p = await newPortfolio(t, key);
    const res = await importFile(p, { name: "x.csv", text: "When,What,How much\n2024-07-01,Bought CBA,100\n" });
    const errors = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(res.body.detail).toMatch(/matches no known format/);
    for (const f of BROKER_FORMATS.filter((x) => x.media === "csv")) {
      expect(errors.some((e) => e.path === "(body)" && e.message.startsWith(`is not ${f.id} (`))).toBe(true);
    }
    const sharesight = errors.find((e) => e.message.startsWith("is not sharesight ("))!;
    expect(sharesight.message).toMatch(/Trade Date,Instrument Code,Market Code,Quantity,Price,Transaction Type/);
  });

  it("a named format the file does not match: 400 naming that format's header", async () => {
    const p = await newPortfolio(t, key);
    const res = await importFile(p, "commsec-summary.csv", "?format=selfwealth");
    const errors = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(res.body.detail).toMatch(/not a SelfWealth/);
    expect(errors).toEqual([{ path: "(body)", message: expect.stringMatching(/^is not selfwealth \(/) }]);
  });

  it.each([
    ["commsec-transactions-bad.csv", ["line 2.Details", "line 3.Date", "line 5.Credit($)"]],
    ["commsec-summary-bad.csv", ["line 5.Unit Price ($)", "line 6.Date", "line 7.Quantity"]],
    ["commsec-confirmations-bad.csv", ["line 2.Trade Date", "line 3.Buy/ Sell", "line 3.Units"]],
    ["selfwealth-bad.csv", ["line 2.Trade Date", "line 3.Average Price"]],
    [
      "sharesight-bad.csv",
      [
        "line 2.Trade Date",
        "line 3.Quantity",
        "line 3.Brokerage Currency (optional)",
        "line 3.Exchange Rate (optional)",
      ],
    ],
  ])("%s: 400 naming line N.<Column> of each unreadable cell, nothing written", async (file, paths) => {
    const p = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    const errors = expectRejected(await importFile(p, file), 400, "VALIDATION_FAILED");
    expect(errors.map((e) => e.path)).toEqual(paths);
    for (const e of errors) expect(e.line).toBe(Number(/^line (\d+)\./.exec(e.path)![1]));
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("a cell that reads but breaks a trade's rule: 400 naming the file's column, and the trade's field", async () => {
    const p = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    // CommSec writes units inside Details: zero units are the Details cell's.
    const commsec = {
      name: "commsec.csv",
      text: "Date,Reference,Details,Debit($),Credit($),Balance($)\n10/07/2024,C1,B 0 CBA @ 100.00,9.95,,0\n",
    };
    expect(expectRejected(await importFile(p, commsec), 400, "VALIDATION_FAILED")).toEqual([
      {
        path: "line 2.Details",
        message: "must not be zero (the trade's quantity, as read from the column Details)",
        line: 2,
      },
    ]);
    // Sharesight's price column has two names: the error names the file's own.
    const sharesight = {
      name: "sharesight.csv",
      text: "Trade Date,Instrument Code,Market Code,Quantity,Price in Dollars,Transaction Type\n2024-07-01,CBA,ASX,10,-5,BUY\n",
    };
    const [error] = expectRejected(await importFile(p, sharesight), 400, "VALIDATION_FAILED");
    expect(error.path).toBe("line 2.Price in Dollars");
    expect(error.message).toMatch(/\(the trade's price, as read from the column Price in Dollars\)$/);
    // A brokerage written negative is refused as the trade's rule has it, not stored as a cost of 9.50.
    const selfwealth = {
      name: "selfwealth.csv",
      text: "Trade Date,Settlement Date,Action,Reference,Code,Name,Units,Average Price,Consideration,Brokerage,Total\n2024-07-22 00:00:00,2024-07-24 00:00:00,Buy,1,VAS,VANGUARD,60,99.87,5992.20,-9.50,5982.70\n",
    };
    const [negative] = expectRejected(await importFile(p, selfwealth), 400, "VALIDATION_FAILED");
    expect(negative.path).toBe("line 2.Brokerage");
    expect(negative.message).toMatch(/\(the trade's brokerage, as read from the column Brokerage\)$/);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("a header that repeats a column the import reads: 400 naming it, nothing written; a repeated column nothing reads is no matter", async () => {
    const p = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    // Two Quantity columns, 45 and 99: which did the user mean? Taking the first would store 45 silently.
    const sharesight = {
      name: "sharesight.csv",
      text: "Trade Date,Instrument Code,Market Code,Quantity,Price in Dollars,Transaction Type,quantity\n2024-07-01,CBA,ASX,45,100,BUY,99\n",
    };
    const res = await importFile(p, sharesight);
    expect(expectRejected(res, 400, "VALIDATION_FAILED")).toEqual([
      {
        path: "line 1.Quantity",
        message: "repeats a column the import reads: which of its cells a row means is unknown; keep one",
        line: 1,
      },
    ]);
    expect(res.body.detail).toBe("The Sharesight trades file cannot be read: its header (line 1) repeats Quantity.");
    const commsec = {
      name: "commsec.csv",
      text: "Date,Reference,Details,Debit($),Credit($),Balance($),Details\n15/07/2024,C1,B 10 CBA @ 94.50,964.95,,0,B 99 CBA @ 1\n",
    };
    expect(expectRejected(await importFile(p, commsec), 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual([
      "line 1.Details",
    ]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
    // Balance($) twice: the import reads no balance.
    const balances = {
      name: "commsec.csv",
      text: "Date,Reference,Details,Debit($),Credit($),Balance($),Balance($)\n15/07/2024,C1,B 10 CBA @ 94.50,964.95,,0,0\n",
    };
    expect((await importFile(p, balances)).status).toBe(201);
  });

  it("a JSON body with format=commsec, an .xlsx body with format=commsec: 400 on format", async () => {
    const p = await newPortfolio(t, key);
    const json = await t.http
      .post(`/v1/portfolios/${p}/trades/import?format=commsec`)
      .set("authorization", key)
      .send([{ symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-07-01", quantity: 1, price: 1 }]);
    expect(expectRejected(json, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["format"]);
    const xlsx = await importFile(p, "stake-trades.xlsx", "?format=commsec");
    expect(expectRejected(xlsx, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["format"]);
  });

  it("a Read client key: 403; another account's portfolio: 404; nothing written", async () => {
    const p = await newPortfolio(t, key);
    const reader = await t.newClientKey(key, "Read", [p]);
    const stranger = await t.newAccount();
    const before = await ledgerSnapshot(t.db);
    expectRejected(await importFile(p, "selfwealth.csv", "", reader), 403, "FORBIDDEN");
    expectRejected(await importFile(p, "stake-trades.xlsx", "", reader), 403, "FORBIDDEN");
    expectRejected(await importFile(p, "selfwealth.csv", "", stranger), 404, "NOT_FOUND");
    expectRejected(await importFile(p, "selfwealth.csv", "?dryRun=true", stranger), 404, "NOT_FOUND");
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });
});
