import { ledgerSnapshot, useTestApp } from "../support/app";

import { newPortfolio } from "../factories";
import { importTradesCsv, importTradesJson, tradeCsv } from "../support/kit";

import { expectRejected } from "../support/outcomes";

/**
 * Trade import (POST /v1/portfolios/{p}/trades/import) against the ledger it lands in (issue 7):
 * a row equal to a recorded trade (same holding, trade date, type, quantity and price) is a
 * duplicate — `?duplicates=error` (default) answers 409 naming each with its line and the trade
 * it repeats, `skip` leaves them out, `allow` imports them; equal rows within one file are not
 * duplicates of each other. A dry run answers 200 and uses up nothing, not even ids. CSV headers
 * and trade types are read in any case.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

type Json = Record<string, unknown>;

const buy = (
  symbol: string,
  tradeDate: string,
  quantity: number | string,
  price: number | string,
  extra: Json = {},
): Json => ({ symbol, exchange: "ASX", tradeType: "Buy", tradeDate, quantity, price, ...extra });

async function tradeCount(p: number): Promise<number> {
  const [row] = await t.db.sql<{ n: unknown }>(`SELECT count(*) AS n FROM trade WHERE portfolio_id = $1`, [p]);
  return Number(row.n);
}

/** The import over JSON or CSV, with this suite's key unless given. */
const importJson = (p: number, rows: unknown, query = "") => importTradesJson(t, key, p, rows, query);
const importCsv = (p: number, text: string, query = "") => importTradesCsv(t, key, p, text, query);

