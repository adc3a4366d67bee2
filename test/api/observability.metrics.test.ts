import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { labelsOf, observedApp, parseMetrics, valueOf, type ObservedApp } from "./observability.support";

/**
 * GET /metrics with METRICS_TOKEN set: refused without the token (401 problem+json), Prometheus
 * text with it, parsed here by a parser of its own. The families the operations page names are
 * there; routes are templates and no label holds an id, a key or an account name, though the
 * requests carried all three; the series cache, the refusals of the rate limit and the market-data
 * runs are counted.
 */
const t = useTestApp({ reset: "none" });
const TOKEN = "metrics-token-0123456789abcdef";
const ACCOUNT_NAME = "Observed Holdings Pty Ltd";
let observed: ObservedApp;
let limited: ObservedApp;
let key: string;
let portfolioId: number;
let holdingId: number;

beforeAll(async () => {
  observed = await observedApp(t, { observability: { metricsToken: TOKEN } });
  limited = await observedApp(t, { observability: { metricsToken: TOKEN }, rateLimit: { perSecond: 0.001, burst: 2 } });
  key = await t.newAccount(ACCOUNT_NAME);
  portfolioId = await newPortfolio(t, key, { name: "Watched" });
  ({ holdingId } = await newTrade(t, key, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 100,
    price: 10,
  }));
});
afterAll(async () => {
  await observed.app.stop();
  await limited.app.stop();
});

const scrape = (app: ObservedApp) => app.http.get("/metrics").set("authorization", `Bearer ${TOKEN}`);

it("refuses a scrape without the token, or with another, as problem+json", async () => {
  for (const authorization of [undefined, "Bearer not-the-metrics-token", TOKEN, `Basic ${TOKEN}`, key]) {
    const req = observed.http.get("/metrics");
    const res = await (authorization ? req.set("authorization", authorization) : req);
    expect(res.status).toBe(401);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("UNAUTHENTICATED");
    expect(res.text).not.toContain(TOKEN);
  }
});

it("serves the named families with template routes and no id, key or account name in a label", async () => {
  const period = { from: "2024-01-01", to: "2024-01-31" };
  for (const path of [
    `/v1/portfolios/${portfolioId}`,
    `/v1/portfolios/${portfolioId}/holdings`,
    `/api/v1/holdings/${holdingId}`,
  ])
    expect((await observed.http.get(path).set("authorization", key)).status).toBe(200);
  // The second is answered from the series cache.
  for (let i = 0; i < 2; i++) {
    const res = await observed.http
      .get(`/v1/portfolios/${portfolioId}/performance`)
      .query(period)
      .set("authorization", key);
    expect(res.status).toBe(200);
  }
  expect((await observed.http.get(`/v1/no-such-thing/${portfolioId}`).set("authorization", key)).status).toBe(404);
  expect((await observed.http.get(`/v1/portfolios/${portfolioId}`)).status).toBe(401);
  const gql = (body: object) => observed.http.post("/graphql").set("authorization", key).send(body);
  expect((await gql({ query: "query PortfolioNames { portfolios { id name } }" })).status).toBe(200);
  expect((await gql({ query: "{ portfolios { id } }" })).status).toBe(200);
  const longName = `Q${"x".repeat(80)}`;
  expect((await gql({ query: `query ${longName} { portfolios { id } }` })).status).toBe(200);
  expect((await gql({ query: "query Broken { portfolios { noSuchField } }" })).status).toBe(400);
  // Names a caller without a key sends, or that no document defines, never become labels.
  const keyless = { query: "query Introspect { __typename }", operationName: "Introspect" };
  expect((await observed.http.post("/graphql").send(keyless)).status).toBe(200);
  expect((await gql({ query: "{ portfolios { id } }", operationName: "NotInTheDocument" })).status).toBe(400);

  const res = await scrape(observed);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const metrics = await parseMetrics(res.text);

  for (const family of [
    "http_server_request_duration_seconds",
    "graphql_operation_duration_seconds",
    "db_pool_connections",
    "cache_requests_total",
    "rate_limit_rejections_total",
    "market_data_runs",
    "market_data_securities",
    "market_data_last_run_securities",
    "market_data_last_success_timestamp_seconds",
    "process_cpu_seconds_total",
    "nodejs_eventloop_lag_seconds",
    "nodejs_heap_size_used_bytes",
    "nodejs_gc_duration_seconds",
  ])
    expect(metrics[family]).toBeDefined();
  expect(metrics.http_server_request_duration_seconds.type).toBe("histogram");

  const http = labelsOf(metrics, "http_server_request_duration_seconds");
  expect(http).toEqual(
    expect.arrayContaining([
      { method: "GET", route: "/v1/portfolios/:portfolioId", status: "200" },
      { method: "GET", route: "/v1/portfolios/:portfolioId/holdings", status: "200" },
      { method: "GET", route: "/api/v1/holdings/:holdingId", status: "200" },
      { method: "GET", route: "/v1/portfolios/:portfolioId", status: "401" },
      { method: "GET", route: "unmatched", status: "404" },
      { method: "POST", route: "/graphql", status: "200" },
    ]),
  );
  for (const { route } of http) expect(route).not.toMatch(/\/\d+(\/|$)/);

  const operations = labelsOf(metrics, "graphql_operation_duration_seconds");
  expect(operations).toEqual(
    expect.arrayContaining([
      { operation_name: "PortfolioNames", operation_type: "query", outcome: "success" },
      { operation_name: "anonymous", operation_type: "query", outcome: "success" },
      { operation_name: "invalid", operation_type: "query", outcome: "success" },
      { operation_name: "Broken", operation_type: "query", outcome: "error" },
      { operation_name: "other", operation_type: "query", outcome: "success" },
    ]),
  );
  for (const { operation_name } of operations) expect(["Introspect", "NotInTheDocument"]).not.toContain(operation_name);

  // No label anywhere holds what the requests carried; no label of the service's own families an id.
  const account = await t.db.prisma.account.findFirstOrThrow({ where: { name: ACCOUNT_NAME } });
  const secrets = [key, key.slice(4, 20), ACCOUNT_NAME, "Watched", longName];
  const ids = [portfolioId, holdingId, account.id].map(String);
  for (const family of Object.keys(metrics))
    for (const labels of labelsOf(metrics, family))
      for (const [name, value] of Object.entries(labels)) {
        for (const secret of secrets) expect(value).not.toContain(secret);
        if (!/^(process|nodejs)_/.test(family) && name !== "le" && name !== "status") expect(ids).not.toContain(value);
      }

  expect(valueOf(metrics, "cache_requests_total", { cache: "series", result: "miss" })).toBeGreaterThanOrEqual(1);
  expect(valueOf(metrics, "cache_requests_total", { cache: "series", result: "hit" })).toBeGreaterThanOrEqual(1);
  // The key cache: the first request with the key looked it up, the ones after found it.
  expect(valueOf(metrics, "cache_requests_total", { cache: "keys", result: "miss" })).toBeGreaterThanOrEqual(1);
  expect(valueOf(metrics, "cache_requests_total", { cache: "keys", result: "hit" })).toBeGreaterThanOrEqual(5);
  const connections = ["in_use", "idle", "waiting"].map((state) => valueOf(metrics, "db_pool_connections", { state }));
  for (const n of connections) expect(n).toBeGreaterThanOrEqual(0);
  expect(connections[0]! + connections[1]!).toBeGreaterThanOrEqual(1);
});

