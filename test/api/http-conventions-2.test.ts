import type request from "supertest";
import { loadConfig, parseCorsOrigins } from "../../src/config";
import { buildContext } from "../../src/context";
import { endpoints } from "../../src/http/router";
import { authenticateKey } from "../../src/modules/accounts/accounts.service";
import { listHoldingTrades } from "../../src/modules/trades/trades.service";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";
import { measured } from "../support/kit";
import { expectProblem } from "../support/outcomes";
import pino from "pino";
import { SeriesCache } from "../../src/modules/analytics/engine-cache";

/**
 * HTTP conventions of API.md §1 beyond the basics (http-conventions.test.ts): CORS for browsers
 * (CORS_ORIGINS), 405 with Allow, 415 naming the accepted types, Location on 201,
 * WWW-Authenticate on 401, RateLimit-* headers, the index at GET /, and paging headers.
 */

const ALLOWED = "https://app.example.com";
const OTHER = "https://evil.example.net";

let t: TestApp;
let browser: TestApp;
let anyOrigin: TestApp;
let limited: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  browser = await startTestApp({ corsOrigins: [ALLOWED, "http://localhost:5173"] });
  anyOrigin = await startTestApp({ corsOrigins: ["*"] });
  // Refills so slowly that no token comes back during the test: the counts are exact.
  limited = await startTestApp({ rateLimitPerSecond: 0.001, rateLimitBurst: 3 });
});
afterAll(async () => {
  for (const app of [limited, anyOrigin, browser, t]) await app?.close();
});
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

/** A refusal on /graphql before Apollo runs: the same status and code, as a GraphQL response (API.md §3). */
function expectGraphqlRefusal(res: request.Response, status: number, code: string): string {
  expect({ status: res.status, type: res.headers["content-type"] }).toEqual({
    status,
    type: expect.stringMatching(/^application\/json/),
  });
  expect(res.body.errors).toEqual([{ message: expect.any(String), extensions: expect.objectContaining({ code }) }]);
  return res.body.errors[0].message;
}

