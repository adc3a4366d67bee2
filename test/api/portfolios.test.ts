import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Portfolios (API.md §2 Portfolios, §1 conventions, §3 GraphQL): every rule is exercised over
 * REST and over GraphQL on the same scenarios, through one small transport interface, so the two
 * adapters are proven to share the service's behaviour. Transport-specific details (status codes,
 * problem+json, GraphQL nullability) are checked beside them.
 */

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

interface Portfolio {
  id: number;
  name: string;
  dateCreated: string;
  baseCurrencyCode: string;
  taxResidency: string;
  entityType: string;
  financialYearEnd: string;
}

interface FieldError {
  path: string;
  message: string;
}

/** What one operation answered, the same shape for both transports. */
interface Outcome<T> {
  /** HTTP status of the answer. */
  status: number;
  /** The operation's result when it succeeded. */
  data?: T;
  /** The stable error code when it failed (problem+json `code` / `extensions.code`). */
  code?: string;
  errors?: FieldError[];
  res: request.Response;
}

interface Transport {
  name: "REST" | "GraphQL";
  create(key: string, input: unknown): Promise<Outcome<Portfolio>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Portfolio>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  list(key: string): Promise<Outcome<Portfolio[]>>;
  /** REST: GET /v1/portfolios/{id} (404 when absent); GraphQL: portfolio(id) (null when absent). */
  get(key: string, id: unknown): Promise<Outcome<Portfolio | null>>;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const FIELDS = "id name dateCreated baseCurrencyCode taxResidency entityType financialYearEnd";
const PORTFOLIO_KEYS = ["baseCurrencyCode", "dateCreated", "entityType", "financialYearEnd", "id", "name", "taxResidency"];

function restOutcome<T>(res: request.Response, success: number): Outcome<T> {
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), title: expect.any(String), type: expect.any(String), detail: expect.any(String) });
    return { status: res.status, code: res.body.code, errors: res.body.errors, res };
  }
  expect(res.status).toBe(success);
  if (success === 204) {
    expect(res.text ?? "").toBe("");
    return { status: res.status, data: true as T, res };
  }
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  return { status: res.status, data: res.body, res };
}

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
const fromGraphQL = (p: (Omit<Portfolio, "id"> & { id: string }) | null): Portfolio | null => {
  if (!p) return null;
  expect(p.id).toMatch(/^\d+$/);
  return { ...p, id: Number(p.id) };
};

function gqlOutcome<T>(res: request.Response, field: string, map: (v: never) => T = (v) => v): Outcome<T> {
  expect(res.headers["content-type"]).toMatch(/^application\/(graphql-response\+)?json/);
  const errors = res.body.errors as { message: string; extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    expect(res.body.data?.[field] ?? null).toBeNull();
    return { status: res.status, code: errors[0].extensions?.code, errors: errors[0].extensions?.errors, res };
  }
  expect(res.status).toBe(200);
  return { status: res.status, data: map(res.body.data[field] as never), res };
}

const rest: Transport = {
  name: "REST",
  create: async (k, input) => restOutcome(await t.http.post("/v1/portfolios").set("authorization", k).send(input as object), 201),
  update: async (k, id, input) => restOutcome(await t.http.put(`/v1/portfolios/${id}`).set("authorization", k).send(input as object), 200),
  remove: async (k, id) => restOutcome(await t.http.delete(`/v1/portfolios/${id}`).set("authorization", k), 204),
  list: async (k) => restOutcome(await t.http.get("/v1/portfolios").set("authorization", k), 200),
  get: async (k, id) => restOutcome(await t.http.get(`/v1/portfolios/${id}`).set("authorization", k), 200),
};

