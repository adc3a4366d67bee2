import type request from "supertest";
import { loadConfig, parseCorsOrigins } from "../../src/config";
import { useTestApp, type TestApp } from "../support/app";
import { measured } from "../support/kit";

/**
 * CORS for browsers (docs/conventions.md §10, CORS_ORIGINS): preflights, allowed and other origins, `*`, and how
 * the setting is read.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const ALLOWED = "https://app.example.com";
const OTHER = "https://evil.example.net";

const listOf = (header: string | undefined) =>
  (header ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
const corsHeaders = (res: request.Response) => Object.keys(res.headers).filter((h) => h.startsWith("access-control-"));

describe("CORS (API.md §1 browsers: CORS_ORIGINS)", () => {
  const browser = useTestApp({ corsOrigins: [ALLOWED, "http://localhost:5173"], reset: "none" });
  const anyOrigin = useTestApp({ corsOrigins: ["*"], reset: "none" });
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
