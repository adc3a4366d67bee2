import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectRejected } from "../support/outcomes";
import { type Json, COMMSEC, linesOf, buyRow, tradeImportApi } from "./trades-import.requests";

/**
 * Bulk trade import (docs/conventions.md §7.4: POST /v1/portfolios/{p}/trades/import), REST only (GraphQL
 * has no import). A JSON array of trade bodies or text/csv with the header
 * `date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes`.
 * All or nothing: every rejected row is listed as `{path: "line N.field", message, line: N}` (CSV:
 * the header is line 1; JSON: the array position + 1) and nothing is written; `?dryRun=true`
 * validates only. The ledger of the file is folded with the existing one, so a sell may use units
 * bought earlier in the same file, and the result equals recording the rows one by one. The rows
 * go in with a set-based insert: the statement count does not grow with the number of rows.
 */
/**
 * JSON rows: holdings created, sells against units of the file or already held, file order within a day, and
 * the same result as posting the rows one by one.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { unchanged, holdings, importJson } = tradeImportApi(t, () => key);

async function tradesOf(holdingId: number): Promise<Json[]> {
  const res = await t.http.get(`/v1/holdings/${holdingId}/trades`).set("authorization", key);
  expect(res.status).toBe(200);
  return res.body;
}

/** A holding and its trades without the ids that differ between two portfolios. */
async function portfolioContents(p: number): Promise<(Json & { trades: Json[] })[]> {
  const list = await holdings(p);
  return Promise.all(
    list.map(async (h) => {
      const { id, portfolioId: _p, ...rest } = h;
      const trades = (await tradesOf(id as number)).map(({ id: _i, holdingId: _h, portfolioId: _pp, ...x }) => x);
      return { ...rest, trades };
    }),
  );
}

describe("JSON import", () => {
  it("imports every row, creating holdings, and answers 201 with the new trade ids in file order", async () => {
    const p = await newPortfolio(t, key);
    const res = await importJson(p, [
      buyRow("CBA", "2024-01-10", 10, 100),
      buyRow("nab", "2024-01-11", 20, 30, { sourceId: COMMSEC }),
      buyRow("CBA", "2024-01-12", 5, 101),
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      dryRun: false,
      imported: 3,
      valid: 3,
      newHoldings: [
        { symbol: "CBA", exchange: "ASX" },
        { symbol: "NAB", exchange: "ASX" },
      ],
      tradeIds: expect.any(Array),
      skipped: [],
      format: "native",
      ignored: [],
      warnings: [],
    });
    const ids = res.body.tradeIds as number[];
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    const trades = await Promise.all(
      ids.map(async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body),
    );
    expect(trades.map((x) => [x.symbol, x.tradeDate, x.quantity, x.price, x.sourceId])).toEqual([
      ["CBA", "2024-01-10", 10, 100, null],
      ["NAB", "2024-01-11", 20, 30, COMMSEC],
      ["CBA", "2024-01-12", 5, 101, null],
    ]);
    expect((await holdings(p)).map((h) => [h.symbol, h.name, h.quantity, h.costBase])).toEqual([
      ["CBA", "Commonwealth Bank of Australia", 15, 1505],
      ["NAB", "National Australia Bank Limited", 20, 600],
    ]);
  });

  it("a sell may use units bought earlier in the same file, whatever the rows' order in the file", async () => {
    const p = await newPortfolio(t, key);
    const res = await importJson(p, [
      { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-03-01", quantity: 7, price: 3 },
      buyRow("CBA", "2024-01-01", 10, 1),
      buyRow("CBA", "2024-02-01", 10, 2),
    ]);
    expect(res.status).toBe(201);
    // Navexa's example, FIFO: 13 units with cost base 23.
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity, h.costBase])).toEqual([["CBA", 13, 23]]);
  });

  it("a sell may use units the portfolio already held", async () => {
    const p = await newPortfolio(t, key);
    expect((await importJson(p, [buyRow("CBA", "2024-01-01", 10, 1)])).status).toBe(201);
    expect(
      (
        await importJson(p, [
          { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: 10, price: 2 },
        ])
      ).status,
    ).toBe(201);
    expect((await holdings(p)).map((h) => [h.quantity, h.costBase])).toEqual([[0, 0]]);
  });

  it("same-day rows keep file order: a sell before the same day's buy has no units (422)", async () => {
    const p = await newPortfolio(t, key);
    const sellFirst = [
      { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-10", quantity: 5, price: 2 },
      buyRow("CBA", "2024-01-10", 10, 1),
    ];
    await unchanged(async () => {
      const errors = expectRejected(await importJson(p, sellFirst), 422, "BUSINESS_RULE");
      expect(linesOf(errors)).toEqual([1]);
    });
    const ok = await importJson(p, [...sellFirst].reverse());
    expect(ok.status).toBe(201);
    const listed = await tradesOf((await holdings(p))[0].id as number);
    expect(listed.map((x) => [x.tradeType, x.id])).toEqual([
      ["Buy", ok.body.tradeIds[0]],
      ["Sell", ok.body.tradeIds[1]],
    ]);
  });

  it("gives the same holdings and trades as posting the rows one by one to POST /v1/trades", async () => {
    const rows: Json[] = [
      buyRow("CBA", "2024-01-10", 100, 10, { brokerage: 10 }),
      buyRow("CBA", "2024-02-10", 50, 12, { brokerage: 5, notes: "top-up" }),
      {
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: "2024-03-10",
        quantity: 70,
        price: 13,
        brokerage: 10,
      },
      { symbol: "CBA", exchange: "ASX", tradeType: "Split", tradeDate: "2024-04-10", quantity: 80 },
      {
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "ReturnOfCapital",
        tradeDate: "2024-05-10",
        quantity: 160,
        price: "0.25",
      },
      { symbol: "CBA", exchange: "ASX", tradeType: "Bonus", tradeDate: "2024-06-10", quantity: 16 },
      {
        symbol: "NAB",
        exchange: "ASX",
        tradeType: "OpeningBalance",
        tradeDate: "2024-01-01",
        quantity: 200,
        price: 25,
        acquisitionDate: "2019-07-01",
      },
      { symbol: "NAB", exchange: "ASX", tradeType: "TransferOut", tradeDate: "2024-02-01", quantity: 50 },
      {
        symbol: "NAB",
        exchange: "ASX",
        tradeType: "CostBaseIncrease",
        tradeDate: "2024-03-01",
        quantity: 150,
        price: "0.1",
      },
      { symbol: "NAB", exchange: "ASX", tradeType: "Consolidation", tradeDate: "2024-04-01", quantity: 50 },
      {
        symbol: "NAB",
        exchange: "ASX",
        tradeType: "CostBaseDecrease",
        tradeDate: "2024-05-01",
        quantity: 100,
        price: "0.3",
      },
      buyRow("WBC", "2024-01-05", 10, 20),
      { symbol: "WBC", exchange: "ASX", tradeType: "Cancellation", tradeDate: "2024-06-30" },
      { symbol: "VAS", exchange: "ASX", tradeType: "TransferIn", tradeDate: "2024-01-15", quantity: 30, price: 90 },
      {
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-03-08",
        quantity: 5,
        price: 170,
        currencyCode: "USD",
        exchangeRate: "1.52",
      },
      {
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Sell",
        tradeDate: "2024-04-08",
        quantity: -2,
        price: 180,
        exchangeRate: "1.55",
      },
      {
        symbol: "ZQIMP",
        exchange: "ASX",
        name: "Imported Unknown",
        holdingType: "Fund",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 3,
        price: "1.5",
      },
    ];
    const imported = await newPortfolio(t, key);
    const res = await importJson(imported, rows);
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(rows.length);

    const oneByOne = await newPortfolio(t, key);
    for (const row of rows) {
      const r = await t.http
        .post("/v1/trades")
        .set("authorization", key)
        .send({ portfolioId: oneByOne, ...row });
      expect({ row, status: r.status }).toEqual({ row, status: 201 });
    }

    const a = await portfolioContents(imported);
    const b = await portfolioContents(oneByOne);
    expect(a).toEqual(b);
    expect(a.map((h) => [h.symbol, h.quantity, h.costBase])).toEqual([
      ["AAPL", 3, 775.2],
      ["CBA", 176, 868],
      ["NAB", 100, 3735],
      ["VAS", 30, 2700],
      ["WBC", 0, 0],
      ["ZQIMP", 3, 4.5],
    ]);
  });

  it("the path names the portfolio: a row naming the same one is fine, a row naming another is refused by its line", async () => {
    const p = await newPortfolio(t, key);
    const q = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    const res = await importJson(p, [
      buyRow("CBA", "2024-01-10", 1, 1),
      { ...buyRow("CBA", "2024-01-11", 1, 1), portfolioId: q },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: "line 2.portfolioId", message: `must be ${p}, the portfolio of the path, or absent`, line: 2 },
    ]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
    expect((await importJson(p, [{ ...buyRow("CBA", "2024-01-10", 1, 1), portfolioId: p }])).status).toBe(201);
    expect(await holdings(q)).toEqual([]);
    expect((await holdings(p)).length).toBe(1);
  });
});

