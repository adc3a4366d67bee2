import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";
import { chart, FakeMarket, rbaFile } from "../support/fake-market";

/**
 * The refresh end to end (docs/data.md §1–2): a fake network answers the Yahoo chart API and the
 * RBA file; POST /v1/market-data/refresh (202) runs the providers; what they answer is stored
 * once for the installation and values every account's holdings, the account's own prices
 * winning on a date both have. Failures are a state of the run and of each security.
 */
const market = new FakeMarket();
const t = useTestApp({
  marketData: {
    provider: "yahoo",
    fxProvider: "rba",
    url: "http://yahoo.test",
    fxUrl: "http://rba.test/f11.1-data.csv",
    http: market.http,
  },
});

let key: string;
let portfolioId: number;

const buy = (symbol: string, exchange: string, tradeDate: string, extra: Record<string, unknown> = {}) =>
  newTrade(t, key, { portfolioId, symbol, exchange, tradeType: "Buy", tradeDate, quantity: 100, price: 10, ...extra });

const refresh = async (k = key, body: object = {}) => {
  const res = await t.http.post("/v1/market-data/refresh").set("authorization", k).send(body);
  expect(res.status).toBe(202);
  await t.marketData.idle();
  return res.body as { runId: number };
};
const status = async (k = key) => (await t.http.get("/v1/market-data/status").set("authorization", k).expect(200)).body;
const holdings = async () =>
  (await t.http.get(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", key).expect(200)).body as {
    symbol: string;
    price: number;
    priceDate: string;
    priceSource: string;
  }[];

beforeEach(async () => {
  market.asked.length = 0;
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
  market
    .answer("/v8/finance/chart/VAS.AX", {
      status: 200,
      body: chart(
        "VAS.AX",
        "AUD",
        [
          ["2024-06-27", 96.52],
          ["2024-06-28", 97.1],
          ["2024-07-01", 95.95],
        ],
        { dividends: [["2024-07-01", 0.9]] },
        "ETF",
      ),
    })
    .answer("/f11.1-data.csv", {
      status: 200,
      body: rbaFile([
        ["2024-06-27", 0.6651, 0.6212],
        ["2024-06-28", 0.6672, null],
      ]),
    });
});

describe("a refresh fetches, stores and values", () => {
  it("stores the provider's closes, values holdings with them and reports the run", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const { runId } = await refresh();
    const s = await status();
    // 3 closes and 1 dividend of VAS; no rate: an AUD portfolio of AUD holdings needs no pair.
    expect(s).toMatchObject({
      provider: "yahoo",
      fxProvider: "rba",
      schedule: "off",
      lastRun: {
        runId,
        trigger: "request",
        status: "Succeeded",
        counts: { securities: 1, prices: 3, dividends: 1, splits: 0, fxRates: 0 },
        message: null,
      },
      securities: [
        { symbol: "VAS", exchange: "ASX", providerSymbol: "VAS.AX", lastPriceDate: "2024-07-01", lastError: null },
      ],
    });
    expect(market.paths()).toEqual(["/v8/finance/chart/VAS.AX"]);
    // The latest close, 95.95 on 2024-07-01, values the holding (its own trade price was 10).
    expect((await holdings())[0]).toMatchObject({ price: 95.95, priceDate: "2024-07-01", priceSource: "Market" });
  });

  it("a second run rewrites nothing unchanged and asks from 7 days before the last close", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    await refresh();
    await refresh();
    const s = await status();
    expect(s.lastRun.counts).toMatchObject({ securities: 1, prices: 0, dividends: 0, splits: 0, fxRates: 0 });
    // period1 of the second request: 2024-07-01 − 7 days = 2024-06-24, less Yahoo's day of slack.
    const second = new URL(market.asked[1]);
    expect(Number(second.searchParams.get("period1"))).toBeLessThanOrEqual(Date.parse("2024-06-24T00:00:00Z") / 1000);
    expect(Number(second.searchParams.get("period1"))).toBeGreaterThan(Date.parse("2024-06-20T00:00:00Z") / 1000);
  });

  it("the account's own close wins on a date both have; the provider's fills the other days", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    await t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .send([{ symbol: "VAS", exchange: "ASX", date: "2024-07-01", close: 90 }])
      .expect(200);
    await refresh();
    expect((await holdings())[0]).toMatchObject({ price: 90, priceDate: "2024-07-01" });
    const at = async (date: string) =>
      (await t.http.get(`/v1/portfolios/${portfolioId}/holdings?date=${date}`).set("authorization", key).expect(200))
        .body[0];
    expect(await at("2024-06-28")).toMatchObject({ price: 97.1, priceDate: "2024-06-28", priceSource: "Market" });
    // The lists show whose each close is: the account's (default), the provider's, or the rule's series.
    const list = async (source?: string) =>
      (
        await t.http
          .get("/v1/market-prices")
          .query({ symbol: "VAS", exchange: "ASX", ...(source ? { source } : {}) })
          .set("authorization", key)
          .expect(200)
      ).body.map((r: { date: string; close: number; source: string }) => [r.date, r.close, r.source]);
    expect(await list()).toEqual([["2024-07-01", 90, "Account"]]);
    expect(await list("provider")).toEqual([
      ["2024-06-27", 96.52, "Provider"],
      ["2024-06-28", 97.1, "Provider"],
      ["2024-07-01", 95.95, "Provider"],
    ]);
    expect(await list("All")).toEqual([
      ["2024-06-27", 96.52, "Provider"],
      ["2024-06-28", 97.1, "Provider"],
      ["2024-07-01", 90, "Account"],
    ]);
    const gql = await t.gql(key, '{ marketPrices(symbol: "VAS", exchange: "ASX", source: All) { date close source } }');
    expect(gql.body.data.marketPrices.map((r: { source: string }) => r.source)).toEqual([
      "Provider",
      "Provider",
      "Account",
    ]);
  });

  it("a series computed before a refresh is not served after it (the cache sees provider writes)", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const series = async () =>
      (
        await t.http
          .get(`/v1/portfolios/${portfolioId}/timeseries?from=2024-06-25&to=2024-07-01&interval=day`)
          .set("authorization", key)
          .expect(200)
      ).body as { date: string; marketValue: number | string }[];
    const before = await series();
    // 100 units at the trade price 10 until a market price exists: 1,000 on 2024-07-01.
    expect(Number(before.at(-1)!.marketValue)).toBe(1000);
    await refresh();
    // The provider's close of 2024-07-01, 95.95 × 100 = 9,595, from the same cache.
    expect(Number((await series()).at(-1)!.marketValue)).toBe(9595);
  });

  it("fetches the rates an AUD portfolio of a USD security needs from the RBA file", async () => {
    market.answer("/v8/finance/chart/AAPL", {
      status: 200,
      body: chart("AAPL", "USD", [["2024-06-28", 210.62]]),
    });
    await buy("AAPL", "NASDAQ", "2024-06-26", { currencyCode: "USD", exchangeRate: 0.66 });
    await refresh();
    const s = await status();
    // AUD/USD 0.6651 (06-27) and 0.6672 (06-28); the EUR column is not asked for, the TWI never.
    expect(s.lastRun).toMatchObject({ status: "Succeeded", counts: { securities: 1, prices: 1, fxRates: 2 } });
    const rates = await t.db.sql<{ quote: string; rate: string }>(
      "SELECT quote::text, rate::text FROM provider_fx_rate ORDER BY date",
    );
    expect(rates.map((r) => [r.quote, Number(r.rate)])).toEqual([
      ["USD", 0.6651],
      ["USD", 0.6672],
    ]);
    // The pair's state, to the account that draws on it; an AUD-only account sees no pair.
    expect(s.exchangeRates).toEqual([
      { base: "AUD", quote: "USD", lastRateDate: "2024-06-28", lastAttemptAt: expect.any(String), lastError: null },
    ]);
    const audOnly = await t.newAccount();
    await newPortfolio(t, audOnly);
    expect((await status(audOnly)).exchangeRates).toEqual([]);
    // A client key of the same account sees the pairs of its own portfolios only (an AUD one: none).
    const client = (
      await t.http
        .post("/v1/clients")
        .set("authorization", key)
        .send({ firstName: "Ana", lastName: "Client" })
        .expect(201)
    ).body;
    const own = await newPortfolio(t, key, { name: "Client's" });
    await t.http
      .put(`/v1/clients/${client.id}/portfolios`)
      .set("authorization", key)
      .send({ portfolioIds: [own] })
      .expect(200);
    const clientKey = (await t.http.post(`/v1/clients/${client.id}/api-keys`).set("authorization", key).expect(201))
      .body.key as string;
    expect((await status(clientKey)).exchangeRates).toEqual([]);
    const aapl = async () =>
      (
        await t.http.get(`/v1/portfolios/${portfolioId}/holdings?date=2024-06-28`).set("authorization", key).expect(200)
      ).body.find((h: { symbol: string }) => h.symbol === "AAPL");
    // The provider's AUD/USD of 06-28, 0.6672, inverted: 1 / 0.6672 AUD a dollar.
    expect((await aapl()).exchangeRate).toBeCloseTo(1 / 0.6672, 8);
    // The account's own rate on the same date wins: 1 / 0.5 = 2.
    await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "AUD", quote: "USD", date: "2024-06-28", rate: 0.5 }])
      .expect(200);
    expect((await aapl()).exchangeRate).toBe(2);
    // As stored, AUD-based; All: the account's 0.5 wins on 06-28.
    const listed = (
      await t.http.get("/v1/fx-rates?base=AUD&quote=USD&source=All").set("authorization", key).expect(200)
    ).body.map((r: { date: string; rate: number; source: string }) => [r.date, r.rate, r.source]);
    expect(listed).toEqual([
      ["2024-06-27", 0.6651, "Provider"],
      ["2024-06-28", 0.5, "Account"],
    ]);
  });

  it("a new installation with no trades makes no provider request", async () => {
    await refresh();
    expect(market.asked).toEqual([]);
    expect((await status()).lastRun).toMatchObject({ status: "Succeeded", counts: { securities: 0 } });
  });
});

