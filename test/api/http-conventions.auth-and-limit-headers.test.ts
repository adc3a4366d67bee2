import type request from "supertest";
import { useTestApp } from "../support/app";
import { expectProblem } from "../support/outcomes";

/**
 * WWW-Authenticate on every 401, and the RateLimit-* headers (docs/conventions.md §2.2, §8.2).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("WWW-Authenticate on every 401", () => {
  it("REST names the Bearer scheme; a key that is not valid adds error=invalid_token", async () => {
    const none = await t.http.get("/v1/sources");
    expectProblem(none, 401, "UNAUTHENTICATED");
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="portfolio-service"');
    const bad = await t.http
      .post("/v1/portfolios")
      .set("x-api-key", "pfk_" + "Z".repeat(43))
      .send({ name: "x" });
    expectProblem(bad, 401, "UNAUTHENTICATED");
    expect(bad.headers["www-authenticate"]).toBe('Bearer realm="portfolio-service", error="invalid_token"');
  });

  it("GraphQL too, and never on an answer that is not a 401", async () => {
    const none = await t.gql(undefined, "{ sources { id } }");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="portfolio-service"');
    const bad = await t.gql("pfk_" + "Y".repeat(43), "{ sources { id } }");
    expect(bad.status).toBe(401);
    expect(bad.headers["www-authenticate"]).toBe('Bearer realm="portfolio-service", error="invalid_token"');
    for (const res of [
      await t.gql(key, "{ sources { id } }"),
      await t.gql(undefined, "{ __typename }"),
      await t.http.get("/v1/sources").set("authorization", key),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers["www-authenticate"]).toBeUndefined();
    }
  });
});

describe("RateLimit-* headers (API.md §1 limits)", () => {
  // Refills so slowly that no token comes back during the test: the counts are exact.
  const limited = useTestApp({ rateLimitPerSecond: 0.001, rateLimitBurst: 3, reset: "none" });

  const limits = (res: request.Response) => ({
    status: res.status,
    limit: res.headers["ratelimit-limit"],
    remaining: res.headers["ratelimit-remaining"],
    reset: res.headers["ratelimit-reset"],
  });

  it("count down on every REST answer that spent from the key's bucket, down to the 429", async () => {
    const k = await limited.newAccount(); // no reset: it would hand out a used key id, and its bucket
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(limits(await limited.http.get("/v1/sources").set("authorization", k)));
    expect(seen.map(({ status, limit, remaining }) => ({ status, limit, remaining }))).toEqual([
      { status: 200, limit: "3", remaining: "2" },
      { status: 200, limit: "3", remaining: "1" },
      { status: 200, limit: "3", remaining: "0" },
      { status: 429, limit: "3", remaining: "0" },
    ]);
    for (const s of seen) expect(Number(s.reset)).toBeGreaterThan(0);
    const refused = await limited.http.get("/v1/sources").set("authorization", k);
    expectProblem(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });

  it("on GraphQL, after the operation has spent its whole price; on 401s from the address's bucket", async () => {
    const k = await limited.newAccount();
    const first = await limited.gql(k, "{ sources { id } }");
    expect(limits(first)).toMatchObject({ status: 200, limit: "3", remaining: "2" });
    const second = await limited.gql(k, "{ sources { id } }");
    expect(limits(second)).toMatchObject({ status: 200, remaining: "1" });
    const unknown = await limited.http.get("/v1/sources").set("authorization", "pfk_nobody_at_all");
    expect(limits(unknown)).toMatchObject({ status: 401, limit: "3" });
    expect(Number(unknown.headers["ratelimit-remaining"])).toBeLessThan(3);
  });

  it("are absent when the limit is off, and on answers that spent nothing", async () => {
    const res = await t.http.get("/v1/sources").set("authorization", key);
    expect(res.headers["ratelimit-limit"]).toBeUndefined();
    for (const path of ["/health", "/", "/v1/openapi.json"])
      expect((await limited.http.get(path)).headers["ratelimit-limit"]).toBeUndefined();
  });
});
