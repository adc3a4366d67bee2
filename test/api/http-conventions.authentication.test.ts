import { createHash } from "node:crypto";
import type request from "supertest";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectProblem } from "../support/outcomes";

/**
 * Authentication (docs/conventions.md §2): the key's three header forms, 401s without or with an unknown key
 * on both transports, keys stored hashed; GraphQL without a key (introspection only).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
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
