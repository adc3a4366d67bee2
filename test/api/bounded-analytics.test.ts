import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { DEFAULT_ANALYTICS_LIMITS } from "../../src/config";
import { buildContext } from "../../src/context";
import { today } from "../../src/lib/dates";
import { requestSignal } from "../../src/http/request-context";
import { authenticateKey, createAccountKey } from "../../src/modules/accounts/accounts.service";
import { SeriesCache } from "../../src/modules/ledger/valuation/series-cache";
import { getPortfolioTimeseries } from "../../src/modules/analytics/timeseries.service";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { hookedClient, measured } from "../support/kit";

/**
 * Issue 20 row 2: analytics within limits. A series has at most ANALYTICS_MAX_POINTS points and a
 * daily valuation at most ANALYTICS_MAX_DAYS days (400 naming them, before any read, REST and
 * GraphQL alike); a computation stops when its client hangs up; a key may run only its share of
 * heavy computations at once (429 with Retry-After), the process only its slots (503).
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

async function portfolioWithTrade(k: string, tradeDate = "2020-01-02") {
  const portfolioId = await newPortfolio(t, k);
  const { holdingId } = await newTrade(t, k, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate,
    quantity: 100,
    price: 2,
  });
  return { portfolioId, holdingId };
}

const THREE_CENTURIES = { from: "1900-01-01", to: "2200-12-31" };

/** Each analytics operation over both transports: its REST path and query, its GraphQL field. */
const operations = (p: number, h: number) => [
  {
    name: "portfolio timeseries",
    series: true,
    rest: `/v1/portfolios/${p}/timeseries`,
    gql: `query($from: Date, $to: Date, $i: TimeseriesInterval) { x: portfolioTimeseries(portfolioId: "${p}", from: $from, to: $to, interval: $i) { date } }`,
  },
  {
    name: "holding timeseries",
    series: true,
    rest: `/v1/holdings/${h}/timeseries`,
    gql: `query($from: Date, $to: Date, $i: TimeseriesInterval) { x: holdingTimeseries(holdingId: "${h}", from: $from, to: $to, interval: $i) { date } }`,
  },
  {
    name: "benchmark",
    series: true,
    rest: `/v1/portfolios/${p}/benchmark?benchmarkPortfolioId=${p}`,
    gql: `query($from: Date, $to: Date, $i: TimeseriesInterval) { x: benchmark(portfolioId: "${p}", benchmarkPortfolioId: "${p}", from: $from, to: $to, interval: $i) { from } }`,
  },
  {
    name: "performance",
    series: false,
    rest: `/v1/portfolios/${p}/performance`,
    gql: `query($from: Date, $to: Date) { x: performance(portfolioId: "${p}", from: $from, to: $to) { from } }`,
  },
];

