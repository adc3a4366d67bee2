import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

import { importTradesCsv, importTradesJson, newPortfolio, TRADE_CSV_HEADER, tradeCsv } from "../support/kit";

import { expectRejected, withApp, type FieldError } from "../support/outcomes";

/**
 * Bulk trade import (API.md §2 Trades: POST /v1/portfolios/{p}/trades/import), REST only (GraphQL
 * has no import). A JSON array of trade bodies or text/csv with the header
 * `date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes`.
 * All or nothing: every rejected row is listed as `{path: "line N.field", message, line: N}` (CSV:
 * the header is line 1; JSON: the array position + 1) and nothing is written; `?dryRun=true`
 * validates only. The ledger of the file is folded with the existing one, so a sell may use units
 * bought earlier in the same file, and the result equals recording the rows one by one. The rows
 * go in with a set-based insert: the statement count does not grow with the number of rows.
 */

let t: TestApp;
const { unchanged, count } = withApp(() => t);
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

type Json = Record<string, unknown>;

const COMMSEC = "212ff1a3-1ef4-4922-8231-42d910fa54ff";

/** Every error names a line (`line N` or `line N.field`, with `line: N`); answers the lines named. */
function linesOf(errors: FieldError[]): number[] {
  for (const e of errors) {
    expect(e).toEqual({
      path: expect.stringMatching(/^line \d+(\.[\w.[\]]+)?$/),
      message: expect.any(String),
      line: expect.any(Number),
    });
    expect(e.path.startsWith(`line ${e.line}`)).toBe(true);
  }
  return [...new Set(errors.map((e) => e.line!))].sort((a, b) => a - b);
}

async function holdings(p: number): Promise<Json[]> {
  const res = await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key);
  expect(res.status).toBe(200);
  return res.body;
}

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

const buyRow = (
  symbol: string,
  tradeDate: string,
  quantity: number | string,
  price: number | string,
  extra: Json = {},
) => ({ symbol, exchange: "ASX", tradeType: "Buy", tradeDate, quantity, price, ...extra });

// =============================================================================================

/** The import over JSON or CSV, with this suite's key unless given. */
const importJson = (p: number, rows: unknown, query = "", k = key) => importTradesJson(t, k, p, rows, query);
const importCsv = (p: number, csv: string, query = "", k = key) => importTradesCsv(t, k, p, csv, query);

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

describe("CSV import", () => {
  it("reads the documented header; source may be a Source name or id; optional cells may be empty", async () => {
    const p = await newPortfolio(t, key);
    const res = await importCsv(
      p,
      tradeCsv(
        "2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first buy",
        `2024-01-11,Buy,nab,asx,20,30,,,,${COMMSEC},`,
        '2024-01-12,Buy,AAPL,NASDAQ,5,170,0,USD,1.52,,"note, with a comma"',
        "2024-02-01,Sell,CBA,ASX,4,110,,AUD,,commsec,",
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ dryRun: false, imported: 4, valid: 4 });
    const [cbaBuy, nab, aapl, cbaSell] = await Promise.all(
      (res.body.tradeIds as number[]).map(
        async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body,
      ),
    );
    expect(cbaBuy).toMatchObject({
      symbol: "CBA",
      tradeType: "Buy",
      quantity: 10,
      price: 100,
      brokerage: 9.95,
      sourceId: COMMSEC,
      notes: "first buy",
      currencyCode: "AUD",
      exchangeRate: 1,
    });
    expect(nab).toMatchObject({ symbol: "NAB", exchange: "ASX", sourceId: COMMSEC, brokerage: 0, notes: "" });
    expect(aapl).toMatchObject({
      currencyCode: "USD",
      exchangeRate: 1.52,
      notes: "note, with a comma",
      sourceId: null,
    });
    expect(cbaSell).toMatchObject({ tradeType: "Sell", quantity: -4, sourceId: COMMSEC });
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity, h.costBase])).toEqual([
      ["AAPL", 5, 1292],
      ["CBA", 6, 605.97],
      ["NAB", 20, 600],
    ]);
  });

  it("refuses rows with more cells than the header has columns (an unquoted comma), naming each line, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const res = await importCsv(
        p,
        tradeCsv(
          "2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first buy",
          "2024-01-11,Buy,NAB,ASX,20,30,,,,,note, with a comma",
          "2024-01-12,Buy,WBC,ASX,1,1,,,,,a,b,c",
        ),
      );
      const errors = expectRejected(res, 400, "VALIDATION_FAILED");
      expect(linesOf(errors)).toEqual([3, 4]);
      expect(errors[0].message).toBe("has 12 cells for the header's 11 columns (quote a cell that holds a comma)");
    });
  });

  it("accepts the columns in any order and without the optional ones", async () => {
    const p = await newPortfolio(t, key);
    const res = await importCsv(p, "symbol,exchange,quantity,price,type,date\nCBA,ASX,10,100,Buy,2024-01-10\n");
    expect(res.status).toBe(201);
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity])).toEqual([["CBA", 10]]);
  });

  it("rejects a header with unknown or missing columns, and a file without rows, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      expectRejected(
        await importCsv(p, "date,type,ticker,exchange,quantity,price\n2024-01-10,Buy,CBA,ASX,1,1\n"),
        400,
        "VALIDATION_FAILED",
      );
      expectRejected(
        await importCsv(p, "date,symbol,exchange,quantity,price\n2024-01-10,CBA,ASX,1,1\n"),
        400,
        "VALIDATION_FAILED",
      );
      expectRejected(await importCsv(p, TRADE_CSV_HEADER + "\n"), 400, "VALIDATION_FAILED");
      expectRejected(await importCsv(p, ""), 400, "VALIDATION_FAILED");
    });
  });
});

