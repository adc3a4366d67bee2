import request from "supertest";
import { purgeExpiredKeys } from "../../src/modules/idempotency/idempotency.store";
import { useTestApp } from "../support/app";
import { replayed, idempotencyRequests } from "./idempotency.requests";

/**
 * What is kept and for how long: a key in progress (409) or abandoned (taken over), expiry after 24
 * hours and the purge, rejections kept, 5xx given up, and answers holding a secret never stored.
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
});
