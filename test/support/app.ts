import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { authenticateKey, createAccountKey, generateKey, hashKey } from "../../src/modules/accounts/accounts.service";
import { keyChangesHeard } from "../../src/modules/accounts/key-cache";
import { openTestDatabase, type TestDatabase } from "./db";
import type { MarketDataConfig } from "../../src/config";
import type { RawHttpClient } from "../../src/modules/market-data/providers/http";
import { marketDataProviders } from "../../src/modules/market-data/providers/registry";
import { MarketDataRefresher } from "../../src/modules/market-data/refresh";

export interface TestApp {
  db: TestDatabase;
  http: ReturnType<typeof request>;
  /** A new account with one API key; returns the key. */
  newAccount(name?: string): Promise<string>;
  /**
   * A client login key of the account that owns `accountKey`: a new client with `permission`,
   * assigned `portfolioIds` (written straight to the database, independent of the clients API).
   */
  newClientKey(accountKey: string, permission: "Read" | "ReadWrite", portfolioIds: number[]): Promise<string>;
  /** POST /graphql with the key (a supertest request: await it, or chain .expect()). */
  gql(key: string | undefined, query: string, variables?: Record<string, unknown>): request.Test;
  /** The app's market-data refresh (providers `none` unless the config names others). */
  marketData: MarketDataRefresher;
  close(): Promise<void>;
}

let accounts = 0;

/** The configuration a test app runs with (the rest of the app's configuration is fixed). */
export interface TestAppConfig {
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
  corsOrigins?: string[];
  /**
   * Market-data providers (default: none), over `http` when given (a fake of the network), with
   * retries that wait a millisecond, not seconds.
   */
  marketData?: Partial<MarketDataConfig> & { http?: RawHttpClient };
}

export interface TestAppOptions extends TestAppConfig {
  /**
   * "each" (the default): the database is emptied before every test, so each starts from the
   * seeded tables alone. "none": never; the suite's tests share what its beforeAll wrote (a
   * file's database starts empty, a copy of the migrated template).
   */
  reset?: "each" | "none";
}

/**
 * The app of the suite (or describe block) it is called in: registers, when called, a beforeAll
 * that starts the app, a beforeEach that resets its database (unless `reset: "none"`) and an
 * afterAll that closes it. Call it in the file's (or block's) body before the suite's own hooks,
 * so they run after the start and the reset. The answer's fields may be read inside tests and
 * hooks only (the app does not exist before beforeAll); passing the answer itself around, e.g.
 * to factories or transports built at collection time, is fine.
 *
 *   const t = useTestApp();
 *   let key: string;
 *   beforeEach(async () => (key = await t.newAccount()));
 *   it("…", async () => expect((await t.http.get("/v1/portfolios").set("authorization", key)).status).toBe(200));
 *
 * Jest runs afterAll hooks in the order they were registered: the app closes before the suite's
 * own afterAll runs, so something that must stop while the database is still open registers its
 * afterAll before calling useTestApp. A test that needs its own lifecycle (several apps over one
 * database, a server of its own) uses startTestApp.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const { reset = "each", ...config } = options;
  let app: TestApp | undefined;
  const started = (): TestApp => {
    if (!app) throw new Error("useTestApp: the app exists inside tests and hooks only (it starts in beforeAll)");
    return app;
  };
  beforeAll(async () => {
    app = await startTestApp(config);
  });
  afterAll(async () => {
    const closing = app;
    app = undefined;
    await closing?.close();
  });
  // The reset's TRUNCATE clears every process's key cache by a notification: heard before the test.
  if (reset === "each")
    beforeEach(async () => {
      await started().db.reset();
      await keyChangesHeard(started().db);
    });
  return {
    get db() {
      return started().db;
    },
    get http() {
      return started().http;
    },
    get marketData() {
      return started().marketData;
    },
    newAccount: (name) => started().newAccount(name),
    newClientKey: (accountKey, permission, portfolioIds) =>
      started().newClientKey(accountKey, permission, portfolioIds),
    gql: (key, query, variables) => started().gql(key, query, variables),
    close: async () => {
      throw new Error("useTestApp: the app is closed by the afterAll useTestApp registered");
    },
  };
}

/**
 * The real application over a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * driven over HTTP with supertest. One per test file; call `db.reset()` between tests. Suites
 * use useTestApp, which calls this in their beforeAll.
 */