describe("rows equal to a recorded trade", () => {
  it("importing the same file twice answers 409 naming every row with its line and the trade it repeats, and writes nothing", async () => {
    const p = await newPortfolio(t, key);
    const file = tradeCsv(
      "2024-01-10,Buy,CBA,ASX,10,100.50,9.95,,,,",
      "2024-01-11,Buy,NAB,ASX,5,30,,,,,",
      "2024-02-01,Sell,CBA,ASX,4,110,,,,,",
    );
    const first = await importCsv(p, file);
    expect(first.status).toBe(201);
    const ids = first.body.tradeIds as number[];
    const before = await ledgerSnapshot(t.db);
    const again = await importCsv(p, file);
    expect(expectRejected(again, 409, "CONFLICT")).toEqual([
      { path: "line 2", line: 2, duplicateOf: ids[0], message: expect.stringContaining(`repeats trade ${ids[0]}`) },
      { path: "line 3", line: 3, duplicateOf: ids[1], message: expect.stringContaining(`repeats trade ${ids[1]}`) },
      { path: "line 4", line: 4, duplicateOf: ids[2], message: expect.stringContaining(`repeats trade ${ids[2]}`) },
    ]);
    expect(again.body.detail).toMatch(/with duplicates set to skip to leave them out, or to allow/);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("duplicates=skip imports the other rows and lists the skipped lines", async () => {
    const p = await newPortfolio(t, key);
    const recorded = await importJson(p, [buy("CBA", "2024-01-10", 10, 100)]);
    const res = await importJson(
      p,
      [
        buy("CBA", "2024-01-11", 1, 100),
        buy("CBA", "2024-01-10", "10.000", "100.00"),
        buy("NAB", "2024-01-10", 10, 100),
      ],
      "?duplicates=skip",
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      imported: 2,
      valid: 2,
      skipped: [{ line: 2, duplicateOf: recorded.body.tradeIds[0] }],
    });
    expect(await tradeCount(p)).toBe(3);
  });

  it("a skipped duplicate sell is not folded again: the rest of the file still fits the ledger", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [
      buy("CBA", "2024-01-10", 10, 100),
      { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: 10, price: 120 },
    ]);
    const res = await importJson(
      p,
      [{ symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: -10, price: 120 }],
      "?duplicates=skip",
    );
    // Nothing was created, so 200 rather than 201.
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, valid: 0, tradeIds: [], skipped: [{ line: 1 }] });
  });

  it("duplicates=allow imports every row", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buy("CBA", "2024-01-10", 10, 100)]);
    const res = await importJson(p, [buy("CBA", "2024-01-10", 10, 100)], "?duplicates=allow");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported: 1, skipped: [] });
    expect(await tradeCount(p)).toBe(2);
  });

  it("equal rows within one file are not duplicates (identical fills); each recorded trade answers for one row at most", async () => {
    const p = await newPortfolio(t, key);
    const fills = [buy("CBA", "2024-01-10", 10, 100), buy("CBA", "2024-01-10", 10, 100)];
    const first = await importJson(p, fills);
    expect(first.body).toMatchObject({ imported: 2, skipped: [] });
    // Three identical fills against two recorded: two repeat, the third is new.
    const res = await importJson(p, [...fills, buy("CBA", "2024-01-10", 10, 100)], "?duplicates=skip");
    expect(res.body).toMatchObject({
      imported: 1,
      skipped: [
        { line: 1, duplicateOf: first.body.tradeIds[0] },
        { line: 2, duplicateOf: first.body.tradeIds[1] },
      ],
    });
  });

  it("two fills equal but for their broker references are two trades; a row with a reference repeats an equal trade without one", async () => {
    const p = await newPortfolio(t, key);
    // A Flex file's first part: fill 401 of an order; the second part has fill 402 of the same
    // order (same holding, day, quantity and price) and a new row.
    const first = await importJson(p, [buy("BHP", "2024-08-05", 100, 40, { reference: "1000000401" })]);
    expect(first.body).toMatchObject({ imported: 1 });
    const second = await importJson(p, [
      buy("BHP", "2024-08-05", 100, 40, { reference: "1000000402" }),
      buy("BHP", "2024-08-06", 50, 41, { reference: "1000000403" }),
    ]);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ imported: 2, skipped: [] });
    // A trade typed in by hand (no reference), then the broker's file naming it with one: equal, so
    // it repeats the typed one.
    const typed = await importJson(p, [buy("CBA", "2024-08-07", 10, 130)]);
    const file = await importJson(p, [buy("CBA", "2024-08-07", 10, 130, { reference: "C77" })], "?duplicates=skip");
    expect(file.body).toMatchObject({ imported: 0, skipped: [{ line: 1, duplicateOf: typed.body.tradeIds[0] }] });
    expect(await tradeCount(p)).toBe(4);
  });

  it("a different price, quantity, type, date or holding is not a duplicate; decimals compare exactly", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buy("CBA", "2024-01-10", 10, "100.5")]);
    const res = await importJson(p, [
      buy("CBA", "2024-01-10", 10, "100.50000001"),
      buy("CBA", "2024-01-10", "10.00000001", "100.5"),
      buy("CBA", "2024-01-11", 10, "100.5"),
      buy("NAB", "2024-01-10", 10, "100.5"),
      {
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "OpeningBalance",
        tradeDate: "2024-01-10",
        quantity: 10,
        price: "100.5",
      },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported: 5, skipped: [] });
  });

  it("an unknown duplicates mode is 400 naming it; upper case is read", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buy("CBA", "2024-01-10", 10, 100)]);
    expect(
      expectRejected(
        await importJson(p, [buy("CBA", "2024-01-10", 10, 100)], "?duplicates=ignore"),
        400,
        "VALIDATION_FAILED",
      ).map((e) => e.path),
    ).toEqual(["duplicates"]);
    expect((await importJson(p, [buy("CBA", "2024-01-10", 10, 100)], "?duplicates=SKIP")).body).toMatchObject({
      imported: 0,
      skipped: [{ line: 1 }],
    });
  });
});

