import pino from "pino";
import request from "supertest";
import { createApp, type App } from "../../src/app";
import type { Context } from "../../src/context";
import { SeriesCache } from "../../src/modules/ledger/valuation/series-cache";
import type { RangePortfolio } from "../../src/modules/ledger";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { hookedClient, LEDGER_PAGE_SQL, measured } from "../support/kit";
import { usdHolding } from "../scenarios/analytics";

/**
 * The computed series cache is never stale, across processes. Two app instances over one database
 * stand for two API processes: each keeps its own cache, so what one caches the other's writes must
 * invalidate. Instance A reads (and caches) a portfolio's performance; instance B writes a trade,
 * an income record, a cash transaction, a market price, an FX rate, a custom price; after each,
 * A's next read has the new figure. And a read that finds its series current computes nothing:
 * fewer statements than the first (the versions, the portfolio, its first date), on any range.
 *
 * The portfolio: buy 100 AAA.ASX @ 10 on 2024-01-02 (1,000 in); market price 12 on 2024-01-31.
 * Period 2024-01-01..2024-01-31: EMV 1,200, gain 200.
 */
const t = useTestApp();
let other: App;
let b: ReturnType<typeof request>;
let key: string;

beforeAll(async () => {
  other = await createApp({
    db: t.db,
    log: pino({ level: "silent" }),
    config: { rateLimitPerSecond: 0, rateLimitBurst: 50 },
  });
  b = request(other.app);
});
afterAll(async () => {
  await other.stop();
});
beforeEach(async () => {
  key = await t.newAccount();
});

const PERIOD = { from: "2024-01-01", to: "2024-01-31" };

async function gainThroughA(portfolioId: number, query: Record<string, string> = PERIOD): Promise<string> {
  const res = await t.http.get(`/v1/portfolios/${portfolioId}/performance`).query(query).set("authorization", key);
  expect(res.status).toBe(200);
  return String(res.body.totalReturn.totalReturnValue);
}

async function seeded() {
  const portfolioId = await newPortfolio(t, key, { name: "Cached" });
  const buy = await newTrade(t, key, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 100,
    price: 10,
  });
  const prices = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", key)
    .send([{ symbol: "AAA", exchange: "ASX", date: "2024-01-31", close: 12 }]);
  expect(prices.status).toBeLessThan(300);
  return { portfolioId, holdingId: buy.holdingId, tradeId: buy.id };
}

/** A write through instance B (another process). */
async function writeThroughB(method: "post" | "put" | "delete", path: string, body?: unknown) {
  const req = b[method](path).set("authorization", key);
  const res = body === undefined ? await req : await req.send(body as object);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

it("a read that finds its series current computes nothing, on the same range or another", async () => {
  const { portfolioId } = await seeded();
  const cold = await measured(t.db, () => gainThroughA(portfolioId));
  expect(cold.res).toBe("200");
  const warm = await measured(t.db, () => gainThroughA(portfolioId));
  expect(warm.res).toBe("200");
  // Warm: the portfolio, its first date and the versions (the API key's lookup is cached); cold: the
  // range load besides (trades, holdings, prices, custom prices, rates, cash accounts and
  // transactions, income).
  expect(warm.statements).toBe(3);
  expect(cold.statements).toBeGreaterThanOrEqual(warm.statements + 8);
  // Another range of the same portfolio slices the same series: 2024-01-02 alone, bought at 10
  // and valued at 10 (no market price yet): gain 0.
  const other = await measured(t.db, () => gainThroughA(portfolioId, { from: "2024-01-02", to: "2024-01-02" }));
  expect(other.res).toBe("0");
  expect(other.statements).toBe(warm.statements);
});

it("every kind of write through another instance is seen by the next read", async () => {
  const { portfolioId, holdingId, tradeId } = await seeded();
  expect(await gainThroughA(portfolioId)).toBe("200");

  // A market price: 13 on 2024-01-31 replaces 12: gain 100 × 3 = 300.
  await writeThroughB("post", "/v1/market-prices/bulk", [
    { symbol: "AAA", exchange: "ASX", date: "2024-01-31", close: 13 },
  ]);
  expect(await gainThroughA(portfolioId)).toBe("300");

  // A trade edited: 100 @ 11 instead of 10: 1,300 − 1,100 = 200.
  await writeThroughB("put", `/v1/trades/${tradeId}`, {
    portfolioId,
    holdingId,
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 100,
    price: 11,
  });
  expect(await gainThroughA(portfolioId)).toBe("200");

  // Income: 50 net, ex 2024-01-10, paid 2024-02-15 (after the period): receivable at the close, +50.
  await writeThroughB("post", "/v1/income", {
    holdingId,
    exDividendDate: "2024-01-10",
    paidDate: "2024-02-15",
    unfrankedAmount: 50,
  });
  expect(await gainThroughA(portfolioId)).toBe("250");

  // A cash account with interest of 5 (a return, not a flow): +5.
  const cash = await writeThroughB("post", "/v1/cash-accounts", { portfolioId, name: "Cash", currencyCode: "AUD" });
  await writeThroughB("post", "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "InterestPayment",
    date: "2024-01-20",
    amount: 5,
  });
  expect(await gainThroughA(portfolioId)).toBe("255");

  // The trade deleted: nothing held, the income receivable on nothing still counts (50 + 5).
  await writeThroughB("delete", `/v1/trades/${tradeId}`);
  expect(await gainThroughA(portfolioId)).toBe("55");
});