const graphql: Transport = {
  name: "GraphQL",
  create: async (k, input) =>
    gqlOutcome(await t.gql(k, `mutation ($input: CreatePortfolioInput!) { createPortfolio(input: $input) { ${FIELDS} } }`, { input }), "createPortfolio", (p: never) => fromGraphQL(p)!),
  update: async (k, id, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!, $input: UpdatePortfolioInput!) { updatePortfolio(id: $id, input: $input) { ${FIELDS} } }`, { id: String(id), input }),
      "updatePortfolio",
      (p: never) => fromGraphQL(p)!,
    ),
  remove: async (k, id) => gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deletePortfolio(id: $id) }`, { id: String(id) }), "deletePortfolio"),
  list: async (k) =>
    gqlOutcome(await t.gql(k, `{ portfolios { ${FIELDS} } }`), "portfolios", (ps: (Omit<Portfolio, "id"> & { id: string })[]) => ps.map((p) => fromGraphQL(p)!)),
  get: async (k, id) => gqlOutcome(await t.gql(k, `query ($id: ID!) { portfolio(id: $id) { ${FIELDS} } }`, { id: String(id) }), "portfolio", fromGraphQL),
};

/** The operation failed with this code; on REST also with this HTTP status. */
function expectFailure(tr: Transport, o: Outcome<unknown>, code: string, status: number): void {
  expect({ code: o.code, data: o.data }).toEqual({ code, data: undefined });
  if (tr.name === "REST") expect(o.status).toBe(status);
}

/** VALIDATION_FAILED whose `errors` name exactly this path (each issue on it). */
function expectInvalid(tr: Transport, o: Outcome<unknown>, path: string): void {
  expectFailure(tr, o, "VALIDATION_FAILED", 400);
  expect(Array.isArray(o.errors)).toBe(true);
  expect(o.errors!.length).toBeGreaterThanOrEqual(1);
  for (const e of o.errors!) expect(e).toEqual({ path, message: expect.any(String) });
}

/** Reads that find nothing: REST 404 NOT_FOUND, GraphQL portfolio(id) null without error. */
function expectAbsent(tr: Transport, o: Outcome<Portfolio | null>): void {
  if (tr.name === "REST") return expectFailure(tr, o, "NOT_FOUND", 404);
  expect(o.code).toBeUndefined();
  expect(o.data).toBeNull();
}

async function created(tr: Transport, k: string, input: Record<string, unknown>): Promise<Portfolio> {
  const o = await tr.create(k, input);
  expect(o.code).toBeUndefined();
  return o.data!;
}

async function restGet(k: string, id: number): Promise<request.Response> {
  return t.http.get(`/v1/portfolios/${id}`).set("authorization", k);
}

async function count(table: string): Promise<number> {
  const [row] = await t.db.sql<{ n: unknown }>(`SELECT count(*) AS n FROM "${table}"`);
  return Number(row.n);
}

/** Field values that the service must reject, with the path it must name. */
const BAD_FIELDS: [string, Record<string, unknown>, string][] = [
  ["an empty name", { name: "" }, "name"],
  ["a blank name", { name: "   " }, "name"],
  ["a 201-character name", { name: "x".repeat(201) }, "name"],
  // PostgreSQL text cannot hold U+0000: it must be refused as input, not fail in the database (500).
  ["a name with a NUL character", { name: "a\u0000b" }, "name"],
  ['baseCurrencyCode "aud" (lower case)', { baseCurrencyCode: "aud" }, "baseCurrencyCode"],
  ['baseCurrencyCode "XYZ" (not ISO 4217)', { baseCurrencyCode: "XYZ" }, "baseCurrencyCode"],
  ['baseCurrencyCode "AUDD"', { baseCurrencyCode: "AUDD" }, "baseCurrencyCode"],
  ['taxResidency "XX" (not ISO 3166)', { taxResidency: "XX" }, "taxResidency"],
  ['taxResidency "aus"', { taxResidency: "aus" }, "taxResidency"],
  ['financialYearEnd "13-01"', { financialYearEnd: "13-01" }, "financialYearEnd"],
  ['financialYearEnd "02-30"', { financialYearEnd: "02-30" }, "financialYearEnd"],
  ['financialYearEnd "6/30"', { financialYearEnd: "6/30" }, "financialYearEnd"],
];

