import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { MARKET_DATA_TIMEZONE } from "../src/config";
import { openDatabase, type Database } from "../src/db";
import { addDays, todayIn } from "../src/lib/dates";
import { createAccountKey } from "../src/modules/accounts/accounts.service";
import { forkFakeYahoo, servedBy } from "./fake-yahoo";

/**
 * B15: a market-data refresh of 200 ASX securities × 10 years of daily closes (≈2,600 bars each,
 * dividends, a split for one in five) from the fake Yahoo of bench/fake-yahoo.ts, started with
 * POST /v1/market-data/refresh, while GET /health is measured (one connection, as B9 and B14).
 * Per round, on a service process of its own over fresh data: /health alone for BENCH_SECONDS,
 * /health from the refresh's start until its end (target p99 ≤ 50 ms), /health for 2 s after
 * (the embedded database's statistics upkeep runs once the writes go quiet), then the second,
 * incremental refresh (each security from 7 days before its last close), likewise. Times are
 * from the POST to the process's refresh having ended; the run's own span (its row) beside.
 */
const SECURITIES = 200;
const SYMBOLS = `symbol LIKE 'Q___' AND exchange = 'ASX'`;
const AFTER_SECONDS = 2;
/** registry.ts RATES.yahoo: the default politeness limit. */
const DEFAULT_RATE_PER_SECOND = 2;
const TARGET_MS = 50;

interface Server {
  child: ChildProcess;
  base: string;
}

/** The provider data of B15's securities goes (PostgreSQL keeps it from run to run). */
async function forgetMarketData(db: Database): Promise<void> {
  for (const table of ["provider_price", "provider_dividend", "provider_split", "market_data_security"])
    await db.prisma.$executeRawUnsafe(`DELETE FROM ${table} WHERE ${SYMBOLS}`);
}

/**
 * One account ("b15"), one portfolio of 200 ASX holdings Q001…Q200, each bought once ten years
 * ago, and no provider data for them yet.
 */
