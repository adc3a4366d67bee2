import { createHash } from "node:crypto";
import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";
import { UUID } from "../support/kit";
import { expectProblem } from "../support/outcomes";

/**
 * The cross-cutting HTTP conventions of API.md §1 and §3: authentication, key storage, the
 * documentation and probe endpoints, the /api/v1 alias, error mapping (404, malformed JSON, 413,
 * 500 without leaks), rate limiting, security headers and request ids.
 */

let t: TestApp;
let limited: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  limited = await startTestApp({ rateLimitPerSecond: 1, rateLimitBurst: 3 });
});
afterAll(async () => {
  await limited?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

function expectGraphQLUnauthenticated(res: request.Response): void {
  expect(res.status).toBe(401);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  expect(res.body.data ?? null).toBeNull();
}

describe("authentication (API.md §1 auth)", () => {
  const forms: [string, (k: string) => Record<string, string>][] = [
    ["Authorization: <key>", (k) => ({ authorization: k })],
    ["Authorization: Bearer <key>", (k) => ({ authorization: `Bearer ${k}` })],
    ["x-api-key: <key>", (k) => ({ "x-api-key": k })],
  ];

  it.each(forms)("accepts %s on REST and GraphQL, as the key's own account", async (_label, headers) => {
    const other = await t.newAccount();
    const created = await t.http.post("/v1/portfolios").set(headers(key)).send({ name: "Seen by its key" });
    expect(created.status).toBe(201);
    await t.http.post("/v1/portfolios").set(headers(other)).send({ name: "Someone else's" });

    const list = await t.http.get("/v1/portfolios").set(headers(key));
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(["Seen by its key"]);
    expect((await t.http.get("/v1/sources").set(headers(key))).status).toBe(200);

    const gql = await t.http.post("/graphql").set(headers(key)).send({ query: "{ portfolios { id name } }" });
    expect(gql.status).toBe(200);
    expect(gql.body).toEqual({ data: { portfolios: [{ id: String(created.body.id), name: "Seen by its key" }] } });
  });

  it("treats the Bearer scheme name case-insensitively", async () => {
    expect((await t.http.get("/v1/sources").set("authorization", `bearer ${key}`)).status).toBe(200);
  });

  it("answers 401 problem+json UNAUTHENTICATED on REST without a key or with an unknown one, writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    const unknown = "pfk_" + "A".repeat(43);
    for (const headers of [
      {},
      { authorization: unknown },
      { authorization: `Bearer ${unknown}` },
      { "x-api-key": unknown },
      { authorization: "" },
      { authorization: "Bearer " },
    ]) {
      for (const req of [
        t.http.get("/v1/sources"),
        t.http.get("/v1/portfolios"),
        t.http.post("/v1/portfolios").send({ name: "Anonymous" }),
      ]) {
        const res = await req.set(headers);
        expectProblem(res, 401, "UNAUTHENTICATED");
        expect(res.body.title).toBe("Unauthenticated");
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("answers HTTP 401 with extensions.code UNAUTHENTICATED on GraphQL without a key or with an unknown one", async () => {
    const before = await ledgerSnapshot(t.db);
    const unknown = "pfk_" + "B".repeat(43);
    for (const headers of [
      {},
      { authorization: unknown },
      { authorization: `Bearer ${unknown}` },
      { "x-api-key": unknown },
    ]) {
      expectGraphQLUnauthenticated(await t.http.post("/graphql").set(headers).send({ query: "{ sources { id } }" }));
      expectGraphQLUnauthenticated(
        await t.http
          .post("/graphql")
          .set(headers)
          .send({ query: 'mutation { createPortfolio(input: { name: "Anonymous" }) { id } }' }),
      );
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("stores keys hashed: the clear key is nowhere in api_key, key_hash is its SHA-256 hex", async () => {
    const rows = await t.db.sql<Record<string, unknown>>("SELECT * FROM api_key");
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(4)); // nor its random part without the pfk_ prefix
    const hash = createHash("sha256").update(key).digest("hex");
    const mine = rows.filter((r) => String(r.key_hash).trim() === hash);
    expect(mine).toHaveLength(1);
    for (const r of rows) expect(String(r.key_hash).trim()).toMatch(/^[0-9a-f]{64}$/);
    // The whole database holds it nowhere else either.
    for (const table of ["account", "portfolio", "allocation_model", "allocation_bucket"]) {
      expect(JSON.stringify(await t.db.sql(`SELECT * FROM "${table}"`))).not.toContain(key);
    }
  });
});

describe("GraphQL without a key", () => {
  it("allows introspection", async () => {
    const res = await t.gql(undefined, "{ __schema { types { name } } }");
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const names = res.body.data.__schema.types.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(["Query", "Mutation", "Portfolio", "Source", "AllocationModel"]));
  });

  it("refuses an operation that mixes introspection with data", async () => {
    expectGraphQLUnauthenticated(await t.gql(undefined, "{ __typename sources { id } }"));
    expectGraphQLUnauthenticated(await t.gql(undefined, "{ __typename portfolios { id } }"));
    // With several operations, the one named by operationName decides.
    const both = "query A { __typename } query B { sources { id } }";
    expectGraphQLUnauthenticated(await t.http.post("/graphql").send({ query: both, operationName: "B" }));
    const meta = await t.http.post("/graphql").send({ query: both, operationName: "A" });
    expect(meta.status).toBe(200);
    expect(meta.body).toEqual({ data: { __typename: "Query" } });
    // A fragment that reaches for data is data.
    expectGraphQLUnauthenticated(
      await t.gql(undefined, "query { ...F } fragment F on Query { __typename sources { id } }"),
    );
  });

  it("serves the Apollo Sandbox landing page to a browser at GET /graphql", async () => {
    const res = await t.http.get("/graphql").set("accept", "text/html");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html/i);
  });
});

describe("probes and documentation need no key", () => {
  it("/health answers 200 {status: ok}", async () => {
    const res = await t.http.get("/health");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("/ready answers 200 {status: ready}", async () => {
    const res = await t.http.get("/ready");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: "ready" });
  });

  it("/v1/openapi.json is OpenAPI 3.1 and documents every path with its methods", async () => {
    const res = await t.http.get("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const expected: Record<string, string[]> = {
      "/v1/sources": ["get"],
      "/v1/portfolios": ["get", "post"],
      "/v1/portfolios/{portfolioId}": ["delete", "get", "put"],
      "/v1/portfolios/{portfolioId}/allocation-models": ["get", "post"],
      "/v1/portfolios/{portfolioId}/allocation-models/active": ["get"],
      "/v1/allocation-models/{publicId}": ["delete", "get"],
      "/v1/allocation-models/{publicId}/activate": ["post"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths[path]).toBeDefined();
      const documented = Object.keys(doc.paths[path]).filter((m) =>
        ["get", "put", "post", "delete", "patch"].includes(m),
      );
      expect({ path, methods: documented.sort() }).toEqual({ path, methods });
      for (const m of methods) {
        expect(doc.paths[path][m].responses).toBeDefined();
        // Every path parameter of the template is declared.
        const declared = (doc.paths[path][m].parameters ?? [])
          .filter((p: { in: string }) => p.in === "path")
          .map((p: { name: string }) => p.name);
        const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
        expect(declared.sort()).toEqual(inTemplate.sort());
      }
    }
    // Same document through the alias.
    expect((await t.http.get("/api/v1/openapi.json")).body).toEqual(doc);
  });

  it("documents the request body schema of POST /v1/portfolios", async () => {
    const doc = (await t.http.get("/v1/openapi.json")).body;
    const body = doc.paths["/v1/portfolios"].post.requestBody;
    expect(body).toBeDefined();
    let schema = body.content["application/json"].schema;
    const seen = new Set<string>();
    while (schema?.$ref) {
      expect(schema.$ref).toMatch(/^#\/components\/schemas\//);
      expect(seen.has(schema.$ref)).toBe(false);
      seen.add(schema.$ref);
      schema = doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
    }
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties).sort()).toEqual([
      "baseCurrencyCode",
      "entityType",
      "financialYearEnd",
      "name",
      "taxResidency",
    ]);
    expect(schema.required).toEqual(["name"]);
    // Every $ref in the document resolves.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    for (const r of new Set(refs))
      expect({ ref: r, found: r in doc.components.schemas }).toEqual({ ref: r, found: true });
  });

  it("/docs/ is an HTML page whose scripts and styles are served locally", async () => {
    const redirect = await t.http.get("/docs");
    expect([200, 301, 302, 308]).toContain(redirect.status);

    const res = await t.http.get("/docs/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    const html = res.text;
    const refs = [...html.matchAll(/\s(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    const scripts = [...html.matchAll(/<script[^>]*\ssrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link[^>]*rel\s*=\s*["']stylesheet["'][^>]*>/gi)];
    expect(refs.length).toBeGreaterThanOrEqual(3);
    expect(scripts.length).toBeGreaterThanOrEqual(1);
    expect(styles.length).toBeGreaterThanOrEqual(1);
    // No asset from a CDN: every URL in the page is local, apart from XML namespace names.
    const absolute = [...html.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi)].map((m) => m[0]);
    expect(absolute.filter((u) => !/^http:\/\/www\.w3\.org\//.test(u))).toEqual([]);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^(https?:)?\/\//i);
      const url = new URL(ref, "http://localhost/docs/");
      expect(url.pathname.startsWith("/docs/")).toBe(true);
      const asset = await t.http.get(url.pathname);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      if (/\.js$/.test(url.pathname)) expect(asset.headers["content-type"]).toMatch(/javascript/);
      if (/\.css$/.test(url.pathname)) expect(asset.headers["content-type"]).toMatch(/^text\/css/);
    }
  });
});

describe("routing and body errors", () => {
  it("serves /api/v1/... as an alias of /v1/...", async () => {
    const v1 = await t.http.get("/v1/sources").set("authorization", key);
    const alias = await t.http.get("/api/v1/sources").set("authorization", key);
    expect(v1.status).toBe(200);
    expect(alias.status).toBe(200);
    expect(alias.headers["content-type"]).toBe(v1.headers["content-type"]);
    expect(alias.body).toEqual(v1.body);
    expectProblem(await t.http.get("/api/v1/sources"), 401, "UNAUTHENTICATED");

    const created = await t.http.post("/api/v1/portfolios").set("authorization", key).send({ name: "Via alias" });
    expect(created.status).toBe(201);
    expect((await t.http.get(`/v1/portfolios/${created.body.id}`).set("authorization", key)).body).toEqual(
      created.body,
    );
  });

  it("answers 404 problem+json NOT_FOUND for an unknown route, writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const req of [
      t.http.get("/nope"),
      t.http.post("/nope").send({ name: "x" }),
      t.http.get("/v1/nope").set("authorization", key),
      t.http.post("/v1/nope").set("authorization", key).send({ name: "x" }),
      t.http.patch("/v1/portfolios/1/nope").set("authorization", key).send({ name: "x" }),
      t.http.get("/api/v1/nope").set("authorization", key),
    ]) {
      const res = await req;
      expectProblem(res, 404, "NOT_FOUND");
      expect(res.body.requestId).toBe(res.headers["x-request-id"]);
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("answers 405 problem+json METHOD_NOT_ALLOWED with Allow for a known path's wrong method, writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    const res = await t.http.patch("/v1/portfolios").set("authorization", key).send({ name: "x" });
    expectProblem(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers["allow"]).toBe("GET, HEAD, POST");
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("answers 400 problem+json VALIDATION_FAILED for malformed JSON, writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const path of ["/v1/portfolios", "/graphql"]) {
      const res = await t.http
        .post(path)
        .set("authorization", key)
        .set("content-type", "application/json")
        .send('{"name": "Broken",');
      expect(res.status).toBe(400);
      if (path !== "/graphql") expectProblem(res, 400, "VALIDATION_FAILED");
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("answers 413 for a JSON body over 1 MiB (problem+json; GraphQL: a GraphQL error), writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    const big = JSON.stringify({ name: "Big", notes: "x".repeat(1024 * 1024 + 16) });
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    for (const path of ["/v1/portfolios", "/graphql"]) {
      const res = await t.http.post(path).set("authorization", key).set("content-type", "application/json").send(big);
      expect(res.status).toBe(413);
      if (path === "/graphql") {
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        expect(res.body.errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
      } else {
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" });
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
    // A body just under the limit is read (and then judged on its content).
    const fits = `{"name": "Fits"${" ".repeat(1000 * 1000)}}`;
    const ok = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .set("content-type", "application/json")
      .send(fits);
    expect(ok.status).toBe(201);
  });
});

describe("a 500 never leaks internals", () => {
  const LEAKS = [
    "source_broken",
    "SELECT",
    "select ",
    " at ",
    "at /",
    "prisma",
    "Prisma",
    "relation",
    "does not exist",
    "node_modules",
    ".ts:",
  ];

  async function withBrokenSourceTable(run: () => Promise<void>): Promise<void> {
    await t.db.sql("ALTER TABLE source RENAME TO source_broken");
    try {
      await run();
    } finally {
      await t.db.sql("ALTER TABLE source_broken RENAME TO source");
    }
  }

  it("REST answers 500 problem+json INTERNAL with a generic body", async () => {
    await withBrokenSourceTable(async () => {
      const res = await t.http.get("/v1/sources").set("authorization", key);
      expectProblem(res, 500, "INTERNAL");
      expect(res.body.errors).toBeUndefined();
      expect(res.body.requestId).toBe(res.headers["x-request-id"]);
      for (const leak of LEAKS) expect({ leak, found: res.text.includes(leak) }).toEqual({ leak, found: false });
      expect(Object.keys(res.body).sort()).toEqual(["code", "detail", "requestId", "status", "title", "type"]);
    });
    // Repaired: the same request works again.
    expect((await t.http.get("/v1/sources").set("authorization", key)).status).toBe(200);
  });

  it("GraphQL answers extensions.code INTERNAL with a message without SQL", async () => {
    await withBrokenSourceTable(async () => {
      const res = await t.gql(key, "{ sources { id } }");
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      const [error] = res.body.errors;
      expect(error.extensions.code).toBe("INTERNAL");
      expect(error.extensions.stacktrace).toBeUndefined();
      expect(error.extensions.exception).toBeUndefined();
      for (const leak of LEAKS) expect({ leak, found: res.text.includes(leak) }).toEqual({ leak, found: false });
    });
    expect((await t.gql(key, "{ sources { id } }")).body.errors).toBeUndefined();
  });
});

describe("rate limit (API.md §1 limits)", () => {
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