it("counts the cache's lookups between scrapes, never twice", async () => {
  const before = await parseMetrics((await scrape(observed)).text);
  const hits = valueOf(before, "cache_requests_total", { cache: "series", result: "hit" })!;
  const query = { from: "2024-01-01", to: "2024-01-31" };
  await observed.http.get(`/v1/portfolios/${portfolioId}/performance`).query(query).set("authorization", key);
  const after = await parseMetrics((await scrape(observed)).text);
  expect(valueOf(after, "cache_requests_total", { cache: "series", result: "hit" })).toBe(hits + 1);
});

it("counts the requests the rate limit refuses, by transport", async () => {
  const other = await t.newAccount();
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await limited.http.get("/v1/portfolios").set("authorization", other)).status);
  const gql = await limited.http.post("/graphql").set("authorization", other).send({ query: "{ portfolios { id } }" });
  statuses.push(gql.status);
  expect(statuses).toEqual([200, 200, 429, 429]);
  const metrics = await parseMetrics((await scrape(limited)).text);
  expect(valueOf(metrics, "rate_limit_rejections_total", { transport: "rest" })).toBe(1);
  expect(valueOf(metrics, "rate_limit_rejections_total", { transport: "graphql" })).toBe(1);
});

it("reports the market-data runs the installation recorded", async () => {
  const finishedAt = new Date("2026-03-02T08:30:00Z");
  await t.db.prisma.marketDataRun.create({ data: { trigger: "request", status: "Failed", finishedAt } });
  await t.db.prisma.marketDataRun.create({
    data: { trigger: "schedule", status: "Partial", finishedAt, counts: { securities: 7 } },
  });
  await t.db.prisma.marketDataRun.create({ data: { trigger: "request", status: "Running" } });
  await t.db.prisma.marketDataSecurity.createMany({
    data: [
      { symbol: "AAA", exchange: "ASX", lastError: null },
      { symbol: "BBB", exchange: "ASX", lastError: "no such symbol" },
    ],
  });
  const metrics = await parseMetrics((await scrape(observed)).text);
  expect(valueOf(metrics, "market_data_runs", { status: "Partial" })).toBe(1);
  expect(valueOf(metrics, "market_data_runs", { status: "Failed" })).toBe(1);
  expect(valueOf(metrics, "market_data_runs", { status: "Running" })).toBe(1);
  expect(valueOf(metrics, "market_data_runs", { status: "Succeeded" })).toBe(0);
  expect(valueOf(metrics, "market_data_last_run_securities")).toBe(7);
  expect(valueOf(metrics, "market_data_last_success_timestamp_seconds")).toBe(finishedAt.getTime() / 1000);
  expect(valueOf(metrics, "market_data_securities", { state: "ok" })).toBe(1);
  expect(valueOf(metrics, "market_data_securities", { state: "failing" })).toBe(1);
});