describe("analytics limits", () => {
  it("a daily series of three centuries: 400 naming ANALYTICS_MAX_POINTS and from, to, interval, after no more statements than a malformed query", async () => {
    const { portfolioId, holdingId } = await portfolioWithTrade(key);
    for (const op of operations(portfolioId, holdingId).filter((o) => o.series)) {
      const malformed = await measured(t.db, () =>
        t.http.get(op.rest).query({ interval: "fortnight" }).set("authorization", key),
      );
      expect(malformed.res.status).toBe(400);
      const { res, statements } = await measured(t.db, () =>
        t.http
          .get(op.rest)
          .query({ ...THREE_CENTURIES, interval: "day" })
          .set("authorization", key),
      );
      expect(res.status).toBe(400);
      expect(res.type).toBe("application/problem+json");
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.detail).toContain(
        `day from 1900-01-01 to 2200-12-31 gives 109938 points, more than ANALYTICS_MAX_POINTS (${DEFAULT_ANALYTICS_LIMITS.maxPoints})`,
      );
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["from", "interval", "to"]);
      // Authentication's statements only: the limit is checked before anything is read.
      expect(statements).toBe(malformed.statements);

      const gql = await t.gql(key, op.gql, { ...THREE_CENTURIES, i: "day" });
      expect(gql.body.errors).toEqual([
        expect.objectContaining({
          message: res.body.detail,
          extensions: expect.objectContaining({ code: "VALIDATION_FAILED", errors: res.body.errors }),
        }),
      ]);
    }
  });

  it("three centuries of monthly points, or a performance over them: 400 naming ANALYTICS_MAX_DAYS, REST and GraphQL alike", async () => {
    const { portfolioId, holdingId } = await portfolioWithTrade(key);
    for (const op of operations(portfolioId, holdingId)) {
      const res = await t.http
        .get(op.rest)
        .query({ ...THREE_CENTURIES, ...(op.series ? { interval: "month" } : {}) })
        .set("authorization", key);
      expect({ op: op.name, status: res.status, code: res.body.code }).toEqual({
        op: op.name,
        status: 400,
        code: "VALIDATION_FAILED",
      });
      expect(res.body.detail).toContain(
        `the daily valuation from the day before from (1899-12-31) to 2200-12-31 takes 109939 days, more than ANALYTICS_MAX_DAYS (${DEFAULT_ANALYTICS_LIMITS.maxDays})`,
      );
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["from", "to"]);
      const gql = await t.gql(key, op.gql, { ...THREE_CENTURIES, ...(op.series ? { i: "month" } : {}) });
      expect(gql.body.errors).toEqual([
        expect.objectContaining({
          message: res.body.detail,
          extensions: expect.objectContaining({ code: "VALIDATION_FAILED" }),
        }),
      ]);
    }
  });

  it("a default period from the first trade counts the days since it: a portfolio begun 95 years ago is answered, one begun in 1900 is refused even a recent period", async () => {
    const { portfolioId, holdingId } = await portfolioWithTrade(key, `${Number(today().slice(0, 4)) - 95}-01-02`);
    for (const op of operations(portfolioId, holdingId)) {
      const res = await t.http.get(op.rest).set("authorization", key);
      expect({ op: op.name, status: res.status }).toEqual({ op: op.name, status: 200 });
    }
    const old = await portfolioWithTrade(key, "1900-01-02");
    const refused = await t.http
      .get(`/v1/portfolios/${old.portfolioId}/timeseries`)
      .query({ from: "2000-01-01", to: "2020-12-31", interval: "month" })
      .set("authorization", key);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("the daily valuation from the first event (1900-01-02) to 2020-12-31");
  });
});

