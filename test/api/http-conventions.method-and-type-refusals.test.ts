import type request from "supertest";
import { endpoints } from "../../src/http/router";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { measured } from "../support/kit";
import { expectProblem } from "../support/outcomes";

/**
 * Refusals before a route runs (docs/conventions.md §5): 405 with Allow for a wrong method, 415 naming the
 * accepted types for a body the route does not take.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

/**
 * A refusal on /graphql before Apollo runs: the same status and code, as a GraphQL response
 * (docs/conventions.md §9.3).
 */
function expectGraphqlRefusal(res: request.Response, status: number, code: string): string {
  expect({ status: res.status, type: res.headers["content-type"] }).toEqual({
    status,
    type: expect.stringMatching(/^application\/json/),
  });
  expect(res.body.errors).toEqual([{ message: expect.any(String), extensions: expect.objectContaining({ code }) }]);
  return res.body.errors[0].message;
}

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
