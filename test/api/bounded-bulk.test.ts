import { ledgerSnapshot, useTestApp } from "../support/app";
import { newCustomHolding, newPortfolio } from "../factories";
import { importTradesCsv, importTradesJson, TRADE_CSV_HEADER } from "../support/kit";
import { expectRejected, withApp } from "../support/outcomes";

/**
 * Issue 20, rows 1 and 4: a bulk body costs what its row limit allows, not what the file holds.
 * CSV is read row by row and no further than the limit (413 naming it, whatever follows); a JSON
 * array is counted before any row is looked at; every error list holds the first 100 errors with
 * `errorCount` the total.
 */

// Every request here is refused and writes nothing (each test proves it): the tests share one
// account, and no test needs the database emptied first.
const t = useTestApp({ reset: "none" });
const { count } = withApp(() => t);
let key: string;

beforeAll(async () => {
  key = await t.newAccount();
});

const day = (i: number) => new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);
/** `n` lines made by `line(i)`, newline-terminated. */
const lines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
/** After the rows, a line csv-parse cannot read: a reader that went past the limit answers 400 for it, not 413. */
const UNREADABLE = '2024-01-02,"never closed\n';

const postCsv = (path: string, body: string) =>
  t.http.post(path).set("authorization", key).set("content-type", "text/csv").send(body);

