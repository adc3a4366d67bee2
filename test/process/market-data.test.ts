import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chart } from "../support/fake-market";
import { migratedDataDir } from "../support/migrated-data-dir";
import { startServer, type Proc } from "./spawn";

/**
 * The service as a process with market data on (docs/data.md §1): its providers at a local fake
 * Yahoo, its schedule on. A first start with no trades makes no provider request; a refresh on
 * request fetches only the one chart path of the security it holds; with the provider's host
 * unreachable the service answers as ever and the status says why.
 */
const KEY = "process-market-data-key-0123456789";
const dataDirs = [migratedDataDir("pf-market-a-"), migratedDataDir("pf-market-b-")];
const paths: string[] = [];
let fake: http.Server;
let fakeUrl: string;
const running: Proc[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    res.setHeader("connection", "close");
    if (req.url?.startsWith("/v8/finance/chart/VAS.AX?"))
      return void res.end(chart("VAS.AX", "AUD", [["2024-07-01", 95.95]], {}, "ETF"));
    res.statusCode = 404;
    res.end('{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}');
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const p of running) p.child.kill("SIGKILL");
  await new Promise((resolve) => fake.close(resolve));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (base: string, method: string, p: string, body?: unknown) => {
  const res = await fetch(base + p, {
    method,
    headers: { authorization: KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};

const settled = async (base: string) => {
  for (let i = 0; i < 200; i++) {
    const s = (await call(base, "GET", "/v1/market-data/status")).body;
    if (s.lastRun && s.lastRun.status !== "Running") return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the refresh did not end");
};

it("starts with the schedule on, fetches what it holds on request, and nothing else", async () => {
  const server = await startServer({
    DATA_DIR: dataDirs[0],
    BOOTSTRAP_API_KEY: KEY,
    MARKET_DATA_PROVIDER: "yahoo",
    MARKET_DATA_URL: fakeUrl,
    MARKET_DATA_SCHEDULE: "0 19 * * 1-5",
  });
  running.push(server);
  // First start: no good run yet, so one runs at start; no trades, so no request.
  const first = await settled(server.base);
  expect(first).toMatchObject({
    provider: "yahoo",
    schedule: "0 19 * * 1-5",
    lastRun: { trigger: "start", status: "Succeeded" },
  });
  expect(paths).toEqual([]);
  const portfolio = await call(server.base, "POST", "/v1/portfolios", { name: "P" });
  await call(server.base, "POST", "/v1/trades", {
    portfolioId: portfolio.body.id,
    symbol: "VAS",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-06-25",
    quantity: 10,
    price: 90,
  });
  expect((await call(server.base, "POST", "/v1/market-data/refresh", {})).status).toBe(202);
  const after = await settled(server.base);
  expect(after.lastRun).toMatchObject({
    trigger: "request",
    status: "Succeeded",
    counts: { securities: 1, prices: 1 },
  });
  expect(paths.map((p) => p.split("?")[0])).toEqual(["/v8/finance/chart/VAS.AX"]);
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});

/**
 * The unreachable provider's service, holding VAS and asked to refresh: the refresh then waits out
 * its retries (seconds, the production backoff), so it is started before the first test and
 * waited for in the second.
 */
async function unreachableRefresh() {
  const server = await startServer({
    DATA_DIR: dataDirs[1],
    BOOTSTRAP_API_KEY: KEY,
    MARKET_DATA_PROVIDER: "yahoo",
    MARKET_DATA_URL: "http://127.0.0.1:9", // the discard port: nothing listens
    MARKET_DATA_SCHEDULE: "off",
  });
  running.push(server);
  const portfolio = await call(server.base, "POST", "/v1/portfolios", { name: "P" });
  await call(server.base, "POST", "/v1/trades", {
    portfolioId: portfolio.body.id,
    symbol: "VAS",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-06-25",
    quantity: 10,
    price: 90,
  });
  const refresh = await call(server.base, "POST", "/v1/market-data/refresh", {});
  return { server, portfolioId: portfolio.body.id as number, refreshStatus: refresh.status };
}
let unreachable: ReturnType<typeof unreachableRefresh>;
beforeAll(() => {
  unreachable = unreachableRefresh();
  unreachable.catch(() => undefined); // reported by the test that awaits it
});

it("with the provider unreachable, answers as ever and says why", async () => {
  const { server, portfolioId, refreshStatus } = await unreachable;
  expect(refreshStatus).toBe(202);
  const s = await settled(server.base);
  expect(s.lastRun.status).toBe("Failed");
  expect(s.securities[0].lastError).toMatch(/could not be reached|unavailable|paused/);
  expect((await fetch(`${server.base}/health`)).status).toBe(200);
  expect((await call(server.base, "GET", `/v1/portfolios/${portfolioId}/holdings`)).body[0]).toMatchObject({
    priceSource: "LastTrade",
  });
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});
