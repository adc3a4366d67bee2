import type request from "supertest";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectProblem } from "../support/outcomes";

/**
 * Routing and body errors (the /api/v1 alias, 404, 405, malformed JSON, 413), and a 500 that never
 * leaks internals.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
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
