import pino from "pino";
import request from "supertest";
import { aliasedCreates } from "../../bench/abuse";
import { createApp } from "../../src/app";
import { openDatabase, type Database } from "../../src/db";
import { MemoryBuckets, PostgresBuckets } from "../../src/http/rate-limit-store";
import { useTestApp } from "../support/app";
import { measured } from "../support/kit";

/**
 * OPERATIONS.md §1 "rate limit": one bucket per key (per client address without a valid key) for
 * the whole installation. On PostgreSQL the buckets are rows every process draws from, one
 * statement a request; on the embedded database (one process) they stay in memory, no statement.
 * Two apps over one PostgreSQL database, each with a database of its own (pool, buckets), stand
 * for two API processes: together they admit no more than the rate plus one burst.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
const itOnPostgres = onPostgres ? it : it.skip;
type Http = ReturnType<typeof request>;

/** A refill slow enough that no token comes back during a test: counts are exact. */
const SLOW = 0.001;
const BURST = 10;
const t = useTestApp({ rateLimitPerSecond: SLOW, rateLimitBurst: BURST, reset: "none" });

/** Another process on the same database, with its own limits (the same as `t`'s unless given). */
async function secondProcess(rateLimitPerSecond = SLOW, rateLimitBurst = BURST) {
  const db = await openDatabase({ url: t.db.url, migrate: false, poolSize: 10 });
  const { app, stop } = await createApp({
    db,
    log: pino({ level: "silent" }),
    config: { rateLimitPerSecond, rateLimitBurst },
  });
  return { db, http: request(app), close: async () => (await stop(), await db.close()) };
}

const get = (http: Http, key?: string) => {
  const req = http.get("/v1/sources");
  return key ? req.set("authorization", key) : req;
};

it("a request pays one statement for its limit on PostgreSQL, none on the embedded database", async () => {
  // Until the process hears key changes (its listening connection is up), it does not cache keys.
  const warming = await t.newAccount();
  for (let i = 0; i < BURST; i++)
    if ((await measured(t.db, () => get(t.http, warming))).statements <= (onPostgres ? 2 : 1)) break;
  const key = await t.newAccount();
  await get(t.http, key).expect(200); // the key's lookup is cached from now on
  const { res, statements } = await measured(t.db, () => get(t.http, key));
  expect(res.status).toBe(200);
  expect(res.headers["ratelimit-remaining"]).toBe(String(BURST - 2));
  expect(statements).toBe(onPostgres ? 2 : 1); // (the draw and) the sources
});

describe("two processes on one PostgreSQL database", () => {
  let b: { db: Database; http: Http; close(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (onPostgres) b = await secondProcess();
  });
  afterAll(async () => b?.close());

  itOnPostgres("count down one bucket per key, whichever process answers, to the 429", async () => {
    const key = await t.newAccount();
    const seen: [number, string | undefined][] = [];
    for (let i = 0; i < BURST + 2; i++) {
      const res = await get(i % 2 ? b!.http : t.http, key);
      seen.push([res.status, res.headers["ratelimit-remaining"]]);
      if (res.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    expect(seen).toEqual([
      ...Array.from({ length: BURST }, (_, i) => [200, String(BURST - 1 - i)]),
      [429, "0"],
      [429, "0"],
    ]);
  });

  itOnPostgres("admit exactly one burst of concurrent requests across both", async () => {
    const key = await t.newAccount();
    const statuses = await Promise.all(
      Array.from({ length: 3 * BURST }, (_, i) => get(i % 2 ? b!.http : t.http, key).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(BURST);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * BURST);
  });

  itOnPostgres("share the bucket of requests without a valid key, per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 2; i++) statuses.push((await get(i % 2 ? b!.http : t.http, `pfk_guess_${i}`)).status);
    // Some of the burst may be spent already by earlier key-less requests of this file.
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect((await get(b!.http)).status).toBe(429);
  });

  itOnPostgres("spend a GraphQL operation's price from the shared bucket", async () => {
    const key = await t.newAccount();
    const created = await t.http
      .post("/graphql")
      .set("authorization", key)
      .send({ query: aliasedCreates(6) });
    expect(created.status).toBe(200);
    expect(created.headers["ratelimit-remaining"]).toBe(String(BURST - 6));
    const next = await get(b!.http, key);
    expect(next.headers["ratelimit-remaining"]).toBe(String(BURST - 7));
  });

  itOnPostgres("admit no more than the rate plus one burst over time, hammered through both", async () => {
    const rate = 20;
    const burst = 5;
    const [p, q] = [await secondProcess(rate, burst), await secondProcess(rate, burst)];
    try {
      const key = await t.newAccount();
      const start = performance.now();
      let admitted = 0;
      const hammer = async (http: Http) => {
        while (performance.now() - start < 1_500) if ((await get(http, key)).status === 200) admitted++;
      };
      await Promise.all([hammer(p.http), hammer(p.http), hammer(q.http), hammer(q.http)]);
      const seconds = (performance.now() - start) / 1000;
      expect(admitted).toBeGreaterThanOrEqual(burst);
      expect(admitted).toBeLessThanOrEqual(burst + Math.ceil(rate * seconds));
    } finally {
      await p.close();
      await q.close();
    }
  });
});

describe("the PostgreSQL store", () => {
  itOnPostgres("draws as the memory store does, and forgets only buckets that are full again", async () => {
    const policy = { perSecond: SLOW, burst: BURST };
    const sql = new PostgresBuckets(t.db.query!, "store-test", 0);
    const memory = new MemoryBuckets();
    const draws: [number, boolean][] = [
      [3, true],
      [4, true],
      [5, false],
      [5, true],
      [3, true],
      [11, true],
      [0, true],
    ];
    for (const [tokens, spend] of draws) {
      const [a, m] = [await sql.draw("a", tokens, spend, policy), await memory.draw("a", tokens, spend, policy)];
      expect(a.enough).toBe(m.enough);
      expect(a.tokens).toBeCloseTo(m.tokens, 2);
    }
    await sql.draw("full", 0, true, policy);
    // Every draw of this store sweeps (not awaited): the full bucket goes, the spent one stays.
    const ids = async () =>
      (await t.db.sql<{ id: string }>(`SELECT id FROM rate_limit_bucket WHERE id LIKE 'store-test:%' ORDER BY id`)).map(
        (r) => r.id,
      );
    for (let i = 0; i < 50 && (await ids()).includes("store-test:full"); i++) {
      await sql.draw("a", 0, false, policy);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await ids()).toEqual(["store-test:a"]);
  });
});