describe.each([rest, graphql])("portfolios over $name", (tr) => {
  describe("create", () => {
    it("answers the new portfolio with the documented defaults (AUD, AU, Individual, 06-30)", async () => {
      const o = await tr.create(key, { name: "Retirement" });
      expect(o.code).toBeUndefined();
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(PORTFOLIO_KEYS);
      }
      expect(o.data).toEqual({
        id: expect.any(Number),
        name: "Retirement",
        dateCreated: expect.stringMatching(ISO_UTC),
        baseCurrencyCode: "AUD",
        taxResidency: "AU",
        entityType: "Individual",
        financialYearEnd: "06-30",
      });
      expect(Number.isInteger(o.data!.id) && o.data!.id > 0).toBe(true);
      expect(new Date(o.data!.dateCreated).toISOString()).toBe(o.data!.dateCreated);
      // What was answered is what was stored.
      expect((await rest.get(key, o.data!.id)).data).toEqual(o.data);
      expect(await count("portfolio")).toBe(1);
    });

    it("keeps every field given explicitly", async () => {
      const p = await created(tr, key, { name: "Family trust", baseCurrencyCode: "USD", taxResidency: "US", entityType: "Trust", financialYearEnd: "09-30" });
      expect(p).toMatchObject({ name: "Family trust", baseCurrencyCode: "USD", taxResidency: "US", entityType: "Trust", financialYearEnd: "09-30" });
      expect((await rest.get(key, p.id)).data).toEqual(p);
    });

    it("defaults the financial year end from the tax residency (NZ 03-31, GB 04-05, other 12-31)", async () => {
      expect((await created(tr, key, { name: "Kiwi", taxResidency: "NZ", baseCurrencyCode: "NZD" })).financialYearEnd).toBe("03-31");
      expect((await created(tr, key, { name: "UK", taxResidency: "GB", baseCurrencyCode: "GBP" })).financialYearEnd).toBe("04-05");
      expect((await created(tr, key, { name: "US", taxResidency: "US", baseCurrencyCode: "USD" })).financialYearEnd).toBe("12-31");
      // An explicit year end wins over the residency's default.
      expect((await created(tr, key, { name: "Kiwi 2", taxResidency: "NZ", financialYearEnd: "06-30" })).financialYearEnd).toBe("06-30");
    });

    it("accepts each entity type and a name of exactly 200 characters", async () => {
      for (const entityType of ["Individual", "Trust", "SMSF", "Company"]) {
        expect((await created(tr, key, { name: entityType, entityType })).entityType).toBe(entityType);
      }
      expect((await created(tr, key, { name: "n".repeat(200) })).name).toBe("n".repeat(200));
    });

    it.each(BAD_FIELDS)("rejects %s with VALIDATION_FAILED naming the field, writing nothing", async (_label, fields, path) => {
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.create(key, { name: "Valid name", ...fields }), path);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("rejects an input without a name, writing nothing", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { baseCurrencyCode: "AUD" });
      if (tr.name === "REST") expectInvalid(tr, o, "name");
      // GraphQL: name is String! in CreatePortfolioInput, so the schema rejects it first.
      else expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it('rejects entityType "Person", writing nothing', async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { name: "P", entityType: "Person" });
      if (tr.name === "REST") expectInvalid(tr, o, "entityType");
      else {
        // An enum value GraphQL itself refuses: BAD_USER_INPUT is its spelling of VALIDATION_FAILED (API.md §3).
        expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
        expect(o.res.body.errors[0].message).toContain("entityType");
      }
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("reports every bad field at once", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { name: "", baseCurrencyCode: "aud", taxResidency: "XX", financialYearEnd: "13-01" });
      expectFailure(tr, o, "VALIDATION_FAILED", 400);
      expect(new Set(o.errors!.map((e) => e.path))).toEqual(new Set(["name", "baseCurrencyCode", "taxResidency", "financialYearEnd"]));
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("list and get", () => {
    it("lists only the caller's portfolios, ordered by id", async () => {
      const other = await t.newAccount();
      const a = await created(tr, key, { name: "Zeta" });
      const foreign = await created(tr, other, { name: "Other's" });
      const b = await created(tr, key, { name: "Alpha" });
      const c = await created(tr, key, { name: "Mid" });
      const mine = await tr.list(key);
      expect(mine.code).toBeUndefined();
      expect(mine.data).toEqual([a, b, c]);
      expect(mine.data!.map((p) => p.id)).toEqual([a.id, b.id, c.id].sort((x, y) => x - y));
      expect((await tr.list(other)).data).toEqual([foreign]);
    });

    it("lists nothing for an account without portfolios", async () => {
      const o = await tr.list(key);
      expect(o.data).toEqual([]);
      if (tr.name === "REST") expect(o.res.text).toBe("[]");
    });

    it("gets one portfolio by id (a string id works too)", async () => {
      const p = await created(tr, key, { name: "One", entityType: "SMSF" });
      await created(tr, key, { name: "Two" });
      expect((await tr.get(key, p.id)).data).toEqual(p);
      expect((await tr.get(key, String(p.id))).data).toEqual(p);
    });

    it("finds nothing for an id that does not exist", async () => {
      await created(tr, key, { name: "One" });
      expectAbsent(tr, await tr.get(key, 999999));
    });

    it.each([["abc"], ["0"], ["-1"], ["1.5"]])("rejects the id %p with VALIDATION_FAILED on portfolioId", async (id) => {
      expectInvalid(tr, await tr.get(key, id), "portfolioId");
    });
  });

  describe("update", () => {
    it("renames, changes the entity type and the tax residency; absent fields stay as they are", async () => {
      const p = await created(tr, key, { name: "Old", entityType: "Individual" });

      const renamed = await tr.update(key, p.id, { name: "New" });
      expect(renamed.code).toBeUndefined();
      expect(renamed.data).toEqual({ ...p, name: "New" });

      const retyped = await tr.update(key, p.id, { entityType: "Company" });
      expect(retyped.data).toEqual({ ...p, name: "New", entityType: "Company" });

      // Changing the residency changes nothing else (the year end is only defaulted at creation).
      const moved = await tr.update(key, p.id, { taxResidency: "NZ" });
      expect(moved.data).toEqual({ ...p, name: "New", entityType: "Company", taxResidency: "NZ" });

      const yearEnd = await tr.update(key, p.id, { financialYearEnd: "03-31" });
      expect(yearEnd.data).toEqual({ ...p, name: "New", entityType: "Company", taxResidency: "NZ", financialYearEnd: "03-31" });

      const nothing = await tr.update(key, p.id, {});
      expect(nothing.data).toEqual(yearEnd.data);

      expect((await rest.get(key, p.id)).data).toEqual(yearEnd.data);
      expect((await rest.get(key, p.id)).data!.dateCreated).toBe(p.dateCreated);
    });

    it("changes several fields at once", async () => {
      const p = await created(tr, key, { name: "Old" });
      const o = await tr.update(key, p.id, { name: "  Trimmed  ", entityType: "Trust", taxResidency: "GB", financialYearEnd: "04-05" });
      expect(o.data).toEqual({ ...p, name: "Trimmed", entityType: "Trust", taxResidency: "GB", financialYearEnd: "04-05" });
    });

    it("accepts baseCurrencyCode equal to the current one", async () => {
      const p = await created(tr, key, { name: "USD book", baseCurrencyCode: "USD", taxResidency: "US" });
      const o = await tr.update(key, p.id, { baseCurrencyCode: "USD", name: "Still USD" });
      expect(o.code).toBeUndefined();
      expect(o.data).toEqual({ ...p, name: "Still USD" });
    });

    it("refuses a different baseCurrencyCode with 422 BUSINESS_RULE and writes nothing, not even the other fields", async () => {
      const p = await created(tr, key, { name: "AUD book" });
      const before = await ledgerSnapshot(t.db);
      const o = await tr.update(key, p.id, { baseCurrencyCode: "USD", name: "Renamed too" });
      expectFailure(tr, o, "BUSINESS_RULE", 422);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await rest.get(key, p.id)).data).toEqual(p);
    });

    it.each(BAD_FIELDS)("rejects %s with VALIDATION_FAILED naming the field, writing nothing", async (_label, fields, path) => {
      const p = await created(tr, key, { name: "Unchanged" });
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.update(key, p.id, { ...fields }), path);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await rest.get(key, p.id)).data).toEqual(p);
    });

    it('rejects entityType "Person", writing nothing', async () => {
      const p = await created(tr, key, { name: "Unchanged" });
      const before = await ledgerSnapshot(t.db);
      const o = await tr.update(key, p.id, { entityType: "Person" });
      if (tr.name === "REST") expectInvalid(tr, o, "entityType");
      else expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for an id that does not exist, and rejects a malformed id", async () => {
      await created(tr, key, { name: "One" });
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.update(key, 999999, { name: "x" }), "NOT_FOUND", 404);
      expectInvalid(tr, await tr.update(key, "abc", { name: "x" }), "portfolioId");
      expectInvalid(tr, await tr.update(key, "0", { name: "x" }), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("delete", () => {
    it("removes the portfolio; afterwards it is gone and a second delete is NOT_FOUND", async () => {
      const p = await created(tr, key, { name: "Doomed" });
      const keep = await created(tr, key, { name: "Kept" });
      const o = await tr.remove(key, p.id);
      expect(o.code).toBeUndefined();
      expect(o.data).toBe(true);
      if (tr.name === "REST") expect(o.status).toBe(204);

      expectAbsent(tr, await tr.get(key, p.id));
      expectFailure(rest, await rest.get(key, p.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.remove(key, p.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.update(key, p.id, { name: "back" }), "NOT_FOUND", 404);
      expect((await tr.list(key)).data).toEqual([keep]);
    });

    it("removes the portfolio's allocation models and their buckets, and only those", async () => {
      const p = await created(tr, key, { name: "With a model" });
      const keep = await created(tr, key, { name: "Keeps its model" });
      for (const portfolio of [p, keep]) {
        const res = await t.http
          .post(`/v1/portfolios/${portfolio.id}/allocation-models`)
          .set("authorization", key)
          .send({ name: "Model", dimension: "assetClass", buckets: [{ label: "A", targetPct: 100 }] });
        expect(res.status).toBe(201);
      }
      expect(await count("allocation_model")).toBe(2);
      expect(await count("allocation_bucket")).toBe(2);

      expect((await tr.remove(key, p.id)).data).toBe(true);
      expect(await count("allocation_model")).toBe(1);
      expect(await count("allocation_bucket")).toBe(1);
      const [left] = await t.db.sql<{ portfolio_id: number }>("SELECT portfolio_id FROM allocation_model");
      expect(Number(left.portfolio_id)).toBe(keep.id);

      expect((await tr.remove(key, keep.id)).data).toBe(true);
      expect(await count("allocation_model")).toBe(0);
      expect(await count("allocation_bucket")).toBe(0);
    });

    it("answers NOT_FOUND for an id that does not exist and rejects a malformed id, deleting nothing", async () => {
      await created(tr, key, { name: "Survivor" });
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.remove(key, 999999), "NOT_FOUND", 404);
      expectInvalid(tr, await tr.remove(key, "abc"), "portfolioId");
      expectInvalid(tr, await tr.remove(key, "0"), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("tenant isolation", () => {
    it("hides another account's portfolio exactly like a missing one and leaves it unchanged", async () => {
      const other = await t.newAccount();
      const mine = await created(tr, key, { name: "Mine" });
      const before = await ledgerSnapshot(t.db);

      expectAbsent(tr, await tr.get(other, mine.id));
      expectFailure(tr, await tr.update(other, mine.id, { name: "Hijacked" }), "NOT_FOUND", 404);
      // Even a change the owner would be refused (422) is NOT_FOUND: nothing reveals the portfolio exists.
      expectFailure(tr, await tr.update(other, mine.id, { baseCurrencyCode: "USD" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.remove(other, mine.id), "NOT_FOUND", 404);
      expect((await tr.list(other)).data).toEqual([]);

      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.get(key, mine.id)).data).toEqual(mine);
    });
  });

  it("reads the same portfolio on both transports", async () => {
    const p = await created(tr, key, { name: "Shared", entityType: "Trust", taxResidency: "NZ", baseCurrencyCode: "NZD" });
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, p.id)).data).toEqual(p);
      expect((await reader.list(key)).data).toEqual([p]);
    }
  });
});

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
      t.http.post("/v1/portfolios").set("authorization", key).set("content-type", "application/x-www-form-urlencoded").send("name=Form"),
    ]) {
      const res = await req;
      expect(res.status).toBe(415);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: expect.stringContaining("application/json") });
      expect(res.headers["accept-post"]).toContain("application/json");
    }
    const none = await t.http.post("/v1/portfolios").set("authorization", key);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED", errors: [{ path: "(body)", message: expect.any(String) }] });
    // A JSON value that is not an object is refused the same way.
    const arr = await t.http.post("/v1/portfolios").set("authorization", key).send([{ name: "in an array" }]);
    expect(arr.status).toBe(400);
    expect(arr.body).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "(body)" }] });
    // Malformed JSON: 400 VALIDATION_FAILED as well.
    const bad = await t.http.post("/v1/portfolios").set("authorization", key).set("content-type", "application/json").send('{"name": "x",');
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(bad.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("PUT with a body that is not JSON answers 415 naming JSON, rather than succeeding as an empty change", async () => {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Unchanged" })).body as Portfolio;
    const before = await ledgerSnapshot(t.db);
    for (const [type, body] of [["text/plain", "name=Renamed"], ["application/x-www-form-urlencoded", "name=Renamed"]]) {
      const res = await t.http.put(`/v1/portfolios/${p.id}`).set("authorization", key).set("content-type", type).send(body);
      expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
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
      for (const [id, status] of [["abc", 400], ["0", 400], ["999999", 404], ["2147483648", 400], ["2147483647", 404]] as const) {
        const req = t.http[method](`/v1/portfolios/${id}`).set("authorization", key);
        const res = await (method === "put" ? req.send({ name: "x" }) : req);
        expect({ method, id, status: res.status, code: res.body.code }).toEqual({ method, id, status, code: status === 400 ? "VALIDATION_FAILED" : "NOT_FOUND" });
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        if (status === 400) expect(res.body.errors).toEqual([{ path: "portfolioId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("another account's portfolio answers 404 with the same body as a missing id on GET, PUT and DELETE", async () => {
    const other = await t.newAccount();
    const mine = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Mine" })).body as Portfolio;
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
    expect(res.body).toMatchObject({ status: 422, code: "BUSINESS_RULE", title: expect.any(String), detail: expect.any(String) });
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
    const upd = await t.gql(other, `mutation ($id: ID!) { updatePortfolio(id: $id, input: { name: "Hijacked" }) { id } }`, { id: String(mine.id) });
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
      extensions: { code: "VALIDATION_FAILED", errors: expect.arrayContaining([{ path: "name", message: expect.any(String) }, { path: "baseCurrencyCode", message: expect.any(String) }]) },
    });
    expect(await count("portfolio")).toBe(0);
  });

  it("a different base currency carries BUSINESS_RULE", async () => {
    const p = await created(rest, key, { name: "P" });
    const res = await t.gql(key, `mutation ($id: ID!) { updatePortfolio(id: $id, input: { baseCurrencyCode: "EUR" }) { id baseCurrencyCode } }`, { id: String(p.id) });
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
    const res = await t.gql(key, `query ($id: ID!) { portfolio(id: $id) { allocationModels { name } } }`, { id: String(p.id) });
    expect(res.body.data.portfolio.allocationModels).toEqual([{ name: "Model" }]);
    const del = await t.gql(key, `mutation ($id: ID!) { deletePortfolio(id: $id) }`, { id: String(p.id) });
    expect(del.body).toEqual({ data: { deletePortfolio: true } });
    expect(await count("allocation_model")).toBe(0);
    expect(await count("allocation_bucket")).toBe(0);
  });
});