describe("all or nothing: every bad row is listed with its line, nothing is written", () => {
  it("CSV: bad rows are named by file line (the header is line 1) and field, valid rows are not written", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-01-10,Buy,CBA,ASX,10,100,,,,,", // line 2: fine
            "2024-02-30,Buy,CBA,ASX,10,100,,,,,", // line 3: no such date
            "2024-01-11,Buy,NAB,ASX,10,30,,,,,", // line 4: fine
            "2024-01-12,Purchase,NAB,ASX,10,30,,,,,", // line 5: no such type
            "2024-01-13,Buy,WBC,ASX,0,30,,,,,", // line 6: zero units
            "2024-01-14,Buy,WBC,ASX,1,30,,,,NoSuchBroker,", // line 7: unknown source
            "2024-01-15,Buy,WBC,ASX,1.123456789,30,,,,,", // line 8: 9 decimals
          ),
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([3, 5, 6, 7, 8]);
      const byLine = (n: number) => errors.filter((e) => e.line === n).map((e) => e.path);
      expect(byLine(3)).toEqual([expect.stringMatching(/^line 3\.(date|tradeDate)$/)]);
      expect(byLine(5)).toEqual([expect.stringMatching(/^line 5\.(type|tradeType)$/)]);
      expect(byLine(6)).toEqual(["line 6.quantity"]);
      expect(byLine(7)).toEqual([expect.stringMatching(/^line 7\.(source|sourceId)$/)]);
      expect(byLine(8)).toEqual(["line 8.quantity"]);
    });
    expect(await count("holding")).toBe(0);
  });

  it("CSV line numbers are the file's own lines, blank lines included", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          `${TRADE_CSV_HEADER}\n2024-01-10,Buy,CBA,ASX,10,100,,,,,\n\n2024-02-30,Buy,CBA,ASX,10,100,,,,,\n`,
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([4]);
    });
  });

  it("CSV line numbers count the lines of a quoted multi-line note", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          `${TRADE_CSV_HEADER}\n2024-01-10,Buy,CBA,ASX,10,100,,,,,"two\nlines"\n2024-02-30,Buy,CBA,ASX,10,100,,,,,\n`,
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([4]);
    });
  });

  it("JSON: a row's line is its position in the array + 1", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("CBA", "2024-01-10", 10, 100),
          buyRow("CBA", "2024-01-10", -1, 100),
          42,
          { tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 },
          buyRow("CBA", "2024-01-10", 1, 100, { parcels: [{ tradeId: 1, quantity: 1 }] }),
        ]),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([2, 3, 4, 5]);
      expect(errors.find((e) => e.line === 2)!.path).toBe("line 2.quantity");
      expect(errors.find((e) => e.line === 4)!.path).toBe("line 4.symbol");
      expect(errors.find((e) => e.line === 5)!.path).toBe("line 5.parcels");
    });
  });

  it("a holdingId that is not a holding of the portfolio is named on its line", async () => {
    const p = await newPortfolio(t, key);
    const q = await newPortfolio(t, key);
    const elsewhere = (await importJson(q, [buyRow("CBA", "2024-01-10", 1, 1)])).body.tradeIds[0];
    const holdingId = (await t.http.get(`/v1/trades/${elsewhere}`).set("authorization", key)).body.holdingId;
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("NAB", "2024-01-10", 1, 1),
          { holdingId, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 },
        ]),
        400,
        "VALIDATION_FAILED",
      );
      expect(errors).toEqual([{ path: "line 2.holdingId", message: expect.any(String), line: 2 }]);
    });
  });

  it("a sell beyond the units anywhere in the file is 422 naming its line; holdings the file created are not kept", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-01-10,Buy,CBA,ASX,10,100,,,,,",
            "2024-01-11,Buy,NAB,ASX,10,30,,,,,",
            "2024-01-12,Sell,CBA,ASX,5,110,,,,,",
            "2024-01-13,Sell,CBA,ASX,6,110,,,,,", // line 5: only 5 left
            "2024-01-14,Buy,ZQNEW,ASX,1,1,,,,,",
          ),
        ),
        422,
        "BUSINESS_RULE",
      );
      expect(linesOf(errors)).toEqual([5]);
    });
    expect(await count("holding")).toBe(0);
    expect(await count("security")).toBe(
      Number((await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM security WHERE account_id IS NULL"))[0].n),
    );
  });

  it("short sells in two holdings are both listed", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("CBA", "2024-01-10", 10, 100),
          { symbol: "NAB", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 1, price: 30 },
          { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-12", quantity: 11, price: 100 },
        ]),
        422,
        "BUSINESS_RULE",
      );
      expect(linesOf(errors)).toEqual([2, 3]);
    });
  });

  it("a foreign row without a rate in reach is 422 naming line N.exchangeRate", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-03-08,Buy,CBA,ASX,1,100,,,,,",
            "2024-03-08,Buy,AAPL,NASDAQ,5,170,,,,,",
            "2024-03-08,Buy,MSFT,NASDAQ,1,400,,USD,1.5,,",
          ),
        ),
        422,
        "BUSINESS_RULE",
      );
      expect(errors).toEqual([{ path: "line 3.exchangeRate", message: expect.any(String), line: 3 }]);
    });
  });

  it("a foreign row takes the FX table's latest rate on or before its date, the inverse too; none before it: 422", async () => {
    const p = await newPortfolio(t, key);
    const [{ account_id }] = await t.db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [
      p,
    ]);
    await t.db.prisma.fxRate.create({
      data: {
        accountId: Number(account_id),
        base: "USD",
        quote: "AUD",
        date: new Date("2024-03-08T00:00:00Z"),
        rate: "1.5",
      },
    });
    await t.db.prisma.fxRate.create({
      data: {
        accountId: Number(account_id),
        base: "AUD",
        quote: "GBP",
        date: new Date("2024-03-08T00:00:00Z"),
        rate: "0.5",
      },
    });
    const res = await importCsv(
      p,
      tradeCsv(
        "2024-03-10,Buy,AAPL,NASDAQ,5,170,,,,,",
        "2024-03-18,Buy,AAPL,NASDAQ,5,170,,,,,",
        "2024-03-11,Buy,VOD,LSE,10,1,,,,,",
      ),
    );
    expect(res.status).toBe(201);
    const rates = await Promise.all(
      (res.body.tradeIds as number[]).map(
        async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body.exchangeRate,
      ),
    );
    expect(rates).toEqual([1.5, 1.5, 2]);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(p, tradeCsv("2024-03-07,Buy,AAPL,NASDAQ,5,170,,,,,")),
        422,
        "BUSINESS_RULE",
      );
      expect(errors).toEqual([{ path: "line 2.exchangeRate", message: expect.any(String), line: 2 }]);
    });
  });

  it("a base-currency row with an exchange rate other than 1 is refused like POST /v1/trades refuses it (400, line N.exchangeRate)", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(p, tradeCsv("2024-03-08,Buy,CBA,ASX,1,100,,,1.5,,")),
        400,
        "VALIDATION_FAILED",
      );
      expect(errors).toEqual([{ path: "line 2.exchangeRate", message: expect.any(String), line: 2 }]);
    });
  });

  it("a body that is neither a JSON array nor CSV, or an empty array, is 400", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      expect(expectRejected(await importJson(p, buyRow("CBA", "2024-01-10", 1, 1)), 400, "VALIDATION_FAILED")).toEqual([
        { path: "(body)", message: expect.any(String) },
      ]);
      expect(expectRejected(await importJson(p, []), 400, "VALIDATION_FAILED")).toEqual([
        { path: "(body)", message: expect.any(String) },
      ]);
    });
  });
});

