import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { openDatabase, type Database } from "../../src/db";
import { generateKey, hashKey } from "../../src/modules/accounts/accounts.service";
import { useTestApp } from "../support/app";
import { measured } from "../support/kit";

/**
 * OPERATIONS.md §1 "API keys": a process remembers key lookups, so a request with a key it has
 * seen sends no statement for it; and a key's revocation, or its client's permission change,
 * reaches every process within 1 s (the triggers of migration api_key_change_notifications
 * notify them all at commit). Two apps over one PostgreSQL database, each with a database of its
 * own (pool, cache, listening connection), stand for two API processes.
 */
const t = useTestApp();
const onPostgres = !!process.env.TEST_DATABASE_URL;
const itOnPostgres = onPostgres ? it : it.skip;

type Http = ReturnType<typeof request>;

/** Polls `probe` until it holds, for at most `ms`; answers how long that took (or fails). */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The statements `db` (another process's database) sent while `send` ran. */
async function statementsIn(db: Database, send: () => Promise<unknown>): Promise<number> {
  const before = db.statementCount;
  await send();
  return db.statementCount - before;
}

const status = async (http: Http, key: string, path = "/v1/sources") =>
  (await http.get(path).set("authorization", key)).status;

/** A client with a login key and one portfolio of its own, made through the API. */
async function clientWithKey(http: Http, accountKey: string, permission: "Read" | "ReadWrite") {
  const portfolio = await http.post("/v1/portfolios").set("authorization", accountKey).send({ name: "Theirs" });
  expect(portfolio.status).toBe(201);
  const client = await http
    .post("/v1/clients")
    .set("authorization", accountKey)
    .send({ firstName: "Ana", lastName: "Silva", permission });
  expect(client.status).toBe(201);
  const assigned = await http
    .put(`/v1/clients/${client.body.id}/portfolios`)
    .set("authorization", accountKey)
    .send({ portfolioIds: [portfolio.body.id] });
  expect(assigned.status).toBe(200);
  const made = await http.post(`/v1/clients/${client.body.id}/api-keys`).set("authorization", accountKey);
  expect(made.status).toBe(201);
  return { clientId: client.body.id as number, portfolioId: portfolio.body.id as number, key: made.body.key as string };
}

const rename = (http: Http, key: string, portfolioId: number) =>
  http
    .put(`/v1/portfolios/${portfolioId}`)
    .set("authorization", key)
    .send({ name: `Renamed ${Math.random()}` });

const setPermission = (http: Http, accountKey: string, clientId: number, permission: "Read" | "ReadWrite") =>
  http
    .put(`/v1/clients/${clientId}`)
    .set("authorization", accountKey)
    .send({ firstName: "Ana", lastName: "Silva", permission })
    .expect(200);

describe("one process", () => {
  let accountKey: string;
  beforeEach(async () => {
    accountKey = await t.newAccount();
  });

  it("a request with a key seen before sends no statement for it", async () => {
    await within(2_000, async () => (await measured(t.db, () => status(t.http, accountKey))).statements === 1);
    const key = await t.newAccount();
    const cold = await measured(t.db, () => t.http.get("/v1/sources").set("authorization", key));
    const warm = await measured(t.db, () => t.http.get("/v1/sources").set("authorization", key));
    expect([cold.res.status, warm.res.status]).toEqual([200, 200]);
    expect(cold.statements).toBe(2); // the key lookup and the sources
    expect(warm.statements).toBe(1); // the sources
  });

  it("a revoked client key is refused from its next request", async () => {
    const { clientId, key } = await clientWithKey(t.http, accountKey, "Read");
    expect(await status(t.http, key)).toBe(200);
    await t.http.delete(`/v1/clients/${clientId}/api-keys`).set("authorization", accountKey).expect(204);
    await within(1_000, async () => (await status(t.http, key)) === 401);
  });

  it("a key is refused once its client or its account is deleted, or its row changes in any way", async () => {
    const first = await clientWithKey(t.http, accountKey, "Read");
    const second = await clientWithKey(t.http, accountKey, "Read");
    for (const key of [first.key, second.key, accountKey]) expect(await status(t.http, key)).toBe(200);

    await t.http.delete(`/v1/clients/${first.clientId}`).set("authorization", accountKey).expect(204);
    await within(1_000, async () => (await status(t.http, first.key)) === 401);

    // Whatever another path does to the row (a rotation in place, a column added later).
    await t.db.sql(`UPDATE api_key SET key_hash = $1 WHERE client_id = $2`, [hashKey(generateKey()), second.clientId]);
    await within(1_000, async () => (await status(t.http, second.key)) === 401);

    const other = await t.newAccount();
    expect(await status(t.http, other)).toBe(200);
    await t.db.prisma.account.deleteMany({ where: { apiKeys: { some: { keyHash: hashKey(other) } } } });
    await within(1_000, async () => (await status(t.http, other)) === 401);
    expect(await status(t.http, accountKey)).toBe(200);
  });

  it("a client's permission change applies to its keys at once, both ways", async () => {
    const { clientId, portfolioId, key } = await clientWithKey(t.http, accountKey, "ReadWrite");
    expect((await rename(t.http, key, portfolioId)).status).toBe(200);
    await setPermission(t.http, accountKey, clientId, "Read");
    await within(1_000, async () => (await rename(t.http, key, portfolioId)).status === 403);
    await setPermission(t.http, accountKey, clientId, "ReadWrite");
    await within(1_000, async () => (await rename(t.http, key, portfolioId)).status === 200);
  });

  it("a key presented before it existed works as soon as it is made", async () => {
    const key = generateKey();
    expect(await status(t.http, key)).toBe(401);
    expect(await status(t.http, key)).toBe(401);
    const account = await t.db.prisma.account.create({ data: { name: `late ${Date.now()}` } });
    await t.db.prisma.apiKey.create({ data: { accountId: account.id, keyHash: hashKey(key) } });
    await within(1_000, async () => (await status(t.http, key)) === 200);
  });
});

describe("two processes on one PostgreSQL database", () => {
  let second: { db: Database; http: Http; close(): Promise<void> } | undefined;
  let accountKey: string;

  beforeAll(async () => {
    if (!onPostgres) return;
    const db = await openDatabase({ url: t.db.url, migrate: false, poolSize: 5 });
    const { app, stop } = await createApp({
      db,
      log: pino({ level: "silent" }),
      config: { rateLimitPerSecond: 0, rateLimitBurst: 50 },
    });
    second = { db, http: request(app), close: async () => (await stop(), await db.close()) };
  });
  afterAll(async () => second?.close());
  beforeEach(async () => {
    accountKey = await t.newAccount();
  });

  /** B's warm GET /v1/sources sends the sources' statement alone: its cache is listening. */
  const warmInB = (key: string) =>
    within(3_000, async () => (await statementsIn(second!.db, () => status(second!.http, key))) === 1);

  itOnPostgres("a client key revoked through one process is refused by the other within 1 s", async () => {
    const { clientId, key } = await clientWithKey(t.http, accountKey, "Read");
    await warmInB(key);
    await t.http.delete(`/v1/clients/${clientId}/api-keys`).set("authorization", accountKey).expect(204);
    const ms = await within(1_000, async () => (await status(second!.http, key)) === 401);
    expect(ms).toBeLessThan(1_000);
  });

  itOnPostgres("a permission change through one process applies in the other within 1 s", async () => {
    const { clientId, portfolioId, key } = await clientWithKey(t.http, accountKey, "ReadWrite");
    await warmInB(key);
    expect((await rename(second!.http, key, portfolioId)).status).toBe(200);
    await setPermission(t.http, accountKey, clientId, "Read");
    await within(1_000, async () => (await rename(second!.http, key, portfolioId)).status === 403);
    await setPermission(t.http, accountKey, clientId, "ReadWrite");
    await within(1_000, async () => (await rename(second!.http, key, portfolioId)).status === 200);
  });

  itOnPostgres(
    "a revocation sent while a process cannot hear still reaches it; it caches again once it hears",
    async () => {
      const { clientId, key } = await clientWithKey(t.http, accountKey, "Read");
      await warmInB(key);
      // Every listening connection of this database goes (both processes'): they cannot hear until
      // they reconnect, and the revocation's notification is sent meanwhile.
      await t.db.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'listen api_key_changed'`,
      );
      await t.http.delete(`/v1/clients/${clientId}/api-keys`).set("authorization", accountKey).expect(204);
      await within(1_000, async () => (await status(second!.http, key)) === 401);
      await warmInB(accountKey);
    },
  );

  itOnPostgres("a warm request through either process sends no statement for its key", async () => {
    await warmInB(accountKey);
    let answer = 0;
    const warm = await statementsIn(second!.db, async () => (answer = await status(second!.http, accountKey)));
    expect(answer).toBe(200);
    expect(warm).toBe(1);
  });
});
