import { ledgerSnapshot, useTestApp } from "../support/app";
import { type FieldError } from "../support/outcomes";
import { type CustomPrice, auth, pricesApi } from "./prices.transports";

/**
 * text/csv bodies (REST): market prices, exchange rates and custom prices from CSV.
 * (Split from prices.test.ts by story; the transports and setup functions are in ./prices.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, newPortfolio, newHolding } = pricesApi(t);

describe("text/csv bodies (REST)", () => {
  const csv = (path: string, body: string, k = key) =>
    t.http.post(path).set(auth(k)).set("content-type", "text/csv").send(body);

  it("imports market prices from CSV: header in any case and order, blank lines and CRLF allowed", async () => {
    const res = await csv(
      "/v1/market-prices/bulk",
      "Date,Symbol,Exchange,Close\r\n2024-01-02,cba,asx,100\r\n\r\n2024-01-03, CBA , ASX ,101.25\r\n2024-01-02,BHP,ASX,45\r\n",
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      upserted: 3,
      unheld: 2,
      unheldSecurities: [
        { symbol: "BHP", exchange: "ASX" },
        { symbol: "CBA", exchange: "ASX" },
      ],
    });
    const list = await t.http.get("/v1/market-prices?symbol=CBA&exchange=ASX").set(auth(key));
    expect(list.body).toEqual([
      { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100, source: "Account" },
      { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 101.25, source: "Account" },
    ]);
  });

  it("names bad rows by line, the header being line 1 and blank lines counted, writing none", async () => {
    const before = await ledgerSnapshot(t.db);
    const res = await csv(
      "/v1/market-prices/bulk",
      "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\n\nCBA,ASX,2024-01-03,abc\nCBA,ASX,2024-02-30,-1\n",
    );
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors.map((e: FieldError) => e.path)).toEqual(["line 4.close", "line 5.date", "line 5.close"]);
    expect(res.body.detail).toBe("The market prices are invalid: 3 fields are invalid.");
    const repeated = await csv(
      "/v1/market-prices/bulk",
      "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\nCBA,ASX,2024-01-02,101\n",
    );
    expect(repeated.body.errors).toEqual([
      { path: "line 3.date", message: expect.stringContaining("line 2"), line: 3 },
    ]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it.each([
    ["a wrong header", "symbol,exchange,day,close\nCBA,ASX,2024-01-02,100\n", "line 1"],
    ["a missing column", "symbol,exchange,date\nCBA,ASX,2024-01-02\n", "line 1"],
    ["a repeated column", "symbol,exchange,date,close,close\nCBA,ASX,2024-01-02,1,2\n", "line 1"],
    ["an empty body", "", "line 1"],
    ["a short row", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\nCBA,ASX,2024-01-03\n", "line 3"],
    ["an unclosed quote", 'symbol,exchange,date,close\nCBA,"ASX,2024-01-02,100\n', "line 2"],
    ["only a header", "symbol,exchange,date,close\n", "(body)"],
  ])("refuses %s with 400, writing nothing", async (_label, body, path) => {
    const before = await ledgerSnapshot(t.db);
    const res = await csv("/v1/market-prices/bulk", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("imports exchange rates from CSV and names bad rows by line", async () => {
    const res = await csv(
      "/v1/fx-rates/bulk",
      "base,quote,date,rate\nUSD,AUD,2024-01-02,1.5\nAUD,USD,2024-01-02,0.6666666667\n",
    );
    expect(res.body).toEqual({ upserted: 2 });
    const list = await t.http.get("/v1/fx-rates?base=USD&quote=AUD").set(auth(key));
    expect(list.body).toEqual([{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5, source: "Account" }]);
    const before = await ledgerSnapshot(t.db);
    const bad = await csv(
      "/v1/fx-rates/bulk",
      "base,quote,date,rate\nUSD,AUD,2024-01-03,1.5\nUSD,USD,2024-01-03,1\nEUR,AUD,2024-01-03,0\n",
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: FieldError) => e.path)).toEqual(["line 3.quote", "line 4.rate"]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("adds custom prices from CSV (header date,price)", async () => {
    const { holdingId } = await newHolding(key);
    const res = await csv(`/v1/holdings/${holdingId}/prices/bulk`, "date,price\n2024-02-29,2\n2024-01-31,1\n");
    expect(res.status).toBe(201);
    expect(res.body.map((p: CustomPrice) => [p.date, p.price])).toEqual([
      ["2024-01-31", 1],
      ["2024-02-29", 2],
    ]);
    const bad = await csv(`/v1/holdings/${holdingId}/prices/bulk`, "date,price\n2024-03-31,x\n");
    expect(bad.body.errors).toEqual([{ path: "line 2.price", message: expect.any(String), line: 2 }]);
  });

  it("refuses a client key before reading the body", async () => {
    const portfolioId = await newPortfolio(key);
    const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);
    const res = await csv("/v1/market-prices/bulk", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\n", writer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect(await count("market_price")).toBe(0);
  });

  it("writes set-based: 2,000 rows cost the same statements as 1", async () => {
    const rows = (n: number, close: number) =>
      "symbol,exchange,date,close\n" +
      Array.from(
        { length: n },
        (_, i) =>
          `S${i % 50},ASX,${new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 50))).toISOString().slice(0, 10)},${close}`,
      ).join("\n");
    const statements = async (body: string) => {
      const before = t.db.statementCount;
      const res = await csv("/v1/market-prices/bulk", body);
      expect(res.status).toBe(200);
      return t.db.statementCount - before;
    };
    await statements(rows(1, 1)); // the key's lookup is cached from here on
    const one = await statements(rows(1, 1));
    const many = await statements(rows(2000, 2));
    expect(many).toBe(one);
    // Upserting them again replaces every row in the same one statement.
    expect(await statements(rows(2000, 3))).toBe(one);
    expect(await count("market_price")).toBe(2000);
    const [{ n }] = await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM market_price WHERE close = 3");
    expect(Number(n)).toBe(2000);
  });

  it("takes 50,000 rows at once, all or nothing, and refuses 50,001", async () => {
    const body = (n: number, last = "1") =>
      "symbol,exchange,date,close\n" +
      Array.from(
        { length: n },
        (_, i) =>
          `S${i % 100},ASX,${new Date(Date.UTC(2000, 0, 1 + Math.floor(i / 100))).toISOString().slice(0, 10)},${i === n - 1 ? last : "1.5"}`,
      ).join("\n");
    const bad = await csv("/v1/market-prices/bulk", body(50_000, "-1"));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "line 50001.close", message: expect.any(String), line: 50001 }]);
    expect(await count("market_price")).toBe(0);
    const tooMany = await csv("/v1/market-prices/bulk", body(50_001));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.errors).toEqual([{ path: "(body)", message: "must have at most 50,000 rows" }]);
    const res = await csv("/v1/market-prices/bulk", body(50_000));
    // S0…S99, held by no holding: all 100 counted, the first 20 (by symbol) listed.
    const unheld = Array.from({ length: 100 }, (_, i) => `S${i}`).sort();
    expect(res.body).toEqual({
      upserted: 50_000,
      unheld: 100,
      unheldSecurities: unheld.slice(0, 20).map((symbol) => ({ symbol, exchange: "ASX" })),
    });
    expect(await count("market_price")).toBe(50_000);
  });
});
