import type request from "supertest";
import { useTestApp } from "../support/app";
import { UUID } from "../support/kit";
import { expectProblem } from "../support/outcomes";

/**
 * Rate limiting (docs/conventions.md §8.2) per key and per address, and the headers on every response
 * (security headers, request ids).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("rate limit (API.md §1 limits)", () => {
  const limited = useTestApp({ rateLimitPerSecond: 1, rateLimitBurst: 3, reset: "none" });

  it("answers 429 problem+json RATE_LIMITED with Retry-After after the burst; another key is not affected", async () => {
    await limited.db.reset();
    const hot = await limited.newAccount();
    const cool = await limited.newAccount();

    // The bucket starts full: the burst of 3 passes.
    for (let i = 0; i < 3; i++)
      expect((await limited.http.get("/v1/sources").set("authorization", hot)).status).toBe(200);
    // Then, before long, a request is refused (at 1 request/s, at most a token or two refill meanwhile).
    let refused: request.Response | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await limited.http.get("/v1/sources").set("authorization", hot);
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeDefined();
    expectProblem(refused!, 429, "RATE_LIMITED");
    expect(refused!.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(refused!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused!.headers["x-request-id"]).toBeTruthy();

    // Another key has its own bucket.
    const other = await limited.http.get("/v1/sources").set("authorization", cool);
    expect(other.status).toBe(200);
    // The same key in another header form shares the bucket: it is the key that is limited.
    const sameKey = await limited.http.get("/v1/sources").set("x-api-key", hot);
    expect(sameKey.status).toBe(429);
  });

  it("limits key guessing per client address; a valid key from that address keeps its own bucket", async () => {
    const valid = await limited.newAccount(); // no reset: a reset would reuse the previous test's key id

    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await limited.http.get("/v1/sources").set("authorization", `pfk_guess_${i}`)).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    expectProblem(await limited.http.get("/v1/sources").set("authorization", "pfk_guess_again"), 429, "RATE_LIMITED");
    // Requests without any key share the address's bucket too.
    expectProblem(await limited.http.get("/v1/sources"), 429, "RATE_LIMITED");
    // A valid key from the same address has its own bucket.
    expect((await limited.http.get("/v1/sources").set("authorization", valid)).status).toBe(200);
  });

  it("is off in the default test app", async () => {
    for (let i = 0; i < 60; i++) expect((await t.http.get("/health")).status).toBe(200);
    for (let i = 0; i < 60; i++) expect((await t.http.get("/v1/sources").set("authorization", key)).status).toBe(200);
  });
});

describe("headers on every response", () => {
  const requests = (k: string): [string, () => request.Test][] => [
    ["GET /health", () => t.http.get("/health")],
    ["GET /v1/sources", () => t.http.get("/v1/sources").set("authorization", k)],
    ["GET /v1/sources without key", () => t.http.get("/v1/sources")],
    ["GET /v1/nope", () => t.http.get("/v1/nope").set("authorization", k)],
    ["POST /v1/portfolios invalid", () => t.http.post("/v1/portfolios").set("authorization", k).send({ name: "" })],
    ["POST /graphql", () => t.http.post("/graphql").set("authorization", k).send({ query: "{ sources { id } }" })],
    ["POST /graphql without key", () => t.http.post("/graphql").send({ query: "{ sources { id } }" })],
    ["GET /v1/openapi.json", () => t.http.get("/v1/openapi.json")],
  ];

  it("sends x-content-type-options: nosniff and no x-powered-by", async () => {
    for (const [label, send] of requests(key)) {
      const res = await send();
      expect({ label, nosniff: res.headers["x-content-type-options"], poweredBy: res.headers["x-powered-by"] }).toEqual(
        { label, nosniff: "nosniff", poweredBy: undefined },
      );
    }
  });

  it("carries an x-request-id on every response, echoing the one given", async () => {
    const ids = new Set<string>();
    for (const [label, send] of requests(key)) {
      const res = await send();
      expect({ label, id: res.headers["x-request-id"] }).toEqual({ label, id: expect.stringMatching(UUID) });
      ids.add(res.headers["x-request-id"]);
      const traced = await send().set("x-request-id", "trace-123.abc_X");
      expect({ label, id: traced.headers["x-request-id"] }).toEqual({ label, id: "trace-123.abc_X" });
      if (traced.headers["content-type"]?.startsWith("application/problem+json"))
        expect(traced.body.requestId).toBe("trace-123.abc_X");
    }
    expect(ids.size).toBe(requests(key).length);
  });

  it("does not echo a request id that is not a plain token", async () => {
    const res = await t.http.get("/health").set("x-request-id", "bad id<script>");
    expect(res.headers["x-request-id"]).toMatch(UUID);
  });
});