describe("failure is a state", () => {
  it("a 429 then success is retried; a 404 is that security's error and the run is Partial", async () => {
    market.answer(
      "/v8/finance/chart/CBA.AX",
      { status: 429, body: "Too Many Requests" },
      { status: 200, body: chart("CBA.AX", "AUD", [["2024-06-28", 120]]) },
    );
    await buy("VAS", "ASX", "2024-06-25");
    await buy("CBA", "ASX", "2024-06-25");
    await buy("NOPE", "ASX", "2024-06-25");
    await refresh();
    const s = await status();
    expect(s.lastRun).toMatchObject({ status: "Partial", counts: { securities: 2 } });
    expect(s.lastRun.message).toMatch(/NOPE \(ASX\)/);
    const nope = s.securities.find((x: { symbol: string }) => x.symbol === "NOPE");
    expect(nope).toMatchObject({ providerSymbol: "NOPE.AX", lastPriceDate: null });
    expect(nope.lastError).toMatch(/404|not found/i);
    expect(s.securities.find((x: { symbol: string }) => x.symbol === "CBA").lastError).toBeNull();
  });

  it("no network at all: the run Fails, says why, and the API answers as before", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    market.answer(
      "/v8/finance/chart/VAS.AX",
      Object.assign(new Error("getaddrinfo ENOTFOUND yahoo.test"), { code: "ENOTFOUND" }),
    );
    market.answer("/f11.1-data.csv", new Error("getaddrinfo ENOTFOUND rba.test"));
    await refresh();
    const s = await status();
    expect(s.lastRun.status).toBe("Failed");
    expect(s.securities[0].lastError).toMatch(/yahoo/);
    // Valued as before: the last trade price.
    expect((await holdings())[0]).toMatchObject({ price: 10, priceSource: "LastTrade" });
    await t.http.get("/health").expect(200);
  });

  it("a provider's prices in another currency than the holding's are not stored", async () => {
    market.answer("/v8/finance/chart/VAS.AX", { status: 200, body: chart("VAS.AX", "USD", [["2024-06-28", 1]]) });
    await buy("VAS", "ASX", "2024-06-25");
    await refresh();
    const s = await status();
    expect(s.lastRun.status).toBe("Failed");
    expect(s.securities[0].lastError).toMatch(/USD.*AUD/);
    expect(await t.db.sql("SELECT * FROM provider_price")).toEqual([]);
  });
});