const listOf = (header: string | undefined) =>
  (header ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
const corsHeaders = (res: request.Response) => Object.keys(res.headers).filter((h) => h.startsWith("access-control-"));

describe("CORS (API.md §1 browsers: CORS_ORIGINS)", () => {
  const preflight = (app: TestApp, path: string, origin: string, method = "POST") =>
    app.http
      .options(path)
      .set("origin", origin)
      .set("access-control-request-method", method)
      .set("access-control-request-headers", "authorization, content-type, idempotency-key");

  it.each(["/v1/portfolios", "/api/v1/portfolios", "/graphql", "/v1/portfolios/123/transactions"])(
    "answers the preflight of %s with 204, without a key and without a statement",
    async (path) => {
      const { res, statements } = await measured(browser.db, () => preflight(browser, path, ALLOWED));
      expect(res.status).toBe(204);
      expect(statements).toBe(0);
      expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
      expect(listOf(res.headers["vary"])).toContain("origin");
      expect(listOf(res.headers["access-control-allow-methods"])).toEqual(
        expect.arrayContaining(["get", "post", "put", "delete"]),
      );
      expect(listOf(res.headers["access-control-allow-headers"])).toEqual(
        expect.arrayContaining(["authorization", "x-api-key", "content-type", "idempotency-key", "x-request-id"]),
      );
      expect(Number(res.headers["access-control-max-age"])).toBeGreaterThan(0);
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    },
  );

  it("lets an allowed origin read REST and GraphQL answers and their headers; security headers stay", async () => {
    const k = await browser.newAccount();
    const created = await browser.http
      .post("/v1/portfolios")
      .set("origin", ALLOWED)
      .set("authorization", k)
      .send({ name: "From the browser" });
    expect(created.status).toBe(201);
    expect(created.headers["access-control-allow-origin"]).toBe(ALLOWED);
    expect(listOf(created.headers["access-control-expose-headers"])).toEqual(
      expect.arrayContaining([
        "location",
        "x-total-count",
        "link",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "retry-after",
        "x-request-id",
      ]),
    );
    expect(listOf(created.headers["vary"])).toContain("origin");
    // CORP same-origin only governs no-cors requests (Fetch standard); nosniff and the rest stay.
    expect(created.headers["x-content-type-options"]).toBe("nosniff");
    expect(created.headers["cross-origin-resource-policy"]).toBe("same-origin");

    const gql = await browser.http
      .post("/graphql")
      .set("origin", "http://localhost:5173")
      .set("x-api-key", k)
      .send({ query: "{ portfolios { name } }" });
    expect(gql.status).toBe(200);
    expect(gql.body).toEqual({ data: { portfolios: [{ name: "From the browser" }] } });
    expect(gql.headers["access-control-allow-origin"]).toBe("http://localhost:5173");

    // Errors are readable too: a browser can show the problem.
    const unauthenticated = await browser.http.get("/v1/portfolios").set("origin", ALLOWED);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers["access-control-allow-origin"]).toBe(ALLOWED);
  });

  it("gives an origin not on the list no CORS header at all, preflight or not", async () => {
    for (const path of ["/v1/portfolios", "/graphql"]) {
      const res = await preflight(browser, path, OTHER);
      expect({ path, cors: corsHeaders(res) }).toEqual({ path, cors: [] });
      expect(listOf(res.headers["vary"])).toContain("origin");
    }
    const k = await browser.newAccount();
    const res = await browser.http.get("/v1/sources").set("origin", OTHER).set("authorization", k);
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    // Near misses are other origins.
    for (const near of [
      "https://app.example.com.evil.net",
      "http://app.example.com",
      "https://APP.example.com:443x",
      "null",
    ]) {
      expect(corsHeaders(await preflight(browser, "/v1/sources", near, "GET"))).toEqual([]);
    }
  });

  it("sends no CORS header at all when CORS_ORIGINS is unset", async () => {
    for (const path of ["/v1/portfolios", "/graphql"]) {
      const res = await preflight(t, path, ALLOWED);
      expect({ path, cors: corsHeaders(res) }).toEqual({ path, cors: [] });
    }
    const res = await t.http.get("/v1/sources").set("origin", ALLOWED).set("authorization", key);
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
  });

  it("allows any origin with CORS_ORIGINS=*, without credentials", async () => {
    const res = await preflight(anyOrigin, "/graphql", OTHER);
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(listOf(res.headers["access-control-allow-headers"])).toContain("authorization");
  });

  it("reads CORS_ORIGINS as a comma list of exact origins", () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: "" }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: " https://a.example.com , http://localhost:5173 " }).corsOrigins).toEqual([
      "https://a.example.com",
      "http://localhost:5173",
    ]);
    expect(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
    expect(() => loadConfig({ CORS_ORIGINS: "https://a.example.com/" })).toThrow(
      /CORS_ORIGINS: 'https:\/\/a\.example\.com\/' must be written as its origin, 'https:\/\/a\.example\.com'/,
    );
    expect(() => loadConfig({ CORS_ORIGINS: "https://a.example.com,*" })).toThrow(
      /CORS_ORIGINS: '\*' allows every origin/,
    );
    expect(parseCorsOrigins("a.example.com")).toMatch(/is not an origin/);
    expect(parseCorsOrigins("https://A.example.com:443")).toMatch(
      /must be written as its origin, 'https:\/\/a\.example\.com'/,
    );
  });
});

describe("405 with Allow for a wrong method (API.md §1 errors)", () => {
  it.each([
    ["delete", "/v1/sources", "GET, HEAD"],
    ["patch", "/v1/portfolios", "GET, HEAD, POST"],
    ["post", "/api/v1/portfolios/7", "GET, HEAD, PUT, DELETE"],
    ["get", "/v1/allocation-models/abc/activate", "POST"],
    ["put", "/v1/portfolios/7/trades/import", "POST"],
    ["delete", "/v1/openapi.json", "GET, HEAD"],
    ["put", "/graphql", "GET, POST"],
    ["delete", "/graphql", "GET, POST"],
    ["patch", "/graphql", "GET, POST"],
  ] as const)("%s %s → 405 Allow: %s, before authentication and the database", async (method, path, allow) => {
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => {
        const req = t.http[method](path).set("content-type", "application/json");
        if (k) req.set("authorization", k);
        return req.send("{}");
      });
      const detail =
        path === "/graphql"
          ? expectGraphqlRefusal(res, 405, "METHOD_NOT_ALLOWED")
          : (expectProblem(res, 405, "METHOD_NOT_ALLOWED"), res.body.detail);
      expect(res.headers["allow"]).toBe(allow);
      expect(detail).toContain(allow);
      expect(statements).toBe(0);
    }
  });

  it("HEAD is allowed wherever GET is", async () => {
    const res = await t.http.head("/v1/sources").set("authorization", key);
    expect(res.status).toBe(200);
    expect((await t.http.head("/v1/openapi.json")).status).toBe(200);
  });

  it("answers OPTIONS on a known path with 204 and Allow", async () => {
    const res = await t.http.options("/v1/portfolios/5");
    expect(res.status).toBe(204);
    expect(res.headers["allow"]).toBe("GET, HEAD, PUT, DELETE");
    expect((await t.http.options("/graphql")).headers["allow"]).toBe("GET, POST");
  });

  it("keeps 404 for an unknown path, whatever the method", async () => {
    for (const req of [t.http.delete("/v1/nope"), t.http.patch("/v1/portfolios/1/nope"), t.http.get("/nope")]) {
      expectProblem(await req.set("authorization", key), 404, "NOT_FOUND");
    }
  });

  it("matches every route of the endpoint table: its own method never answers 405", async () => {
    for (const e of endpoints) {
      const path =
        "/v1" + e.path.replace(/:(\w+)/g, (_m, name: string) => (e.stringParams?.includes(name) ? "x" : "999999"));
      const res = await t.http[e.method](path).set("authorization", key);
      expect({ route: `${e.method} ${e.path}`, status: res.status }).not.toEqual({
        route: `${e.method} ${e.path}`,
        status: 405,
      });
    }
  });
});

