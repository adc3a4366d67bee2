import request from "supertest";
import { useTestApp } from "../support/app";
import { replayed, idempotencyRequests } from "./idempotency.requests";

/**
 * The header itself: malformed keys are 400, a request without a valid API key is 401 as usual, no
 * header changes nothing, and other methods ignore it.
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
