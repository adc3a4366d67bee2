import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { openDatabase } from "../../src/db";
import { useTestApp } from "../support/app";
import { replayed, idempotencyRequests } from "./idempotency.requests";

/**
 * A retry with the same key replays the first answer and writes nothing: byte for byte, on the
 * /api/v1 alias, with members in another order; keys belong to the account (and a client key to its
 * own namespace); identical requests at once, in one process or two, write once.
 *
 * `Idempotency-Key` on POST (docs/conventions.md §7.2): a retry with the same key (same account, 24 h)
 * answers the first answer again and writes nothing; over REST and GraphQL mutations, across
 * concurrent requests, with expiry, abandoned runs and 5xx giving the key up.
 */

const t = useTestApp();
let key: string;
const { count, createPortfolio } = idempotencyRequests(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

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
    // The Idempotency-Key's lookup; nothing else (authentication's key lookup is cached).
    expect(t.db.statementCount - statements).toBe(1);
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
});