describe("CSV bodies are read no further than their row limit", () => {
  it("a trade import of 50,001 rows answers 413 naming the limit, with and without dryRun, and writes nothing", async () => {
    const p = await newPortfolio(t, key);
    const csv = TRADE_CSV_HEADER + "\n" + lines(50_001, (i) => `${day(i % 5000)},Buy,CBA,ASX,1,1,,,,,`) + UNREADABLE;
    const before = await ledgerSnapshot(t.db);
    for (const query of ["", "?dryRun=true"]) {
      const res = await importTradesCsv(t, key, p, csv, query);
      const errors = expectRejected(res, 413, "PAYLOAD_TOO_LARGE");
      expect(errors).toEqual([{ path: "(body)", message: "must have at most 50,000 rows" }]);
      expect(res.body.detail).toMatch(/at most 50,000 rows/);
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("the rows of 9,000,000 `1`s stop at the limit too (the shape that exhausted the heap)", async () => {
    const p = await newPortfolio(t, key);
    // 50,001 rows of `1` stand for the 9,000,000: the answer must come from the limit, not the end
    // (a reader that went on would meet the unreadable line and answer 400).
    const res = await importTradesCsv(
      t,
      key,
      p,
      "date,type,quantity\n" + "1\n".repeat(50_001) + UNREADABLE,
      "?dryRun=true",
    );
    expect(expectRejected(res, 413, "PAYLOAD_TOO_LARGE")).toEqual([
      { path: "(body)", message: "must have at most 50,000 rows" },
    ]);
    expect(await count("trade")).toBe(0);
  });

  it.each([
    [
      "market prices",
      "/v1/market-prices/bulk",
      "symbol,exchange,date,close",
      (i: number) => `S${i % 100},ASX,${day(Math.floor(i / 100))},1`,
      50_000,
    ],
    ["exchange rates", "/v1/fx-rates/bulk", "base,quote,date,rate", (i: number) => `USD,AUD,${day(i)},1.5`, 50_000],
  ])("%s: one row over the limit answers 413 naming it, writing nothing", async (_label, path, header, row, max) => {
    const before = await ledgerSnapshot(t.db);
    const res = await postCsv(path, header + "\n" + lines(max + 1, row) + UNREADABLE);
    expect(expectRejected(res, 413, "PAYLOAD_TOO_LARGE")).toEqual([
      { path: "(body)", message: `must have at most ${max.toLocaleString("en-US")} rows` },
    ]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("custom prices: 10,001 rows answer 413 naming 10,000, as CSV and as JSON", async () => {
    const p = await newPortfolio(t, key);
    const h = await newCustomHolding(t, key, p);
    const csv = await postCsv(
      `/v1/holdings/${h}/prices/bulk`,
      "date,price\n" + lines(10_001, (i) => `${day(i)},1`) + UNREADABLE,
    );
    expect(expectRejected(csv, 413, "PAYLOAD_TOO_LARGE")).toEqual([
      { path: "(body)", message: "must have at most 10,000 rows" },
    ]);
    const json = await t.http
      .post(`/v1/holdings/${h}/prices/bulk`)
      .set("authorization", key)
      .send(Array.from({ length: 10_001 }, (_, i) => ({ date: day(i), price: 1 })));
    expect(expectRejected(json, 413, "PAYLOAD_TOO_LARGE")).toEqual([
      { path: "(body)", message: "must have at most 10,000 rows" },
    ]);
    expect(json.body.detail).toMatch(/10,001/);
    expect(await count("custom_price")).toBe(0);
  });

  it("a record of more cells or bytes than any real row is refused by its line before it is built", async () => {
    const header = "symbol,exchange,date,close\nCBA,ASX,2024-01-02,1\n";
    // Quoted commas and line breaks are a cell's text, not cells: only the last line is too wide.
    const commas = await postCsv(
      "/v1/market-prices/bulk",
      header + `CBA,ASX,2024-01-03,"${",".repeat(5000)}\n"\n` + ",".repeat(1_000_000) + "\n",
    );
    expect(expectRejected(commas, 400, "VALIDATION_FAILED")).toEqual([
      { path: "line 5", message: "has more than 1,000 cells" },
    ]);
    const long = await postCsv("/v1/market-prices/bulk", header + `CBA,ASX,2024-01-03,"${"9".repeat(100_000)}"\n`);
    expect(expectRejected(long, 400, "VALIDATION_FAILED")).toEqual([
      { path: "line 3", message: expect.stringMatching(/max.*record size/i) },
    ]);
  });
});

describe("JSON bulk arrays are counted before any row is validated", () => {
  it("an array of 1,000,000 numbers answers 413 naming the limit and the count, on every bulk endpoint", async () => {
    const p = await newPortfolio(t, key);
    const body = "[" + Array(1_000_000).fill("1").join(",") + "]";
    for (const path of [
      "/v1/market-prices/bulk",
      "/v1/fx-rates/bulk",
      `/v1/portfolios/${p}/trades/import?dryRun=true`,
    ]) {
      const res = await t.http.post(path).set("authorization", key).set("content-type", "application/json").send(body);
      expect(expectRejected(res, 413, "PAYLOAD_TOO_LARGE")).toEqual([
        { path: "(body)", message: "must have at most 50,000 rows" },
      ]);
      expect(res.body.detail).toMatch(/1,000,000/);
    }
    expect(await count("market_price")).toBe(0);
  });

  it("a trade import of 50,001 JSON rows answers 413, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    const rows = Array.from({ length: 50_001 }, (_, i) => ({
      tradeType: "Buy",
      tradeDate: day(i % 5000),
      symbol: "CBA",
      exchange: "ASX",
      quantity: 1,
      price: 1,
    }));
    const res = await importTradesJson(t, key, p, rows);
    expect(expectRejected(res, 413, "PAYLOAD_TOO_LARGE")).toEqual([
      { path: "(body)", message: "must have at most 50,000 rows" },
    ]);
    expect(await count("trade")).toBe(0);
  });
});

describe("error lists hold the first 100 errors and the total", () => {
  it("50,000 bad import rows answer 100 errors, errorCount the total, and a small body", async () => {
    const p = await newPortfolio(t, key);
    // Three errors a row: no such date, no such type, zero units.
    const csv = TRADE_CSV_HEADER + "\n" + lines(50_000, () => "2024-02-30,Purchase,CBA,ASX,0,30,,,,,");
    const res = await importTradesCsv(t, key, p, csv, "?dryRun=true");
    const errors = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(errors).toHaveLength(100);
    expect(errors[0]).toEqual({ path: expect.stringMatching(/^line 2\./), message: expect.any(String), line: 2 });
    // Each row is a bad date and a bad type at least; the detail and errorCount agree on the total.
    const [, total] = /: (\d+) problems in 50000 rows \(the first 100 are listed\)/.exec(res.body.detail) ?? [];
    expect(Number(total)).toBeGreaterThanOrEqual(100_000);
    expect(res.body.errorCount).toBe(Number(total));
    expect(res.text.length).toBeLessThan(50_000);
    expect(await count("trade")).toBe(0);
  });

  it("bad price rows: the first 100 and errorCount; up to 100 errors, no errorCount", async () => {
    const bad = (n: number) =>
      postCsv("/v1/market-prices/bulk", "symbol,exchange,date,close\n" + lines(n, (i) => `CBA,ASX,${day(i)},x`));
    const many = await bad(250);
    expect(expectRejected(many, 400, "VALIDATION_FAILED")).toHaveLength(100);
    expect(many.body.errorCount).toBe(250);
    const few = await bad(100);
    expect(expectRejected(few, 400, "VALIDATION_FAILED")).toHaveLength(100);
    expect(few.body).not.toHaveProperty("errorCount");
  });

  it("rows wider than the header: the first 100 lines and the total", async () => {
    const p = await newPortfolio(t, key);
    const res = await importTradesCsv(
      t,
      key,
      p,
      TRADE_CSV_HEADER + "\n" + lines(300, (i) => `${day(i)},Buy,CBA,ASX,1,1,,,,,a,b`),
    );
    const errors = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(errors.map((e) => e.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(res.body.errorCount).toBe(300);
  });

  it("GraphQL lists the same first 100 with extensions.errorCount", async () => {
    const p = await newPortfolio(t, key);
    const csv = TRADE_CSV_HEADER + "\n" + lines(120, (i) => `${day(i)},Purchase,CBA,ASX,1,1,,,,,`);
    const res = await t.gql(
      key,
      "mutation ($p: ID!, $csv: String!) { importTrades(portfolioId: $p, input: { csv: $csv, dryRun: true }) { valid } }",
      { p: String(p), csv },
    );
    const [error] = res.body.errors;
    expect(error.extensions).toMatchObject({ code: "VALIDATION_FAILED", errorCount: 120 });
    expect(error.extensions.errors).toHaveLength(100);
  });
});