describe("415 for a body of a type the route does not take (API.md §1 errors)", () => {
  it("refuses text/plain and form bodies on JSON routes, naming application/json, writing nothing", async () => {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Kept" })).body.id;
    const before = await ledgerSnapshot(t.db);
    for (const [method, path, type] of [
      ["post", "/v1/portfolios", "text/plain"],
      ["post", "/v1/portfolios", "application/x-www-form-urlencoded"],
      ["put", `/v1/portfolios/${p}`, "text/csv"],
      ["post", "/v1/trades", "text/plain"],
      ["post", "/api/v1/portfolios", "application/xml"],
    ] as const) {
      const res = await t.http[method](path).set("authorization", key).set("content-type", type).send("name=Plain");
      expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(res.body.detail).toContain(type);
      expect(res.body.detail).toContain("application/json");
      if (method === "post") expect(res.headers["accept-post"]).toBe("application/json");
    }
    // A body without any Content-Type is refused the same way.
    const untyped = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .serialize((b: unknown) => b as string)
      .send("name" as never)
      .unset("content-type");
    expectProblem(untyped, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("leaves bodies it reads alone: JSON with a charset, +json types, no body at all", async () => {
    const ok = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .set("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ name: "With charset" }));
    expect(ok.status).toBe(201);
    // No body: the route judges it, as before (400 naming the body).
    const empty = await t.http.post("/v1/portfolios").set("authorization", key);
    expectProblem(empty, 400, "VALIDATION_FAILED");
  });

  it("bulk routes take JSON or text/csv and name both", async () => {
    const res = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .set("content-type", "application/xml")
      .send("<rates/>");
    expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(res.body.detail).toMatch(/application\/json or text\/csv/);
    expect(res.headers["accept-post"]).toBe("application/json, text/csv");
    const plain = await t.http
      .post("/v1/portfolios/1/trades/import")
      .set("authorization", key)
      .set("content-type", "text/plain")
      .send("date,type");
    expectProblem(plain, 415, "UNSUPPORTED_MEDIA_TYPE");
    // CSV goes through to the route (which judges its rows).
    const csv = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send("base,quote,date,rate\nUSD,AUD,2024-01-02,1.5\n");
    expect(csv.status).not.toBe(415);
    expect(csv.status).toBeLessThan(500);
  });

  it("the upload route takes multipart/form-data only", async () => {
    const res = await t.http.put("/v1/trades/1/attachment").set("authorization", key).send({ file: "x" });
    expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(res.body.detail).toContain("multipart/form-data");
    expect(res.headers["accept-post"]).toBeUndefined();
  });

  it("GraphQL POST takes application/json only: 415 otherwise, as a GraphQL error", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/graphql",
    ]) {
      const res = await t.http
        .post("/graphql")
        .set("authorization", key)
        .set("content-type", type)
        .send('{"query":"mutation { createPortfolio(input: {name: \\"x\\"}) { id } }"}');
      expect(expectGraphqlRefusal(res, 415, "UNSUPPORTED_MEDIA_TYPE")).toContain("application/json");
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
    expect((await t.gql(key, "{ sources { id } }")).status).toBe(200);
  });
});

describe("Location on 201 (API.md §1 writes)", () => {
  it("points at the created resource, under the prefix the request used", async () => {
    const auth = { authorization: key };
    const follow = async (res: request.Response, prefix = "/v1") => {
      expect(res.status).toBe(201);
      expect(res.headers["location"]).toMatch(new RegExp(`^${prefix.replace(/\//g, "\\/")}/`));
      const got = await t.http.get(res.headers["location"]).set(auth);
      expect({ location: res.headers["location"], status: got.status }).toEqual({
        location: res.headers["location"],
        status: 200,
      });
      return got.body;
    };
    const portfolio = await t.http.post("/v1/portfolios").set(auth).send({ name: "Located" });
    expect(portfolio.headers["location"]).toBe(`/v1/portfolios/${portfolio.body.id}`);
    expect(await follow(portfolio)).toEqual(portfolio.body);
    const alias = await t.http.post("/api/v1/portfolios").set(auth).send({ name: "Via alias" });
    expect(alias.headers["location"]).toBe(`/api/v1/portfolios/${alias.body.id}`);
    const p = portfolio.body.id;

    const holding = await t.http.post(`/v1/portfolios/${p}/holdings`).set(auth).send({ symbol: "FARM", name: "Farm" });
    expect((await follow(holding)).id).toBe(holding.body.id);
    const account = await t.http
      .post("/v1/cash-accounts")
      .set(auth)
      .send({ portfolioId: p, name: "Cash", currencyCode: "AUD" });
    expect((await follow(account)).id).toBe(account.body.id);
    const deposit = await t.http
      .post("/v1/cash-transactions")
      .set(auth)
      .send({ cashAccountId: account.body.id, type: "Deposit", date: "2024-01-02", amount: 100 });
    expect((await follow(deposit)).id).toBe(deposit.body.id);
    const group = await t.http
      .post("/v1/custom-groups")
      .set(auth)
      .send({ name: "Risk", labels: ["High", "Low"] });
    expect((await follow(group)).id).toBe(group.body.id);
    const client = await t.http.post("/v1/clients").set(auth).send({ firstName: "Ada", lastName: "Lovelace" });
    expect((await follow(client)).id).toBe(client.body.id);
    const clientKey = await t.http.post(`/v1/clients/${client.body.id}/api-keys`).set(auth);
    expect(clientKey.status).toBe(201);
    // A key is shown once and can never be read back: there is nowhere to point.
    expect(clientKey.headers["location"]).toBeUndefined();
    const model = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set(auth)
      .send({ name: "Balanced", dimension: "assetClass", buckets: [{ label: "Equities", targetPct: 100 }] });
    expect((await follow(model)).publicId).toBe(model.body.publicId);
    // An update of the same model answers 200, with no Location.
    const updated = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set(auth)
      .send({
        publicId: model.body.publicId,
        name: "Balanced",
        dimension: "assetClass",
        buckets: [{ label: "Equities", targetPct: 100 }],
      });
    expect(updated.status).toBe(200);
    expect(updated.headers["location"]).toBeUndefined();
  });

  it("every route answering 201 with one resource says where it is", () => {
    // Bulk answers hold many rows; a new API key cannot be read back.
    const exempt = new Set([
      "importTrades",
      "addCustomPrices",
      "upsertMarketPrices",
      "upsertFxRates",
      "createClientApiKey",
    ]);
    const missing = endpoints
      .filter((e) => e.status === 201 && !e.location && !exempt.has(e.operationId))
      .map((e) => e.operationId);
    expect(missing).toEqual([]);
  });
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

describe("GET / (no key)", () => {
  const LINKS = ["/docs/", "/graphiql", "/graphql", "/v1/openapi.json", "/health", "/ready"];

  it("answers JSON for an API client with the links", async () => {
    const res = await t.http.get("/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.links.map((l: { href: string }) => l.href).sort()).toEqual([...LINKS].sort());
    for (const href of ["/v1/openapi.json", "/health", "/ready", "/docs/"])
      expect({ href, status: (await t.http.get(href)).status }).toEqual({ href, status: 200 });
  });

  it("answers HTML for a browser", async () => {
    const res = await t.http.get("/").set("accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    for (const href of LINKS) expect(res.text).toContain(`href="${href}"`);
  });
});

describe("paging headers (API.md §1 lists)", () => {
  async function ledger(n: number) {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Paged" }).expect(201)).body
      .id as number;
    let holdingId = 0;
    for (let i = 0; i < n; i++) {
      const day = String(i + 1).padStart(2, "0");
      const trade = {
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: `2024-01-${day}`,
        quantity: 1,
        price: 100,
      };
      holdingId = (await t.http.post("/v1/trades").set("authorization", key).send(trade).expect(201)).body.holdingId;
    }
    const account = (
      await t.http
        .post("/v1/cash-accounts")
        .set("authorization", key)
        .send({ portfolioId: p, name: "Cash", currencyCode: "AUD" })
        .expect(201)
    ).body.id;
    await t.http
      .post("/v1/cash-transactions")
      .set("authorization", key)
      .send({ cashAccountId: account, type: "Deposit", date: "2023-12-01", amount: 1000 })
      .expect(201);
    return { p, holdingId };
  }

  /** rel → the link's offset and limit, with the rest of its query. */
  function links(header: string | undefined): Record<string, { path: string; query: Record<string, string> }> {
    const out: Record<string, { path: string; query: Record<string, string> }> = {};
    for (const m of (header ?? "").matchAll(/<([^>]*)>;\s*rel="(\w+)"/g)) {
      const url = new URL(m[1], "http://x");
      out[m[2]] = { path: url.pathname, query: Object.fromEntries(url.searchParams) };
    }
    return out;
  }

  it("GET /v1/portfolios/{p}/transactions says how many rows there are and links the pages", async () => {
    const { p } = await ledger(5); // 5 trades + 1 deposit = 6 rows
    const path = `/v1/portfolios/${p}/transactions`;
    const first = await t.http.get(`${path}?limit=2`).set("authorization", key);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    expect(first.headers["x-total-count"]).toBe("6");
    expect(links(first.headers["link"])).toEqual({
      first: { path, query: { limit: "2", offset: "0" } },
      next: { path, query: { limit: "2", offset: "2" } },
      last: { path, query: { limit: "2", offset: "4" } },
    });

    // Following next to the end visits every row once, in order, as one unpaged call lists them.
    const all = (await t.http.get(path).set("authorization", key)).body;
    expect(all).toHaveLength(6);
    const seen = [];
    let url: string | undefined = `${path}?limit=2`;
    while (url) {
      const res: request.Response = await t.http.get(url).set("authorization", key);
      expect(res.headers["x-total-count"]).toBe("6");
      seen.push(...res.body);
      const next = links(res.headers["link"]).next;
      url = next ? `${next.path}?${new URLSearchParams(next.query)}` : undefined;
    }
    expect(seen).toEqual(all);

    // Filters are kept in the links and counted; the alias links under its own prefix.
    const trades = await t.http
      .get(`/api/v1/portfolios/${p}/transactions?type=Trade&limit=4&offset=1`)
      .set("authorization", key);
    expect(trades.headers["x-total-count"]).toBe("5");
    expect(trades.body).toHaveLength(4);
    expect(links(trades.headers["link"])).toEqual({
      first: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "0" } },
      prev: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "0" } },
      last: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "1" } },
    });
    const cash = await t.http.get(`${path}?type=Deposit&from=2023-01-01&to=2023-12-31`).set("authorization", key);
    expect(cash.headers["x-total-count"]).toBe("1");
    // Past the end: no rows, the count still there.
    const beyond = await t.http.get(`${path}?offset=50&limit=10`).set("authorization", key);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers["x-total-count"]).toBe("6");
    expect(links(beyond.headers["link"]).next).toBeUndefined();
    expect(links(beyond.headers["link"]).prev.query.offset).toBe("0");
  });

  it("GraphQL lists the same page REST does", async () => {
    const { p } = await ledger(3);
    const rest = await t.http.get(`/v1/portfolios/${p}/transactions?limit=2&offset=1`).set("authorization", key);
    const gql = await t.gql(
      key,
      "query($p: ID!) { portfolio(id: $p) { transactions(limit: 2, offset: 1) { kind id date } } }",
      { p: String(p) },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(
      gql.body.data.portfolio.transactions.map((l: { kind: string; id: string; date: string }) => ({
        ...l,
        id: Number(l.id),
      })),
    ).toEqual(
      rest.body.map((l: { kind: string; id: number; date: string }) => ({ kind: l.kind, id: l.id, date: l.date })),
    );
  });

  it("a holding's trades: the service counts what the page is cut from", async () => {
    const { holdingId } = await ledger(5);
    const auth = await authenticateKey(t.db.prisma, key);
    const ctx = buildContext({ db: t.db.prisma, auth, log: pino({ level: "silent" }), series: new SeriesCache() });
    const page = await listHoldingTrades(ctx, holdingId, { limit: "2", offset: "3" });
    expect({
      total: page.total,
      limit: page.limit,
      offset: page.offset,
      dates: page.items.map((x) => x.tradeDate),
    }).toEqual({ total: 5, limit: 2, offset: 3, dates: ["2024-01-04", "2024-01-05"] });
    // Once the REST route is paged, its headers say the same.
    if (endpoints.find((e) => e.operationId === "listHoldingTrades")?.paged) {
      const res = await t.http.get(`/v1/holdings/${holdingId}/trades?limit=2&offset=3`).set("authorization", key);
      expect(res.headers["x-total-count"]).toBe("5");
      expect(links(res.headers["link"]).prev.query).toEqual({ limit: "2", offset: "1" });
    }
  });
});