export async function startTestApp(config: TestAppConfig = {}): Promise<TestApp> {
  const db = await openTestDatabase();
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const { http: inner, ...market } = config.marketData ?? {};
  const marketConfig: MarketDataConfig = {
    provider: "none",
    url: "http://127.0.0.1:9",
    fxProvider: "none",
    fxUrl: "http://127.0.0.1:9/f11.1-data.csv",
    schedule: "off",
    staleDays: 3,
    ...market,
  };
  const providers = marketDataProviders(marketConfig, inner, {
    backoffMs: 1,
    maxDelayMs: 5,
    pauseMs: 50,
    rate: { requests: 1000, perMs: 1 },
  });
  const marketData = new MarketDataRefresher(db, providers, log, marketConfig.schedule, marketConfig.staleDays);
  const { httpServer, stop } = await createApp({
    db,
    log,
    marketData,
    config: {
      rateLimitPerSecond: config.rateLimitPerSecond ?? 0,
      rateLimitBurst: config.rateLimitBurst ?? 50,
      corsOrigins: config.corsOrigins ?? [],
    },
  });
  // One listening server for the suite: given the bare app, supertest would open and close a
  // server of its own for every request.
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const http = request(httpServer);
  return {
    db,
    http,
    // Each new key notifies the key caches; heard before the key is used, so a test counting
    // statements never sees a lookup left uncached because it overlapped that notification.
    newAccount: async (name) => {
      const { key } = await createAccountKey(db.prisma, { accountName: name ?? `account ${++accounts}` });
      await keyChangesHeard(db);
      return key;
    },
    newClientKey: async (accountKey, permission, portfolioIds) => {
      const auth = await authenticateKey(db.prisma, accountKey);
      if (!auth) throw new Error("unknown account key");
      const client = await db.prisma.client.create({
        data: { accountId: auth.account.id, firstName: "Test", lastName: `Client ${++accounts}`, permission },
      });
      await db.prisma.portfolio.updateMany({
        where: { id: { in: portfolioIds }, accountId: auth.account.id },
        data: { clientId: client.id },
      });
      const key = generateKey();
      await db.prisma.apiKey.create({
        data: { accountId: auth.account.id, clientId: client.id, keyHash: hashKey(key), label: "test client" },
      });
      await keyChangesHeard(db);
      return key;
    },
    gql: (key, query, variables) => {
      const req = http.post("/graphql").set("content-type", "application/json");
      if (key) req.set("authorization", key);
      return req.send({ query, variables });
    },
    marketData,
    close: async () => {
      await marketData.stop();
      await stop();
      await db.close();
    },
  };
}

/**
 * A snapshot of every table a test may touch, to prove a rejected request wrote nothing: each
 * table's rows as JSON, in one statement (a SELECT per table was 40 statements, 45 ms on PGlite).
 */
export async function ledgerSnapshot(db: TestDatabase): Promise<string> {
  let query = snapshotQueries.get(db);
  if (!query) {
    const tables = await publicTables(db);
    const rows = tables.map(
      (t) => `SELECT '${t}' AS t, (SELECT coalesce(json_agg(x ORDER BY x::text), '[]')::text FROM "${t}" x) AS rows`,
    );
    query = `SELECT string_agg(t || ':' || rows, E'\\n' ORDER BY t) AS s FROM (${rows.join(" UNION ALL ")}) r`;
    snapshotQueries.set(db, query);
  }
  const [row] = await db.sql<{ s: string }>(query);
  return row.s;
}
const snapshotQueries = new WeakMap<TestDatabase, string>();

async function publicTables(db: TestDatabase): Promise<string[]> {
  return (
    await db.sql<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename`,
    )
  ).map((r) => r.tablename);
}

/**
 * One hash of every table's rows, computed by the database in a single statement: cheap enough to
 * take after each request of a fuzz run, where ledgerSnapshot per request would be too slow.
 */
export async function ledgerFingerprint(db: TestDatabase): Promise<string> {
  let query = fingerprintQueries.get(db);
  if (!query) {
    const tables = await publicTables(db);
    // A sum of row hashes needs no sort: order-independent, and a changed row changes the sum.
    const rows = tables.map((t, i) => `SELECT hashtextextended(${i} || ':' || x::text, 0)::numeric AS h FROM "${t}" x`);
    query = `SELECT count(*) || ':' || coalesce(sum(h), 0) AS h FROM (${rows.join(" UNION ALL ")}) r`;
    fingerprintQueries.set(db, query);
  }
  const [row] = await db.sql<{ h: string }>(query);
  return row.h;
}
const fingerprintQueries = new WeakMap<TestDatabase, string>();