it("an FX rate and a custom price written through another instance are seen too", async () => {
  // 10 USX @ USD 100 at 1.5 on 2024-01-02 (AUD 1,500 in); no market price: the trade's price.
  const { portfolioId } = await usdHolding(t, key, "Foreign");
  expect(await gainThroughA(portfolioId)).toBe("0");
  // USD/AUD 1.6 on 2024-01-31: 10 × 100 × 1.6 = 1,600: gain 100.
  await writeThroughB("post", "/v1/fx-rates/bulk", [{ base: "USD", quote: "AUD", date: "2024-01-31", rate: 1.6 }]);
  expect(await gainThroughA(portfolioId)).toBe("100");

  // A custom investment priced by hand: bought 1 @ 1,000 on 2024-01-02, priced 1,200 on 2024-01-31 through B.
  const house = await postCreated<{ id: number }>(t, key, `/v1/portfolios/${portfolioId}/holdings`, {
    symbol: "HOUSE",
    name: "House",
  });
  await newTrade(t, key, {
    portfolioId,
    holdingId: house.id,
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 1,
    price: 1000,
  });
  expect(await gainThroughA(portfolioId)).toBe("100");
  await writeThroughB("post", `/v1/holdings/${house.id}/prices`, { date: "2024-01-31", price: 1200 });
  expect(await gainThroughA(portfolioId)).toBe("300");
});

it("a cash transaction moved to another portfolio's account is seen by both portfolios' next reads", async () => {
  // P1's account holds a deposit of 1,000 on 2024-01-02 (a flow in, no return); P2's account is empty.
  const p1 = await newPortfolio(t, key, { name: "One" });
  const p2 = await newPortfolio(t, key, { name: "Two" });
  const a1 = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId: p1,
    name: "Cash 1",
    currencyCode: "AUD",
  });
  const a2 = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId: p2,
    name: "Cash 2",
    currencyCode: "AUD",
  });
  const deposit = await postCreated<{ id: number }>(t, key, "/v1/cash-transactions", {
    cashAccountId: a1.id,
    type: "Deposit",
    date: "2024-01-02",
    amount: 1000,
  });
  const valueOf = async (p: number) => {
    const res = await t.http.get(`/v1/portfolios/${p}/performance`).query(PERIOD).set("authorization", key);
    expect(res.status).toBe(200);
    return [String(res.body.totalValue), String(res.body.netFlows)];
  };
  expect(await valueOf(p1)).toEqual(["1000", "1000"]);
  expect(await valueOf(p2)).toEqual(["0", "0"]);
  // Moved through the other instance: P1 loses it (its cached series must not answer), P2 gains it.
  await writeThroughB("put", `/v1/cash-transactions/${deposit.id}`, {
    cashAccountId: a2.id,
    type: "Deposit",
    date: "2024-01-02",
    amount: 1000,
  });
  expect(await valueOf(p1)).toEqual(["0", "0"]);
  expect(await valueOf(p2)).toEqual(["1000", "1000"]);
});

it("a write landing between the statements of a range load is not half read: the range is loaded again", async () => {
  const { portfolioId, tradeId } = await seeded();
  const portfolio = (await t.db.prisma.portfolio.findUniqueOrThrow({
    where: { id: portfolioId },
  })) as unknown as RangePortfolio;
  // One write, two rows: the buy becomes 200 units and the 2024-01-31 price 13. Before it, the
  // value on 2024-01-31 is 100 × 12 = 1,200; after it, 200 × 13 = 2,600. It is made once the
  // ledger statement has answered, and the market price statement waits for it: a series read
  // half before and half after would be worth 100 × 13 = 1,300.
  let ledgerLoads = 0;
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const db = hookedClient(t.db.prisma, {
    before: async (sql) => (sql.includes("market_price") ? written : undefined),
    after: async (sql) => {
      if (!sql.includes(LEDGER_PAGE_SQL) || ++ledgerLoads > 1) return;
      await t.db.prisma.$transaction([
        t.db.prisma.trade.update({ where: { id: tradeId }, data: { quantity: "200" } }),
        t.db.prisma.marketPrice.updateMany({
          where: { symbol: "AAA", exchange: "ASX", date: new Date("2024-01-31T00:00:00Z") },
          data: { close: "13" },
        }),
      ]);
      wrote();
    },
  });
  const cache = new SeriesCache();
  const { engine } = await cache.get({ db } as unknown as Context, portfolio, PERIOD.from, PERIOD.to);
  expect(engine.exactOn(PERIOD.to).totalInBaseCurrency.toString()).toBe("2600");
  expect(ledgerLoads).toBe(2);
  // Kept under the versions its second load found: the next read is a hit, nothing loaded.
  expect((await cache.get({ db } as unknown as Context, portfolio, PERIOD.from, PERIOD.to)).engine).toBe(engine);
  expect(ledgerLoads).toBe(2);
});
