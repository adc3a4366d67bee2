import type request from "supertest";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { type Portfolio, PORTFOLIO_KEYS, created, portfoliosApi } from "./portfolios.transports";

/**
 * What only one transport shows about portfolios: REST bodies, problem+json and ids; GraphQL nulls and error extensions.
 * (Split from portfolios.test.ts by story; the transports and setup functions are in ./portfolios.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, rest, restGet } = portfoliosApi(t);

describe("REST specifics", () => {
  const problemShape = (body: Record<string, unknown>) => {
    const { detail: _detail, requestId: _requestId, ...rest } = body;
    return rest;
  };

  it("answers 201 with a body of exactly the documented fields, and 204 with no body on delete", async () => {
    const res = await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "P" });
    expect(res.status).toBe(201);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(PORTFOLIO_KEYS);
    expect(typeof res.body.id).toBe("number");
    const del = await t.http.delete(`/v1/portfolios/${res.body.id}`).set("authorization", key);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect(del.headers["content-type"]).toBeUndefined();
  });

  it("rejects a body that is not JSON (415 naming JSON) or no body at all (400 naming the body), writing nothing", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const req of [
      t.http.post("/v1/portfolios").set("authorization", key).set("content-type", "text/plain").send("name=Plain"),
      t.http
        .post("/v1/portfolios")
        .set("authorization", key)
        .set("content-type", "application/x-www-form-urlencoded")
        .send("name=Form"),
    ]) {
      const res = await req;
      expect(res.status).toBe(415);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        status: 415,
        code: "UNSUPPORTED_MEDIA_TYPE",
        detail: expect.stringContaining("application/json"),
      });
      expect(res.headers["accept-post"]).toContain("application/json");
    }
    const none = await t.http.post("/v1/portfolios").set("authorization", key);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      status: 400,
      code: "VALIDATION_FAILED",
      errors: [{ path: "(body)", message: expect.any(String) }],
    });
    // A JSON value that is not an object is refused the same way.
    const arr = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .send([{ name: "in an array" }]);
    expect(arr.status).toBe(400);
    expect(arr.body).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "(body)" }] });
    // Malformed JSON: 400 VALIDATION_FAILED as well.
    const bad = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .set("content-type", "application/json")
      .send('{"name": "x",');
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(bad.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("PUT with a body that is not JSON answers 415 naming JSON, rather than succeeding as an empty change", async () => {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Unchanged" }))
      .body as Portfolio;
    const before = await ledgerSnapshot(t.db);
    for (const [type, body] of [
      ["text/plain", "name=Renamed"],
      ["application/x-www-form-urlencoded", "name=Renamed"],
    ]) {
      const res = await t.http
        .put(`/v1/portfolios/${p.id}`)
        .set("authorization", key)
        .set("content-type", type)
        .send(body);
      expect({ type, status: res.status, code: res.body.code }).toEqual({
        type,
        status: 415,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toContain("application/json");
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("problem+json for a validation failure carries type, title, status, detail, code, errors", async () => {
    const res = await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: expect.stringMatching(/^https?:\/\/\S+$/),
      title: "Validation failed",
      status: 400,
      detail: expect.stringContaining("name"),
      code: "VALIDATION_FAILED",
      errors: [{ path: "name", message: expect.any(String) }],
      requestId: res.headers["x-request-id"],
    });
  });

  it("bad ids: abc and 0 → 400, 999999 → 404, on GET, PUT and DELETE", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const method of ["get", "put", "delete"] as const) {
      for (const [id, status] of [
        ["abc", 400],
        ["0", 400],
        ["999999", 404],
        ["2147483648", 400],
        ["2147483647", 404],
      ] as const) {
        const req = t.http[method](`/v1/portfolios/${id}`).set("authorization", key);
        const res = await (method === "put" ? req.send({ name: "x" }) : req);
        expect({ method, id, status: res.status, code: res.body.code }).toEqual({
          method,
          id,
          status,
          code: status === 400 ? "VALIDATION_FAILED" : "NOT_FOUND",
        });
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        if (status === 400) expect(res.body.errors).toEqual([{ path: "portfolioId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("another account's portfolio answers 404 with the same body as a missing id on GET, PUT and DELETE", async () => {
    const other = await t.newAccount();
    const mine = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Mine" }))
      .body as Portfolio;
    const before = await ledgerSnapshot(t.db);
    for (const method of ["get", "put", "delete"] as const) {
      const send = (id: number) => {
        const req = t.http[method](`/v1/portfolios/${id}`).set("authorization", other);
        return method === "put" ? req.send({ name: "Hijacked" }) : req;
      };
      const foreign = await send(mine.id);
      const missing = await send(999999);
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(foreign.headers["content-type"]).toBe(missing.headers["content-type"]);
      expect(Object.keys(foreign.body).sort()).toEqual(Object.keys(missing.body).sort());
      expect(problemShape(foreign.body)).toEqual(problemShape(missing.body));
      expect(foreign.body.code).toBe("NOT_FOUND");
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
    expect((await restGet(key, mine.id)).body).toEqual(mine);
  });

  it("PUT with a different base currency answers 422 problem+json", async () => {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "P" })).body as Portfolio;
    const res = await t.http.put(`/v1/portfolios/${p.id}`).set("authorization", key).send({ baseCurrencyCode: "NZD" });
    expect(res.status).toBe(422);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 422,
      code: "BUSINESS_RULE",
      title: expect.any(String),
      detail: expect.any(String),
    });
  });
});

describe("GraphQL specifics", () => {
  it("portfolio(id) is null for a missing id and for another account's portfolio; mutations answer NOT_FOUND", async () => {
    const other = await t.newAccount();
    const mine = await created(rest, key, { name: "Mine" });
    const before = await ledgerSnapshot(t.db);

    for (const id of ["999999", String(mine.id)]) {
      const res = await t.gql(other, `query ($id: ID!) { portfolio(id: $id) { id name } }`, { id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { portfolio: null } });
    }
    const upd = await t.gql(
      other,
      `mutation ($id: ID!) { updatePortfolio(id: $id, input: { name: "Hijacked" }) { id } }`,
      { id: String(mine.id) },
    );
    expect(upd.body.data).toBeNull();
    expect(upd.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(upd.body.errors[0].path).toEqual(["updatePortfolio"]);
    const del = await t.gql(other, `mutation ($id: ID!) { deletePortfolio(id: $id) }`, { id: String(mine.id) });
    expect(del.body.data).toBeNull();
    expect(del.body.errors[0].extensions.code).toBe("NOT_FOUND");

    expect(await ledgerSnapshot(t.db)).toBe(before);
    expect((await restGet(key, mine.id)).body).toEqual(mine);
  });

  it("a service validation failure carries VALIDATION_FAILED and the bad paths in extensions.errors", async () => {
    const res = await t.gql(key, `mutation { createPortfolio(input: { name: "", baseCurrencyCode: "aud" }) { id } }`);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      message: expect.any(String),
      path: ["createPortfolio"],
      extensions: {
        code: "VALIDATION_FAILED",
        errors: expect.arrayContaining([
          { path: "name", message: expect.any(String) },
          { path: "baseCurrencyCode", message: expect.any(String) },
        ]),
      },
    });
    expect(await count("portfolio")).toBe(0);
  });

  it("a different base currency carries BUSINESS_RULE", async () => {
    const p = await created(rest, key, { name: "P" });
    const res = await t.gql(
      key,
      `mutation ($id: ID!) { updatePortfolio(id: $id, input: { baseCurrencyCode: "EUR" }) { id baseCurrencyCode } }`,
      { id: String(p.id) },
    );
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe("BUSINESS_RULE");
    expect((await restGet(key, p.id)).body.baseCurrencyCode).toBe("AUD");
  });

  it("a portfolio's allocation models are gone with it", async () => {
    const p = await created(rest, key, { name: "P" });
    const saved = await t.http
      .post(`/v1/portfolios/${p.id}/allocation-models`)
      .set("authorization", key)
      .send({ name: "Model", dimension: "assetClass", buckets: [{ label: "A", targetPct: 100 }] });
    expect(saved.status).toBe(201);
    const res = await t.gql(key, `query ($id: ID!) { portfolio(id: $id) { allocationModels { name } } }`, {
      id: String(p.id),
    });
    expect(res.body.data.portfolio.allocationModels).toEqual([{ name: "Model" }]);
    const del = await t.gql(key, `mutation ($id: ID!) { deletePortfolio(id: $id) }`, { id: String(p.id) });
    expect(del.body).toEqual({ data: { deletePortfolio: true } });
    expect(await count("allocation_model")).toBe(0);
    expect(await count("allocation_bucket")).toBe(0);
  });
});