describe("dry run", () => {
  it("answers 200, writes nothing and uses up no ids: the next import's first trade follows the trade made before it", async () => {
    const p = await newPortfolio(t, key);
    const made = await t.http.post("/v1/trades").set("authorization", key).send({
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-02",
      quantity: 10,
      price: 100,
    });
    expect(made.status).toBe(201);
    const rows = [buy("NAB", "2024-01-10", 10, 30), buy("ZQDRY", "2024-01-11", 1, 1), buy("CBA", "2024-01-12", 1, 101)];
    const before = await ledgerSnapshot(t.db);
    const dry = await importJson(p, rows, "?dryRun=true");
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true,
      imported: 0,
      valid: 3,
      newHoldings: [
        { symbol: "NAB", exchange: "ASX" },
        { symbol: "ZQDRY", exchange: "ASX" },
      ],
      tradeIds: [],
      skipped: [],
      format: "native",
      ignored: [],
      warnings: [],
    });
    expect(await ledgerSnapshot(t.db)).toBe(before);

    const real = await importJson(p, rows);
    expect(real.status).toBe(201);
    expect(real.body.tradeIds).toEqual([made.body.id + 1, made.body.id + 2, made.body.id + 3]);
    // The holdings the dry run planned took no ids either.
    const holdings = (await t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", key)).body as Json[];
    expect(holdings.map((h) => h.id).sort()).toEqual(
      [made.body.holdingId, made.body.holdingId + 1, made.body.holdingId + 2].sort(),
    );
  });

  it("folds the ledger in memory: a sell beyond the units held is refused as a real import would be", async () => {
    const p = await newPortfolio(t, key);
    const rows = [
      buy("NEWCO", "2024-01-10", 5, 1),
      { symbol: "NEWCO", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 6, price: 1 },
    ];
    const dry = expectRejected(await importJson(p, rows, "?dryRun=true"), 422, "BUSINESS_RULE");
    expect(dry.map((e) => e.line)).toEqual([2]);
    expect(expectRejected(await importJson(p, rows), 422, "BUSINESS_RULE")).toEqual(dry);
  });

  it("reports duplicates as a real import would, and lists skipped rows", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buy("CBA", "2024-01-10", 10, 100)]);
    expectRejected(await importJson(p, [buy("CBA", "2024-01-10", 10, 100)], "?dryRun=true"), 409, "CONFLICT");
    const skip = await importJson(
      p,
      [buy("CBA", "2024-01-10", 10, 100), buy("CBA", "2024-01-11", 1, 100)],
      "?dryRun=true&duplicates=skip",
    );
    expect(skip.status).toBe(200);
    expect(skip.body).toMatchObject({ dryRun: true, imported: 0, valid: 1, skipped: [{ line: 1 }] });
    expect(await tradeCount(p)).toBe(1);
  });

  it("a refused import uses up no ids either", async () => {
    const p = await newPortfolio(t, key);
    const first = await importJson(p, [buy("CBA", "2024-01-10", 10, 100)]);
    const refused = await importJson(p, [
      buy("NEWCO", "2024-01-10", 5, 1),
      { symbol: "NEWCO", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 6, price: 1 },
    ]);
    expect(refused.status).toBe(422);
    const next = await importJson(p, [buy("NEWCO", "2024-01-10", 5, 1)]);
    expect(next.body.tradeIds).toEqual([first.body.tradeIds[0] + 1]);
  });
});

describe("CSV in any case", () => {
  it("headers Date,Type,Symbol… and types buy, SELL, Return of capital; currency codes in lower case", async () => {
    const p = await newPortfolio(t, key);
    const text = [
      "Date,TYPE,Symbol,Exchange,Quantity,Price,Brokerage,Currency,ExchangeRate,Source,Notes",
      "2024-01-10,buy,cba,asx,10,100,,aud,,,",
      "2024-01-11,BUY,CBA,ASX,5,100,,,,,",
      "2024-02-01,SELL,CBA,ASX,3,110,,,,,",
      "2024-03-01,Return of capital,CBA,ASX,12,0.5,,,,,",
      "2024-03-02,returnofcapital,CBA,ASX,12,0.25,,,,,",
    ].join("\n");
    const res = await importCsv(p, text + "\n");
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(5);
    const holdingId = (await t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", key)).body[0].id;
    const trades = (await t.http.get(`/v1/holdings/${holdingId}/trades`).set("authorization", key)).body as Json[];
    expect(trades.map((tr) => tr.tradeType)).toEqual(["Buy", "Buy", "Sell", "ReturnOfCapital", "ReturnOfCapital"]);
    expect(trades[0].currencyCode).toBe("AUD");
  });

  it("an unknown column is named with the column it resembles; an unknown type is named by its line", async () => {
    const p = await newPortfolio(t, key);
    const header = await importCsv(
      p,
      "date,type,symbol,exchange,quantity,price,brokrage\n2024-01-10,Buy,CBA,ASX,1,1,1\n",
    );
    expect(expectRejected(header, 400, "VALIDATION_FAILED")).toEqual([
      { path: "line 1.brokrage", message: "is not a known column; did you mean brokerage?", line: 1 },
    ]);
    const type = await importCsv(p, tradeCsv("2024-01-10,Purchase,CBA,ASX,1,1,,,,,"));
    // The CSV's column is named, and the JSON field it stands for in the message.
    expect(expectRejected(type, 400, "VALIDATION_FAILED")).toEqual([
      expect.objectContaining({
        path: "line 2.type",
        message: expect.stringContaining("the field tradeType of a JSON row"),
      }),
    ]);
  });
});