/** Another account, holding CBA.ASX; answers its key. */
async function anotherAccountHoldingCba(): Promise<string> {
  const other = await t.newAccount();
  const theirs = await newPortfolio(t, other);
  const trade = { symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-06-25", quantity: 1, price: 100 };
  await newTrade(t, other, { portfolioId: theirs, ...trade });
  return other;
}

describe("who may refresh, and what they see", () => {
  it("a Read client key reads the status but may not refresh (403, nothing started)", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const reader = await t.newClientKey(key, "Read", [portfolioId]);
    const res = await t.http.post("/v1/market-data/refresh").set("authorization", reader).send({});
    expect(res.status).toBe(403);
    const gql = await t.gql(reader, "mutation { refreshMarketData { runId } }");
    expect(gql.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(await t.db.sql("SELECT * FROM market_data_run")).toEqual([]);
    expect((await status(reader)).securities.map((s: { symbol: string }) => s.symbol)).toEqual(["VAS"]);
  });

  it("the status lists the caller's securities only", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const other = await anotherAccountHoldingCba();
    expect((await status(other)).securities.map((s: { symbol: string }) => s.symbol)).toEqual(["CBA"]);
    expect((await status()).securities.map((s: { symbol: string }) => s.symbol)).toEqual(["VAS"]);
  });

  it("naming a security the account does not hold is a 400 naming it; nothing starts", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const res = await t.http
      .post("/v1/market-data/refresh")
      .set("authorization", key)
      .send({
        securities: [
          { symbol: "VAS", exchange: "ASX" },
          { symbol: "CBA", exchange: "ASX" },
        ],
      });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "securities[1]" })]);
    const bad = await t.http
      .post("/v1/market-data/refresh")
      .set("authorization", key)
      .send({ securities: [], extra: 1 });
    expect(bad.status).toBe(400);
    expect(await t.db.sql("SELECT * FROM market_data_run")).toEqual([]);
    expect(market.asked).toEqual([]);
  });

  it("a security only another account holds is not this account's: 400, nothing starts", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    await anotherAccountHoldingCba();
    const res = await t.http
      .post("/v1/market-data/refresh")
      .set("authorization", key)
      .send({ securities: [{ symbol: "CBA", exchange: "ASX" }] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "securities[0]" })]);
    // The same symbol on another exchange is another security.
    const elsewhere = await t.http
      .post("/v1/market-data/refresh")
      .set("authorization", key)
      .send({ securities: [{ symbol: "VAS", exchange: "NYSE" }] });
    expect(elsewhere.body.errors).toEqual([expect.objectContaining({ path: "securities[0]" })]);
    expect(await t.db.sql("SELECT * FROM market_data_run")).toEqual([]);
    expect(market.asked).toEqual([]);
  });

  it("GraphQL: refreshMarketData and marketDataStatus answer what REST does", async () => {
    await buy("VAS", "ASX", "2024-06-25");
    const started = await t.gql(
      key,
      'mutation { refreshMarketData(input: {securities: [{symbol: "VAS", exchange: "ASX"}]}) { runId } }',
    );
    expect(started.body.errors).toBeUndefined();
    await t.marketData.idle();
    const q = await t.gql(
      key,
      "{ marketDataStatus { provider fxProvider schedule lastRun { runId status counts { securities prices dividends } } securities { symbol providerSymbol lastPriceDate lastError } } }",
    );
    expect(q.body.data.marketDataStatus).toEqual({
      provider: "yahoo",
      fxProvider: "rba",
      schedule: "off",
      lastRun: {
        runId: String(started.body.data.refreshMarketData.runId),
        status: "Succeeded",
        counts: { securities: 1, prices: 3, dividends: 1 },
      },
      securities: [{ symbol: "VAS", providerSymbol: "VAS.AX", lastPriceDate: "2024-07-01", lastError: null }],
    });
    const rest = await status();
    expect(rest.lastRun.runId).toBe(Number(started.body.data.refreshMarketData.runId));
  });
});