describe("a computation whose client hangs up", () => {
  it("stops with CLIENT_CLOSED once the signal aborts mid-way, and leaves no series behind for the next request", async () => {
    const { portfolioId } = await portfolioWithTrade(key, "2000-01-03");
    const auth = await authenticateKey(t.db.prisma, key);
    const controller = new AbortController();
    // The client leaves once the ledger has been read: the daily valuation is what must not run on.
    const db = hookedClient(t.db.prisma, {
      after: async (sql) => void (sql.includes("min(trade_date)") && controller.abort()),
    });
    const series = new SeriesCache();
    const log = pino({ level: "silent" });
    const ctx = buildContext({ db, auth, log, series, signal: controller.signal });
    await expect(
      getPortfolioTimeseries(ctx, portfolioId, { from: "2000-01-03", to: "2020-12-31", interval: "day" }),
    ).rejects.toMatchObject({ code: "CLIENT_CLOSED", status: 499 });
    // Its slot is back, and the next request computes the series afresh.
    expect(ctx.analytics.heavyWork.stats()).toEqual({ running: 0, waiting: 0 });
    const next = await getPortfolioTimeseries(
      buildContext({ db: t.db.prisma, auth, log, series, analytics: ctx.analytics }),
      portfolioId,
      { from: "2000-01-03", to: "2020-12-31", interval: "day" },
    );
    expect(next).toHaveLength(7669);
  });

  it("a request's signal aborts when its client hangs up, and never once the answer is sent", async () => {
    const signals: AbortSignal[] = [];
    const server = http.createServer((req, res) => {
      signals.push(requestSignal(req, res));
      if (req.url === "/answer") res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answered = await fetch(`http://127.0.0.1:${port}/answer`);
      expect(await answered.text()).toBe("ok");
      const hungUp = http.get(`http://127.0.0.1:${port}/hang`);
      hungUp.on("error", () => undefined);
      while (signals.length < 2) await new Promise((r) => setImmediate(r));
      const aborted = new Promise((resolve) => signals[1].addEventListener("abort", resolve));
      hungUp.destroy();
      await aborted;
      expect(signals.map((s) => s.aborted)).toEqual([false, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("heavy computations per key and per process", () => {
  let gated: ReturnType<typeof request>;
  let stop: () => Promise<void>;
  /** When set, the next analytics request waits at its first statement until `release()`. */
  let hold: { entered: () => void; until: Promise<void> } | undefined;

  beforeAll(async () => {
    const db = hookedClient(t.db.prisma, {
      before: async (sql) => {
        if (!hold || !sql.includes("min(trade_date)")) return;
        const h = hold;
        hold = undefined;
        h.entered();
        await h.until;
      },
    });
    const app = await createApp({
      db: Object.create(t.db, { prisma: { value: db } }),
      log: pino({ level: "silent" }),
      config: {
        rateLimitPerSecond: 0,
        rateLimitBurst: 50,
        analyticsLimits: {
          ...DEFAULT_ANALYTICS_LIMITS,
          maxConcurrent: 2,
          maxConcurrentPerKey: 1,
          maxQueued: 0,
          maxQueuedPerKey: 0,
        },
      },
    });
    gated = request(app.app);
    stop = app.stop;
  });
  afterAll(() => stop());

  /** Starts a request that holds its slot until the returned release() is called. */
  async function holding(send: () => request.Test) {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    hold = { entered, until: new Promise<void>((r) => (release = r)) };
    const answer = send().then((res) => res);
    await inside;
    return { answer, release };
  }

  const timeseries = (k: string, p: number) => gated.get(`/v1/portfolios/${p}/timeseries`).set("authorization", k);
  const gqlTimeseries = (k: string, p: number) =>
    gated
      .post("/graphql")
      .set("authorization", k)
      .send({ query: `{ portfolioTimeseries(portfolioId: "${p}") { date } }` });

  it("a key over its share answers 429 with Retry-After over REST and GraphQL, other keys run, and the slot is back once the answer is sent", async () => {
    const { portfolioId } = await portfolioWithTrade(key);
    const first = await holding(() => timeseries(key, portfolioId));

    const rest = await timeseries(key, portfolioId);
    expect(rest.status).toBe(429);
    expect(rest.type).toBe("application/problem+json");
    expect(rest.headers["retry-after"]).toBe("1");
    expect(rest.body).toMatchObject({ code: "RATE_LIMITED" });
    expect(rest.body.detail).toContain("ANALYTICS_MAX_CONCURRENT_PER_KEY 1");

    const gql = await gqlTimeseries(key, portfolioId);
    expect(gql.status).toBe(429);
    expect(gql.headers["retry-after"]).toBe("1");
    expect(gql.body.errors).toEqual([
      expect.objectContaining({ message: rest.body.detail, extensions: { code: "RATE_LIMITED" } }),
    ]);

    // Another key has its own share.
    const otherKey = (await createAccountKey(t.db.prisma, { accountName: "other" })).key;
    const other = await portfolioWithTrade(otherKey);
    expect((await timeseries(otherKey, other.portfolioId)).status).toBe(200);

    first.release();
    expect((await first.answer).status).toBe(200);
    expect((await timeseries(key, portfolioId)).status).toBe(200);
    expect((await gqlTimeseries(key, portfolioId)).status).toBe(200);
  });

  it("a process with every slot taken answers 503 with Retry-After to any key, REST and GraphQL", async () => {
    const keys = [
      key,
      (await createAccountKey(t.db.prisma, { accountName: "b" })).key,
      (await createAccountKey(t.db.prisma, { accountName: "c" })).key,
    ];
    const portfolios: number[] = [];
    for (const k of keys) portfolios.push((await portfolioWithTrade(k)).portfolioId);
    const a = await holding(() => timeseries(keys[0], portfolios[0]));
    const b = await holding(() => timeseries(keys[1], portfolios[1]));

    const rest = await timeseries(keys[2], portfolios[2]);
    expect(rest.status).toBe(503);
    expect(rest.headers["retry-after"]).toBe("1");
    expect(rest.body).toMatchObject({ code: "UNAVAILABLE" });
    expect(rest.body.detail).toContain("ANALYTICS_MAX_CONCURRENT 2");
    const gql = await gqlTimeseries(keys[2], portfolios[2]);
    expect(gql.status).toBe(503);
    expect(gql.headers["retry-after"]).toBe("1");
    expect(gql.body.errors[0].extensions).toEqual({ code: "UNAVAILABLE" });

    a.release();
    b.release();
    expect([(await a.answer).status, (await b.answer).status]).toEqual([200, 200]);
    expect((await timeseries(keys[2], portfolios[2])).status).toBe(200);
  });
});