export async function seedMarketRefresh(db: Database): Promise<{ key: string }> {
  await forgetMarketData(db);
  const { account, key } = await createAccountKey(db.prisma, { accountName: "b15", label: "b15" });
  const [p] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     VALUES ($1, 'Market data', 'AUD', 'AU', 'Individual', '06-30', now()) RETURNING id`,
    account.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
     SELECT $1, 'Q' || lpad(h::text, 3, '0'), 'ASX', 'Refreshed ' || h, 'AUD', 'Stock', now() FROM generate_series(1, $2::int) h`,
    p.id,
    SECURITIES,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, h.id, 'Buy'::"TradeType", $2::date, 100, 10, 9.95, 'AUD', 1, now() FROM holding h WHERE h.portfolio_id = $1`,
    p.id,
    addDays(todayIn(MARKET_DATA_TIMEZONE), -3653),
  );
  return { key };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

const idle = (s: Server) =>
  new Promise<void>((resolve) => {
    s.child.once("message", () => resolve());
    s.child.send({ idle: true });
  });

/** /health on one connection until `until` settles. */
function healthUntil(base: string, until: Promise<unknown>) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: base + "/health", connections: 1, duration: 3_600 }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    void until.finally(() => instance.stop());
  });
}

const figures = (r: autocannon.Result) => ({
  p50: r.latency.p50,
  p99: r.latency.p99,
  max: r.latency.max,
  requests: r.requests.total,
  failed: r.non2xx + r.errors,
});

interface RunCounts {
  securities: number;
  prices: number;
  dividends: number;
  splits: number;
  [other: string]: number;
}

/** One refresh through the API, /health measured until it has ended. */
async function refreshWhileMeasuring(server: Server, key: string) {
  const headers = { authorization: key, "content-type": "application/json" };
  const t = performance.now();
  const res = await fetch(server.base + "/v1/market-data/refresh", { method: "POST", headers, body: "{}" });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`B15: refresh answered ${res.status}: ${text.slice(0, 300)}`);
  const started = JSON.parse(text) as { runId: number };
  const ended = idle(server).then(() => performance.now() - t);
  const health = figures(await healthUntil(server.base, ended));
  const ms = await ended;
  const status = (await (await fetch(server.base + "/v1/market-data/status", { headers })).json()) as {
    lastRun: {
      runId: number;
      status: string;
      startedAt: string;
      finishedAt: string;
      counts: RunCounts;
      message: string;
    };
  };
  const run = status.lastRun;
  if (run.runId !== started.runId || run.status !== "Succeeded" || run.counts.securities !== SECURITIES)
    throw new Error(`B15: run ${started.runId} did not refresh all ${SECURITIES} securities: ${JSON.stringify(run)}`);
  return { ms, runMs: Date.parse(run.finishedAt) - Date.parse(run.startedAt), health, counts: run.counts };
}

interface Round {
  before: ReturnType<typeof figures>;
  first: Awaited<ReturnType<typeof refreshWhileMeasuring>>;
  after: ReturnType<typeof figures>;
  incremental: Awaited<ReturnType<typeof refreshWhileMeasuring>>;
}

export async function marketRefreshWorkload(opts: {
  key: string;
  url: string | undefined;
  rounds: number;
  seconds: number;
  /** A service process over fresh seeded data (embedded: a new copy), its Yahoo at `marketUrl`. */
  startService: (marketUrl: string) => Promise<Server>;
}): Promise<void> {
  const { url, seconds } = opts;
  let { key } = opts;
  const yahoo = await forkFakeYahoo();
  const rounds: Round[] = [];
  try {
    for (let r = 0; r < Math.min(opts.rounds, 3); r++) {
      // PostgreSQL keeps what the last round wrote (the income records and corporate actions of
      // the account, the provider rows): each round starts from a new seed, as the embedded copy does.
      if (url) {
        const db = await openDatabase({ url, migrate: false });
        try {
          await db.prisma.$executeRawUnsafe(`DELETE FROM account WHERE name = 'b15'`);
          ({ key } = await seedMarketRefresh(db));
        } finally {
          await db.close();
        }
      }
      const server = await opts.startService(yahoo.base);
      try {
        await autocannon({ url: server.base + "/health", connections: 1, duration: 1 });
        const before = figures(await autocannon({ url: server.base + "/health", connections: 1, duration: seconds }));
        const first = await refreshWhileMeasuring(server, key);
        const after = figures(
          await autocannon({ url: server.base + "/health", connections: 1, duration: AFTER_SECONDS }),
        );
        const incremental = await refreshWhileMeasuring(server, key);
        rounds.push({ before, first, after, incremental });
      } finally {
        server.child.kill("SIGTERM");
        await new Promise((resolve) => server.child.once("exit", resolve));
      }
    }
    const served = await servedBy(yahoo.child);
    const mid = (pick: (x: Round) => number) => median(rounds.map(pick));
    const p99During = mid((x) => x.first.health.p99);
    const p99Before = mid((x) => x.before.p99);
    const rate = Number(process.env.BENCH_MARKET_RATE || 1000);
    console.log(
      JSON.stringify({
        workload: `B15 GET /health p99 while a market-data refresh of ${SECURITIES} securities × 10 years runs`,
        database: url ? "postgresql" : "pglite",
        node: process.version,
        health: {
          before: { p50: mid((x) => x.before.p50), p99: p99Before },
          duringRefresh: { p50: mid((x) => x.first.health.p50), p99: p99During, max: mid((x) => x.first.health.max) },
          afterRefresh: { p50: mid((x) => x.after.p50), p99: mid((x) => x.after.p99), seconds: AFTER_SECONDS },
          duringIncremental: { p50: mid((x) => x.incremental.health.p50), p99: mid((x) => x.incremental.health.p99) },
          p99Ratio: round(p99During / Math.max(p99Before, 1), 2),
          p99DuringRounds: rounds.map((x) => x.first.health.p99),
          requestsDuringRefresh: rounds.map((x) => x.first.health.requests),
          failed: rounds.reduce((n, x) => n + x.before.failed + x.first.health.failed + x.incremental.health.failed, 0),
        },
        targetMs: TARGET_MS,
        withinTarget: p99During <= TARGET_MS,
        result: p99During <= TARGET_MS ? "PASS" : "FAIL",
        refresh: {
          firstMs: round(mid((x) => x.first.ms)),
          firstRunMs: mid((x) => x.first.runMs),
          incrementalMs: round(mid((x) => x.incremental.ms)),
          incrementalRunMs: mid((x) => x.incremental.runMs),
          firstMsRounds: rounds.map((x) => round(x.first.ms)),
          rows: { first: rounds[0].first.counts, incremental: rounds[0].incremental.counts },
          yahooRequests: served,
        },
        rateLimit: {
          used: `${rate} requests/s`,
          default: `${DEFAULT_RATE_PER_SECOND} requests/s: ${SECURITIES} securities take ≥ ${SECURITIES / DEFAULT_RATE_PER_SECOND} s per refresh, first or incremental`,
        },
        rounds: rounds.length,
        secondsBefore: seconds,
      }),
    );
  } finally {
    yahoo.child.kill("SIGTERM");
  }
}