describe("dryRun=true validates and writes nothing", () => {
  it("answers the valid count and the holdings it would create, and keeps nothing", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buyRow("CBA", "2024-01-01", 1, 1)]);
    await unchanged(async () => {
      const res = await importCsv(
        p,
        tradeCsv(
          "2024-01-10,Buy,CBA,ASX,10,100,,,,,",
          "2024-01-11,Buy,NAB,ASX,10,30,,,,,",
          "2024-01-12,Buy,ZQDRY,ASX,1,1,,,,,",
        ),
        "?dryRun=true",
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        dryRun: true,
        imported: 0,
        valid: 3,
        newHoldings: [
          { symbol: "NAB", exchange: "ASX" },
          { symbol: "ZQDRY", exchange: "ASX" },
        ],
        tradeIds: [],
        skipped: [],
      });
    });
    expect((await holdings(p)).map((h) => h.symbol)).toEqual(["CBA"]);
    expect((await t.http.get("/v1/securities/search?q=ZQDRY").set("authorization", key)).body).toEqual([]);
  });

  it("reports bad rows exactly as a real import would", async () => {
    const p = await newPortfolio(t, key);
    const rows = [
      buyRow("CBA", "2024-01-10", 1, 1),
      { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 2, price: 1 },
    ];
    await unchanged(async () => {
      const dry = expectRejected(await importJson(p, rows, "?dryRun=true"), 422, "BUSINESS_RULE");
      const real = expectRejected(await importJson(p, rows), 422, "BUSINESS_RULE");
      expect(dry).toEqual(real);
      expect(linesOf(dry)).toEqual([2]);
    });
  });

  it("dryRun=false imports; any other value is 400 naming dryRun", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const res = await importJson(p, [buyRow("CBA", "2024-01-10", 1, 1)], "?dryRun=yes");
      expect(expectRejected(res, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["dryRun"]);
    });
    expect((await importJson(p, [buyRow("CBA", "2024-01-10", 1, 1)], "?dryRun=false")).body).toMatchObject({
      dryRun: false,
      imported: 1,
    });
  });
});

describe("set-based insert", () => {
  function rows(n: number): Json[] {
    return Array.from({ length: n }, (_, i) => {
      const symbol = i % 2 === 0 ? "CBA" : "NAB";
      const date = new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 2))).toISOString().slice(0, 10);
      return i % 10 === 9
        ? { symbol, exchange: "ASX", tradeType: "Sell", tradeDate: date, quantity: 1, price: 2 }
        : {
            symbol,
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: date,
            quantity: 1,
            price: 1,
            brokerage: "0.5",
            sourceId: COMMSEC,
            notes: `row ${i}`,
          };
    });
  }

  async function statementsFor(n: number): Promise<number> {
    const p = await newPortfolio(t, key);
    const before = t.db.statementCount;
    const res = await importJson(p, rows(n));
    const used = t.db.statementCount - before;
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(n);
    expect(await t.db.sql(`SELECT 1 FROM trade WHERE portfolio_id = $1`, [p])).toHaveLength(n);
    return used;
  }

  it("2,000 rows cost the same few SQL statements as 20 rows", async () => {
    const small = await statementsFor(20);
    const large = await statementsFor(2000);
    expect(Math.abs(large - small)).toBeLessThanOrEqual(3);
    expect(large).toBeLessThan(50);
  });
});
