import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { openDatabase } from "../../src/db";
import { purgeExpiredKeys } from "../../src/modules/idempotency/idempotency.store";
import { startTestApp, type TestApp } from "../support/app";

/**
 * `Idempotency-Key` on POST (API.md §1 writes): a retry with the same key (same account, 24 h)
 * answers the first answer again and writes nothing; over REST and GraphQL mutations, across
 * concurrent requests, with expiry, abandoned runs and 5xx giving the key up.
 */

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

const count = async (table: string, where = "true", params: unknown[] = []) =>
  Number((await t.db.sql<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE ${where}`, params))[0].n);

const createPortfolio = (
  idemKey: string | undefined,
  body: object = { name: "Retirement" },
  k = key,
  prefix = "/v1",
) => {
  const req = t.http.post(`${prefix}/portfolios`).set("authorization", k);
  if (idemKey !== undefined) req.set("Idempotency-Key", idemKey);
  return req.send(body);
};

const replayed = (res: request.Response) => res.headers["idempotent-replayed"];

describe("REST", () => {
  it("a retry with the same key answers the first answer byte for byte and creates nothing", async () => {
    const first = await createPortfolio("create-retirement-1");
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeUndefined();
    const again = await createPortfolio("create-retirement-1");
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(await count("portfolio")).toBe(1);
    expect(await count("idempotency_key")).toBe(1);
  });

  it("the /api/v1 alias is the same operation: its retry is a replay", async () => {
    const first = await createPortfolio("alias-1");
    const again = await createPortfolio("alias-1", { name: "Retirement" }, key, "/api/v1");
    expect(replayed(again)).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(await count("portfolio")).toBe(1);
  });

  it("a replay sends only a read to the database", async () => {
    await createPortfolio("reads-only");
    const before = await t.db.sql(`SELECT * FROM idempotency_key`);
    const statements = t.db.statementCount;
    const again = await createPortfolio("reads-only");
    expect(replayed(again)).toBe("true");
    // Authentication's lookup and the key's lookup; nothing else.
    expect(t.db.statementCount - statements).toBe(2);
    expect(await t.db.sql(`SELECT * FROM idempotency_key`)).toEqual(before);
  });

  it("a trade retried with its key is written once, with the same ids", async () => {
    const p = (await createPortfolio(undefined)).body.id as number;
    const trade = {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: "101.5",
      brokerage: 9.95,
    };
    const post = () =>
      t.http.post("/v1/trades").set("authorization", key).set("Idempotency-Key", "buy-cba-2024-01-10").send(trade);
    const first = await post();
    expect(first.status).toBe(201);
    const again = await post();
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await count("trade")).toBe(1);
    expect(await count("holding")).toBe(1);
    const holding = await t.http.get(`/v1/holdings/${first.body.holdingId}`).set("authorization", key);
    expect(Number(holding.body.quantity)).toBe(10);
  });

  it("members in another order are the same request; another body is refused with 422 and writes nothing", async () => {
    const first = await createPortfolio("k-422", { name: "Growth", baseCurrencyCode: "AUD" });
    expect(first.status).toBe(201);
    const reordered = await createPortfolio("k-422", { baseCurrencyCode: "AUD", name: "Growth" });
    expect(replayed(reordered)).toBe("true");
    const other = await createPortfolio("k-422", { name: "Income" });
    expect(other.status).toBe(422);
    expect(other.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(other.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(other.body.detail).toMatch(
      /Idempotency-Key "k-422" was used .* for a different request \(POST \/v1\/portfolios\)/,
    );
    expect(other.body.errors).toEqual([{ path: "Idempotency-Key", message: "was used for a different request" }]);
    // The same key on another path is another request too.
    const elsewhere = await t.http
      .post("/v1/clients")
      .set("authorization", key)
      .set("Idempotency-Key", "k-422")
      .send({ firstName: "A", lastName: "B" });
    expect(elsewhere.status).toBe(422);
    expect(await count("portfolio")).toBe(1);
    expect(await count("client")).toBe(0);
  });

  it("keys belong to the account: another account's same key string runs its own request", async () => {
    const other = await t.newAccount();
    const mine = await createPortfolio("shared-string");
    const theirs = await createPortfolio("shared-string", { name: "Retirement" }, other);
    expect(theirs.status).toBe(201);
    expect(replayed(theirs)).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await count("portfolio")).toBe(2);
    // Each account's retry replays its own answer.
    expect((await createPortfolio("shared-string", { name: "Retirement" }, other)).body.id).toBe(theirs.body.id);
    expect((await createPortfolio("shared-string")).body.id).toBe(mine.body.id);
  });

  it("a client login key has its own namespace: it never gets an answer the adviser's key got", async () => {
    const p = (await createPortfolio(undefined)).body.id as number;
    const login = await t.newClientKey(key, "ReadWrite", [p]);
    const trade = {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 1,
      price: 100,
    };
    const adviser = await t.http
      .post("/v1/trades")
      .set("authorization", key)
      .set("Idempotency-Key", "same")
      .send(trade);
    const client = await t.http
      .post("/v1/trades")
      .set("authorization", login)
      .set("Idempotency-Key", "same")
      .send(trade);
    expect(adviser.status).toBe(201);
    expect(client.status).toBe(201);
    expect(replayed(client)).toBeUndefined();
    expect(client.body.id).not.toBe(adviser.body.id);
    expect(await count("trade")).toBe(2);
    const clientAgain = await t.http
      .post("/v1/trades")
      .set("authorization", login)
      .set("Idempotency-Key", "same")
      .send(trade);
    expect(replayed(clientAgain)).toBe("true");
    expect(clientAgain.body.id).toBe(client.body.id);
  });

  it("two API keys of one account share its namespace", async () => {
    const first = await t.newAccount("Practice");
    const second = await t.newAccount("Practice");
    const a = await createPortfolio("practice-key", { name: "Retirement" }, first);
    const b = await createPortfolio("practice-key", { name: "Retirement" }, second);
    expect(replayed(b)).toBe("true");
    expect(b.body.id).toBe(a.body.id);
    expect(await count("portfolio")).toBe(1);
  });

  it("five identical requests at once: one write, the others replay it or are told 409 to retry", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => createPortfolio("burst")));
    const statuses = answers.map((a) => a.status);
    for (const s of statuses) expect([201, 409]).toContain(s);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(created.filter((a) => replayed(a) === undefined)).toHaveLength(1);
    for (const busy of answers.filter((a) => a.status === 409)) {
      expect(busy.body.code).toBe("CONFLICT");
      expect(busy.headers["retry-after"]).toBe("1");
    }
    expect(await count("portfolio")).toBe(1);
    expect(await count("idempotency_key")).toBe(1);
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    "two API processes on one database: one write between them",
    async () => {
      // A second application with its own connection pool stands in for a second process.
      const db2 = await openDatabase({ url: t.db.url, migrate: false, poolSize: 5 });
      const second = await createApp({
        db: db2,
        log: pino({ level: "silent" }),
        config: { rateLimitPerSecond: 0, rateLimitBurst: 50 },
      });
      try {
        const http2 = request(second.app);
        const body = { name: "Retirement" };
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            i % 2 === 0
              ? createPortfolio("two-processes", body)
              : http2
                  .post("/v1/portfolios")
                  .set("authorization", key)
                  .set("Idempotency-Key", "two-processes")
                  .send(body),
          ),
        );
        for (const a of answers) expect([201, 409]).toContain(a.status);
        const created = answers.filter((a) => a.status === 201);
        expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
        expect(await count("portfolio")).toBe(1);
        // Whichever process answers the retry, it is the first answer.
        const fromFirst = await createPortfolio("two-processes", body);
        const fromSecond = await http2
          .post("/v1/portfolios")
          .set("authorization", key)
          .set("Idempotency-Key", "two-processes")
          .send(body);
        expect(fromFirst.text).toBe(fromSecond.text);
        expect([replayed(fromFirst), replayed(fromSecond)]).toEqual(["true", "true"]);
      } finally {
        await second.stop();
        await db2.close();
      }
    },
  );

  it("a key still in progress answers 409 with Retry-After; one abandoned for over 10 minutes is taken over", async () => {
    const first = await createPortfolio("stuck");
    await t.db.sql(
      `UPDATE idempotency_key SET completed_at = NULL, status = NULL, body = NULL, created_at = now() - interval '9 minutes'`,
    );
    const busy = await createPortfolio("stuck");
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("CONFLICT");
    expect(busy.headers["retry-after"]).toBe("1");
    expect(await count("portfolio")).toBe(1);
    await t.db.sql(`UPDATE idempotency_key SET created_at = now() - interval '11 minutes'`);
    const rerun = await createPortfolio("stuck");
    expect(rerun.status).toBe(201);
    expect(replayed(rerun)).toBeUndefined();
    expect(rerun.body.id).not.toBe(first.body.id);
    expect(await count("portfolio")).toBe(2);
    expect(replayed(await createPortfolio("stuck"))).toBe("true");
  });

  it("a key older than 24 hours is forgotten: the request runs again, the row is reused", async () => {
    const first = await createPortfolio("yesterday");
    await t.db.sql(
      `UPDATE idempotency_key SET created_at = created_at - interval '25 hours', completed_at = completed_at - interval '25 hours'`,
    );
    const again = await createPortfolio("yesterday", { name: "Another body is fine once expired" });
    expect(again.status).toBe(201);
    expect(replayed(again)).toBeUndefined();
    expect(again.body.id).not.toBe(first.body.id);
    expect(await count("portfolio")).toBe(2);
    expect(await count("idempotency_key")).toBe(1);
    expect(replayed(await createPortfolio("yesterday", { name: "Another body is fine once expired" }))).toBe("true");
  });

  it("expired keys are purged, live ones kept", async () => {
    await createPortfolio("old");
    await createPortfolio("new", { name: "Second" });
    await t.db.sql(`UPDATE idempotency_key SET created_at = created_at - interval '25 hours' WHERE key = 'old'`);
    expect(await purgeExpiredKeys(t.db.prisma)).toBe(1);
    expect((await t.db.sql<{ key: string }>(`SELECT key FROM idempotency_key`)).map((r) => r.key)).toEqual(["new"]);
  });

  it("a rejection (4xx) is kept: its retry gets the same rejection", async () => {
    const first = await createPortfolio("bad-currency", { name: "X", baseCurrencyCode: "ZZZ" });
    expect(first.status).toBe(400);
    const again = await createPortfolio("bad-currency", { name: "X", baseCurrencyCode: "ZZZ" });
    expect(again.status).toBe(400);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await count("portfolio")).toBe(0);
  });

  it("a 5xx is not kept: the retry runs again", async () => {
    await t.db.sql(
      `CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure' USING ERRCODE = 'XX000'; END $$`,
    );
    await t.db.sql(`CREATE TRIGGER test_fail BEFORE INSERT ON portfolio FOR EACH ROW EXECUTE FUNCTION test_fail()`);
    try {
      const failed = await createPortfolio("flaky");
      expect(failed.status).toBe(500);
      expect(await count("idempotency_key")).toBe(0);
    } finally {
      await t.db.sql(`DROP TRIGGER test_fail ON portfolio`);
      await t.db.sql(`DROP FUNCTION test_fail()`);
    }
    const retry = await createPortfolio("flaky");
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBeUndefined();
    expect(await count("portfolio")).toBe(1);
  });

  it("an answer that holds a new API key is never stored: its retry is refused, not replayed", async () => {
    const client = await t.http
      .post("/v1/clients")
      .set("authorization", key)
      .send({ firstName: "Ann", lastName: "Lee" });
    const post = () =>
      t.http
        .post(`/v1/clients/${client.body.id}/api-keys`)
        .set("authorization", key)
        .set("Idempotency-Key", "new-login");
    const first = await post();
    expect(first.status).toBe(201);
    const again = await post();
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
    expect(again.body.detail).toMatch(/already done \(status 201\)/);
    expect(await count("api_key", "client_id = $1", [client.body.id])).toBe(1);
    const [row] = await t.db.sql<{ body: unknown; status: number }>(`SELECT body, status FROM idempotency_key`);
    expect(row).toEqual({ body: null, status: 201 });
  });

  it("the route says its answer is secret, whatever the letter case of the path Express matched", async () => {
    const client = await t.http
      .post("/v1/clients")
      .set("authorization", key)
      .send({ firstName: "Ann", lastName: "Lee" });
    const first = await t.http
      .post(`/V1/Clients/${client.body.id}/API-Keys`)
      .set("authorization", key)
      .set("Idempotency-Key", "shouting");
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^pfk_/);
    expect(await t.db.sql(`SELECT body FROM idempotency_key`)).toEqual([{ body: null }]);
  });

  it("malformed keys answer 400 naming the header and write nothing; a quoted key is the bare key", async () => {
    for (const bad of ["x".repeat(256), "caf\u00e9", "a\tb", '"unterminated\\"']) {
      const res = await createPortfolio(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.errors).toEqual([
        { path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" },
      ]);
    }
    expect(await count("portfolio")).toBe(0);
    const bare = await createPortfolio("x".repeat(255));
    expect(bare.status).toBe(201);
    const quoted = await createPortfolio('"quoted-key"');
    const plain = await createPortfolio("quoted-key");
    expect(replayed(plain)).toBe("true");
    expect(plain.body.id).toBe(quoted.body.id);
    expect(await count("portfolio")).toBe(2);
  });

  it("without a valid API key the key is not looked at: 401 as usual", async () => {
    const res = await t.http.post("/v1/portfolios").set("Idempotency-Key", "x".repeat(300)).send({ name: "A" });
    expect(res.status).toBe(401);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("without the header nothing changes: each POST runs, nothing is recorded", async () => {
    const a = await createPortfolio(undefined);
    const b = await createPortfolio(undefined);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(replayed(b)).toBeUndefined();
    expect(b.body.id).not.toBe(a.body.id);
    expect(await count("portfolio")).toBe(2);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("other methods ignore the header", async () => {
    const p = (await createPortfolio(undefined)).body.id;
    const put = () =>
      t.http
        .put(`/v1/portfolios/${p}`)
        .set("authorization", key)
        .set("Idempotency-Key", "put-key")
        .send({ name: "Renamed" });
    expect((await put()).status).toBe(200);
    const second = await put();
    expect(second.status).toBe(200);
    expect(replayed(second)).toBeUndefined();
    expect(await count("idempotency_key")).toBe(0);
  });
});

describe("GraphQL", () => {
  const CREATE = `mutation Create($input: CreatePortfolioInput!) { createPortfolio(input: $input) { id name } }`;
  const gql = (idemKey: string, query: string, variables?: object) =>
    t.http
      .post("/graphql")
      .set("authorization", key)
      .set("content-type", "application/json")
      .set("Idempotency-Key", idemKey)
      .send({ query, variables });

  it("a mutation retried with its key answers the first answer and does not run again", async () => {
    const first = await gql("gql-create", CREATE, { input: { name: "Super" } });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await gql("gql-create", CREATE, { input: { name: "Super" } });
    expect(again.status).toBe(200);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await count("portfolio")).toBe(1);
    const other = await gql("gql-create", CREATE, { input: { name: "Other" } });
    expect(other.status).toBe(422);
    // A GraphQL response, as GraphQL clients read errors (API.md §3), not problem+json.
    expect(other.headers["content-type"]).toMatch(/^application\/json/);
    expect(other.body.errors).toEqual([
      {
        message: expect.stringContaining("different request"),
        extensions: expect.objectContaining({ code: "IDEMPOTENCY_KEY_REUSED" }),
      },
    ]);
    expect(await count("portfolio")).toBe(1);
  });

  it("the mount decides the transport, not the URL: /GraphQL is GraphQL too (a query is not stored, a secret never)", async () => {
    const query = `{ portfolios { id } }`;
    const res = await t.http
      .post("/GraphQL")
      .set("authorization", key)
      .set("content-type", "application/json")
      .set("Idempotency-Key", "upper")
      .send({ query });
    expect(res.status).toBe(200);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("a REST key and a GraphQL key with the same string are one namespace, different requests", async () => {
    await createPortfolio("one-key");
    const res = await gql("one-key", CREATE, { input: { name: "Retirement" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await count("portfolio")).toBe(1);
  });

  it("a query does not use the key: it runs afresh each time", async () => {
    await createPortfolio(undefined);
    const list = `{ portfolios { id name } }`;
    const first = await gql("reading", list);
    expect(first.body.data.portfolios).toHaveLength(1);
    await createPortfolio(undefined, { name: "Second" });
    const again = await gql("reading", list);
    expect(replayed(again)).toBeUndefined();
    expect(again.body.data.portfolios).toHaveLength(2);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("a mutation behind a fragment that returns an API key is not stored either", async () => {
    const client = await t.http
      .post("/v1/clients")
      .set("authorization", key)
      .send({ firstName: "Ann", lastName: "Lee" });
    const query = `mutation { ...K } fragment K on Mutation { createClientApiKey(id: ${client.body.id}) }`;
    const first = await gql("gql-login", query);
    expect(first.body.data.createClientApiKey).toMatch(/^pfk_/);
    const again = await gql("gql-login", query);
    expect(again.status).toBe(409);
    const rows = await t.db.sql<{ body: unknown }>(`SELECT body FROM idempotency_key`);
    expect(rows).toEqual([{ body: null }]);
  });

  it("a mutation that failed with INTERNAL gives the key up", async () => {
    await t.db.sql(
      `CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure' USING ERRCODE = 'XX000'; END $$`,
    );
    await t.db.sql(`CREATE TRIGGER test_fail BEFORE INSERT ON portfolio FOR EACH ROW EXECUTE FUNCTION test_fail()`);
    try {
      const failed = await gql("gql-flaky", CREATE, { input: { name: "Super" } });
      expect(failed.body.errors[0].extensions.code).toBe("INTERNAL");
      expect(await count("idempotency_key")).toBe(0);
    } finally {
      await t.db.sql(`DROP TRIGGER test_fail ON portfolio`);
      await t.db.sql(`DROP FUNCTION test_fail()`);
    }
    const retry = await gql("gql-flaky", CREATE, { input: { name: "Super" } });
    expect(retry.body.data.createPortfolio.name).toBe("Super");
    expect(replayed(retry)).toBeUndefined();
  });
});