describe("a Cancellation row's quantity", () => {
  // 10 WBC bought on 2024-01-05 in the same file; the Cancellation on 2024-06-30 takes all 10.
  it("is the units held or absent: another figure is refused by its line (422), nothing written", async () => {
    const p = await newPortfolio(t, key);
    const cancellation = { symbol: "WBC", exchange: "ASX", tradeType: "Cancellation", tradeDate: "2024-06-30" };
    await unchanged(async () => {
      const res = await importJson(p, [buyRow("WBC", "2024-01-05", 10, 20), { ...cancellation, quantity: 4 }]);
      expect(expectRejected(res, 422, "BUSINESS_RULE")).toEqual([
        {
          path: "line 2.quantity",
          message: "is 4, but a Cancellation takes every unit held on its date: 10; give that, or leave quantity out",
          line: 2,
        },
      ]);
    });
    // Dated before the buy, it has no units to take: refused by its line, not stored as 0 units.
    await unchanged(async () => {
      const early = await importJson(p, [
        buyRow("WBC", "2024-01-05", 10, 20),
        { ...cancellation, tradeDate: "2023-12-01" },
      ]);
      expect(expectRejected(early, 422, "BUSINESS_RULE")).toEqual([
        { path: "line 2", message: "Cancellation on 2023-12-01: no units are held.", line: 2 },
      ]);
    });
    const res = await importJson(p, [buyRow("WBC", "2024-01-05", 10, 20), { ...cancellation, quantity: -10 }]);
    expect(res.status).toBe(201);
    const [wbc] = await holdings(p);
    expect((await tradesOf(wbc.id as number)).map((x) => [x.tradeType, x.quantity])).toEqual([
      ["Buy", 10],
      ["Cancellation", -10],
    ]);
  });
});
