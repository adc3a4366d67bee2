import type { Response } from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Allocation models (seed 2.2, 2.3, 3, 4.2, 4.3; API.md "Allocation models"), driven over both
 * transports on the same scenarios: every rule runs once through REST (/v1) and once through
 * GraphQL (/graphql) via the `Transport` adapters below, which normalise a model so the two can be
 * compared. Setup (portfolios, existing models) goes through REST; the operation under test goes
 * through the transport under test.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.db.reset());

// ---------------------------------------------------------------------------------------------
// A model as both transports show it: decimals as their exact digits, portfolioId as a string.
// ---------------------------------------------------------------------------------------------

interface Bucket {
  label: string;
  targetPct: string;
  tolerancePct: string;
  sortOrder: number;
}

interface Model {
  publicId: string;
  portfolioId: string;
  name: string;
  notes: string;
  dimension: string;
  isActive: boolean;
  buckets: Bucket[];
}

interface FieldError {
  path: string;
  message: string;
}

type Outcome<T> =
  | { ok: true; transport: TransportName; status: number; value: T; raw: string }
  | { ok: false; transport: TransportName; status: number; code: string; errors?: FieldError[]; raw: string };

type TransportName = "REST" | "GraphQL";
type Id = number | string;

interface Transport {
  name: TransportName;
  list(key: string, portfolioId: Id): Promise<Outcome<Model[]>>;
  save(key: string, portfolioId: Id, input: unknown): Promise<Outcome<Model>>;
  active(key: string, portfolioId: Id): Promise<Outcome<Model | null>>;
  get(key: string, publicId: string): Promise<Outcome<Model | null>>;
  remove(key: string, publicId: string): Promise<Outcome<boolean>>;
  activate(key: string, publicId: string): Promise<Outcome<Model>>;
}

type Json = Record<string, unknown>;

/** REST decimals must be JSON numbers; anything else becomes a marker that equals nothing. */
const restDecimal = (v: unknown) => (typeof v === "number" ? String(v) : `<REST decimal must be a JSON number, got ${JSON.stringify(v)}>`);
/** GraphQL Decimal must be a string; anything else becomes a marker that equals nothing. */
const gqlDecimal = (v: unknown) => (typeof v === "string" ? v : `<GraphQL Decimal must be a string, got ${JSON.stringify(v)}>`);

function toModel(raw: Json, decimal: (v: unknown) => string, transport: TransportName): Model {
  const portfolioId =
    transport === "REST"
      ? Number.isInteger(raw.portfolioId)
        ? String(raw.portfolioId)
        : `<REST portfolioId must be an integer, got ${JSON.stringify(raw.portfolioId)}>`
      : (raw.portfolioId as string);
  return {
    publicId: raw.publicId as string,
    portfolioId,
    name: raw.name as string,
    notes: raw.notes as string,
    dimension: raw.dimension as string,
    isActive: raw.isActive as boolean,
    buckets: (raw.buckets as Json[]).map((b) => ({
      label: b.label as string,
      targetPct: decimal(b.targetPct),
      tolerancePct: decimal(b.tolerancePct),
      sortOrder: b.sortOrder as number,
    })),
  };
}

// REST ------------------------------------------------------------------------------------------

async function restCall<T>(req: PromiseLike<Response>, map: (body: unknown) => T): Promise<Outcome<T>> {
  const res = await req;
  if (res.status >= 400) {
    // Every REST error is RFC 9457 problem+json (API.md §1 errors).
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(res.status);
    return { ok: false, transport: "REST", status: res.status, code: res.body.code, errors: res.body.errors, raw: res.text };
  }
  if (res.status !== 204) expect(res.headers["content-type"]).toMatch(/^application\/json/);
  return { ok: true, transport: "REST", status: res.status, value: map(res.text === "" ? undefined : JSON.parse(res.text)), raw: res.text };
}

const restModel = (body: unknown) => toModel(body as Json, restDecimal, "REST");

const rest: Transport = {
  name: "REST",
  list: (key, p) => restCall(t.http.get(`/v1/portfolios/${p}/allocation-models`).set("authorization", key), (b) => (b as Json[]).map(restModel)),
  save: (key, p, input) =>
    restCall(t.http.post(`/v1/portfolios/${p}/allocation-models`).set("authorization", key).send(input as object), restModel),
  active: (key, p) =>
    restCall(t.http.get(`/v1/portfolios/${p}/allocation-models/active`).set("authorization", key), (b) => (b === null ? null : restModel(b))),
  get: (key, id) => restCall(t.http.get(`/v1/allocation-models/${encodeURIComponent(id)}`).set("authorization", key), restModel),
  remove: (key, id) => restCall(t.http.delete(`/v1/allocation-models/${encodeURIComponent(id)}`).set("authorization", key), () => true),
  activate: (key, id) => restCall(t.http.post(`/v1/allocation-models/${encodeURIComponent(id)}/activate`).set("authorization", key), restModel),
};

// GraphQL ---------------------------------------------------------------------------------------

const MODEL_FIELDS = `fragment M on AllocationModel {
  publicId portfolioId name notes dimension isActive
  buckets { label targetPct tolerancePct sortOrder }
}`;

const Q = {
  list: `query($p: ID!) { allocationModels(portfolioId: $p) { ...M } } ${MODEL_FIELDS}`,
  active: `query($p: ID!) { activeAllocationModel(portfolioId: $p) { ...M } } ${MODEL_FIELDS}`,
  get: `query($id: ID!) { allocationModel(publicId: $id) { ...M } } ${MODEL_FIELDS}`,
  save: `mutation($p: ID!, $input: AllocationModelInput!) { saveAllocationModel(portfolioId: $p, input: $input) { ...M } } ${MODEL_FIELDS}`,
  remove: `mutation($id: ID!) { deleteAllocationModel(publicId: $id) }`,
  activate: `mutation($id: ID!) { activateAllocationModel(publicId: $id) { ...M } } ${MODEL_FIELDS}`,
  portfolio: `query($id: ID!) { portfolio(id: $id) { id allocationModels { ...M } activeAllocationModel { ...M } } } ${MODEL_FIELDS}`,
};

async function gqlCall<T>(key: string, query: string, variables: Json, field: string, map: (data: unknown) => T): Promise<Outcome<T>> {
  const res = await t.gql(key, query, variables);
  const errors = res.body.errors as { extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    return { ok: false, transport: "GraphQL", status: res.status, code: errors[0].extensions?.code ?? "<no code>", errors: errors[0].extensions?.errors, raw: res.text };
  }
  expect(res.status).toBe(200);
  return { ok: true, transport: "GraphQL", status: res.status, value: map(res.body.data[field]), raw: res.text };
}

const gqlModel = (data: unknown) => toModel(data as Json, gqlDecimal, "GraphQL");
const gqlModelOrNull = (data: unknown) => (data === null ? null : gqlModel(data));

const graphql: Transport = {
  name: "GraphQL",
  list: (key, p) => gqlCall(key, Q.list, { p: String(p) }, "allocationModels", (d) => (d as Json[]).map(gqlModel)),
  save: (key, p, input) => gqlCall(key, Q.save, { p: String(p), input }, "saveAllocationModel", gqlModel),
  active: (key, p) => gqlCall(key, Q.active, { p: String(p) }, "activeAllocationModel", gqlModelOrNull),
  get: (key, id) => gqlCall(key, Q.get, { id }, "allocationModel", gqlModelOrNull),
  remove: (key, id) => gqlCall(key, Q.remove, { id }, "deleteAllocationModel", (d) => d as boolean),
  activate: (key, id) => gqlCall(key, Q.activate, { id }, "activateAllocationModel", gqlModel),
};

const TRANSPORTS: Transport[] = [rest, graphql];

// Assertions ------------------------------------------------------------------------------------

function expectOk<T>(o: Outcome<T>, status?: number): T {
  if (!o.ok) throw new Error(`expected success over ${o.transport}, got ${o.status} ${o.code}: ${o.raw}`);
  if (status !== undefined && o.transport === "REST") expect(o.status).toBe(status);
  return o.value;
}

const HTTP_STATUS: Record<string, number> = { VALIDATION_FAILED: 400, NOT_FOUND: 404 };

/** A failure with this code; over REST also its HTTP status (problem+json checked in restCall). */
function expectError(o: Outcome<unknown>, code: "NOT_FOUND" | "VALIDATION_FAILED" | "BAD_USER_INPUT"): void {
  if (o.ok) throw new Error(`expected ${code} over ${o.transport}, got success: ${o.raw}`);
  expect(o.code).toBe(code);
  if (o.transport === "REST") expect(o.status).toBe(HTTP_STATUS[code]);
}

/** VALIDATION_FAILED naming exactly these paths (each at least once). */
function expectInvalid(o: Outcome<unknown>, paths: string[]): void {
  expectError(o, "VALIDATION_FAILED");
  if (o.ok) return;
  expect(Array.isArray(o.errors)).toBe(true);
  for (const e of o.errors!) expect(typeof e.message).toBe("string");
  expect([...new Set(o.errors!.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

/** Get-one of a missing, deleted or foreign model: 404 over REST, null over GraphQL (schema.graphql). */
function expectNoModel(o: Outcome<Model | null>): void {
  if (o.transport === "REST") expectError(o, "NOT_FOUND");
  else expect(expectOk(o)).toBeNull();
}

// Setup helpers (REST) --------------------------------------------------------------------------

/** A custom group of the key's account: a customGroup:{id} dimension must name one (else NOT_FOUND). */
async function newCustomGroup(key: string): Promise<number> {
  const res = await t.http.post("/v1/custom-groups").set("authorization", key).send({ name: "Strategy", labels: ["Alpha", "Beta", "Gamma"] });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function newPortfolio(key: string, name = "Portfolio"): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set("authorization", key).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const BALANCED = {
  name: "Balanced",
  notes: "Long-term mix",
  dimension: "assetClass",
  buckets: [
    { label: "Equities", targetPct: 60, tolerancePct: 5 },
    { label: "Bonds", targetPct: 30, tolerancePct: 2.5 },
    { label: "Cash", targetPct: 10 },
  ],
};

/** Inserts a model through REST (not the transport under test) and returns it. */
async function seedModel(key: string, portfolioId: number, overrides: Json = {}): Promise<Model> {
  return expectOk(await rest.save(key, portfolioId, { ...BALANCED, ...overrides }), 201);
}

async function dbRow(publicId: string) {
  const rows = await t.db.sql<{ is_active: boolean; deleted_at: Date | null; name: string }>(
    "SELECT is_active, deleted_at, name FROM allocation_model WHERE public_id = $1",
    [publicId],
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function activeCount(portfolioId: number): Promise<number> {
  const [{ n }] = await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM allocation_model WHERE portfolio_id = $1 AND is_active", [portfolioId]);
  return n;
}

const names = (models: Model[]) => models.map((m) => m.name);
/** Seed 2.2 leaves the format open; the column holds up to 36 characters. */
const PUBLIC_ID = /^\S{1,36}$/;

/** n buckets B001..Bnnn of `pct` each. */
function manyBuckets(n: number, pct: string): { label: string; targetPct: string }[] {
  return Array.from({ length: n }, (_, i) => ({ label: `B${String(i + 1).padStart(3, "0")}`, targetPct: pct }));
}

// =============================================================================================
// List (seed 4.2)
// =============================================================================================

describe("List the allocation models of a portfolio (seed 4.2)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns every model that is not soft-deleted, oldest first, each with its buckets in sortOrder (ties by label)", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const other = await newPortfolio(key, "Other");
      const growth = await seedModel(key, p, {
        name: "Growth",
        dimension: "sector",
        buckets: [
          { label: "Materials", targetPct: 20, sortOrder: 2 },
          { label: "Financials", targetPct: 60.5, tolerancePct: 5, sortOrder: 1 },
          { label: "Energy", targetPct: 19.5, tolerancePct: "0.25", sortOrder: 2 },
        ],
      });
      const gone = await seedModel(key, p, { name: "Gone" });
      const group = await newCustomGroup(key);
      const thirds = await seedModel(key, p, {
        name: "Thirds",
        notes: undefined,
        dimension: `customGroup:${group}`,
        buckets: [
          { label: "Alpha", targetPct: 33.3333 },
          { label: "Beta", targetPct: "33.3333" },
          { label: "Gamma", targetPct: 33.3334 },
        ],
      });
      await seedModel(key, other, { name: "Elsewhere" });
      expectOk(await rest.remove(key, gone.publicId), 204);
      expectOk(await rest.activate(key, thirds.publicId), 200);

      const list = expectOk(await tr.list(key, p), 200);
      expect(list).toEqual([
        {
          publicId: growth.publicId,
          portfolioId: String(p),
          name: "Growth",
          notes: "Long-term mix",
          dimension: "sector",
          isActive: false,
          buckets: [
            { label: "Financials", targetPct: "60.5", tolerancePct: "5", sortOrder: 1 },
            { label: "Energy", targetPct: "19.5", tolerancePct: "0.25", sortOrder: 2 },
            { label: "Materials", targetPct: "20", tolerancePct: "0", sortOrder: 2 },
          ],
        },
        {
          publicId: thirds.publicId,
          portfolioId: String(p),
          name: "Thirds",
          notes: "",
          dimension: `customGroup:${group}`,
          isActive: true,
          // sortOrder defaults to the position in the list; tolerancePct to 0.
          buckets: [
            { label: "Alpha", targetPct: "33.3333", tolerancePct: "0", sortOrder: 0 },
            { label: "Beta", targetPct: "33.3333", tolerancePct: "0", sortOrder: 1 },
            { label: "Gamma", targetPct: "33.3334", tolerancePct: "0", sortOrder: 2 },
          ],
        },
      ]);
      expect(growth.publicId).toMatch(PUBLIC_ID);
    });

    it("returns an empty list for a portfolio without models", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      expect(expectOk(await tr.list(key, p), 200)).toEqual([]);
    });
  });

  it("REST: the body is a bare array whose models and buckets carry exactly the seed's fields, decimals as exact JSON numbers", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    await seedModel(key, p, {
      buckets: [
        { label: "Equities", targetPct: 60.5, tolerancePct: 5 },
        { label: "Bonds", targetPct: 6.1667 },
        { label: "Property", targetPct: 33.3333, tolerancePct: "0.0001" },
      ],
    });
    const res = await t.http.get(`/v1/portfolios/${p}/allocation-models`).set("authorization", key);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(Array.isArray(res.body)).toBe(true);
    const [model] = res.body;
    expect(Object.keys(model).sort()).toEqual(["buckets", "dimension", "isActive", "name", "notes", "portfolioId", "publicId"]);
    expect(typeof model.publicId).toBe("string");
    expect(model.portfolioId).toBe(p);
    for (const b of model.buckets) {
      expect(Object.keys(b).sort()).toEqual(["label", "sortOrder", "targetPct", "tolerancePct"]);
      expect(typeof b.targetPct).toBe("number");
      expect(typeof b.tolerancePct).toBe("number");
      expect(Number.isInteger(b.sortOrder)).toBe(true);
    }
    // The exact digits of the stored decimal, no trailing zeros, no float noise.
    expect(res.text).toContain('"targetPct":60.5,');
    expect(res.text).toContain('"tolerancePct":5,');
    expect(res.text).toContain('"targetPct":6.1667,');
    expect(res.text).toContain('"targetPct":33.3333,');
    expect(res.text).toContain('"tolerancePct":0.0001,');
    expect(res.text).toContain('"tolerancePct":0,');
  });

  it("GraphQL: decimals are strings with the exact stored digits, and the model has the same fields", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    await seedModel(key, p, {
      buckets: [
        { label: "Equities", targetPct: 60.5, tolerancePct: 5 },
        { label: "Bonds", targetPct: 6.1667 },
        { label: "Property", targetPct: 33.3333 },
      ],
    });
    const res = await t.gql(key, Q.list, { p: String(p) });
    expect(res.body.errors).toBeUndefined();
    const [model] = res.body.data.allocationModels;
    expect(Object.keys(model).sort()).toEqual(["buckets", "dimension", "isActive", "name", "notes", "portfolioId", "publicId"]);
    expect(model.portfolioId).toBe(String(p));
    expect(model.buckets).toEqual([
      { label: "Equities", targetPct: "60.5", tolerancePct: "5", sortOrder: 0 },
      { label: "Bonds", targetPct: "6.1667", tolerancePct: "0", sortOrder: 1 },
      { label: "Property", targetPct: "33.3333", tolerancePct: "0", sortOrder: 2 },
    ]);
  });

  it("REST and GraphQL return the same list", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    await seedModel(key, p, { name: "One" });
    await seedModel(key, p, { name: "Two", isActive: true, buckets: [{ label: "X", targetPct: 33.3333 }, { label: "Y", targetPct: 66.6667 }] });
    expect(expectOk(await graphql.list(key, p))).toEqual(expectOk(await rest.list(key, p)));
  });
});

// =============================================================================================
// Create or update (seed 2.2 publicId, 4.3)
// =============================================================================================

describe("Create or update an allocation model (seed 4.3)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it.each([
      ["absent", {}],
      ["null", { publicId: null }],
      ["empty", { publicId: "" }],
    ])("a publicId that is %s inserts a new model (REST 201) with a fresh publicId", async (_what, publicId) => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const existing = await seedModel(key, p);
      const created = expectOk(await tr.save(key, p, { ...BALANCED, ...publicId, name: "New one" }), 201);
      expect(created.publicId).toMatch(PUBLIC_ID);
      expect(created.publicId).not.toBe(existing.publicId);
      expect(created).toEqual({
        publicId: created.publicId,
        portfolioId: String(p),
        name: "New one",
        notes: "Long-term mix",
        dimension: "assetClass",
        isActive: false,
        buckets: [
          { label: "Equities", targetPct: "60", tolerancePct: "5", sortOrder: 0 },
          { label: "Bonds", targetPct: "30", tolerancePct: "2.5", sortOrder: 1 },
          { label: "Cash", targetPct: "10", tolerancePct: "0", sortOrder: 2 },
        ],
      });
      expect(names(expectOk(await rest.list(key, p)))).toEqual(["Balanced", "New one"]);
      expect(expectOk(await rest.get(key, created.publicId))).toEqual(created);
    });

    it("a present publicId updates that model (REST 200), replacing its fields and its buckets as a whole", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      const sibling = await seedModel(key, p, { name: "Sibling" });
      const updated = expectOk(
        await tr.save(key, p, {
          publicId: model.publicId,
          name: "Renamed",
          notes: "Revised",
          dimension: "currency",
          buckets: [
            { label: "USD", targetPct: "33.3333", tolerancePct: 1, sortOrder: 5 },
            { label: "AUD", targetPct: 66.6667, sortOrder: 1 },
          ],
        }),
        200,
      );
      expect(updated).toEqual({
        publicId: model.publicId,
        portfolioId: String(p),
        name: "Renamed",
        notes: "Revised",
        dimension: "currency",
        isActive: false,
        buckets: [
          { label: "AUD", targetPct: "66.6667", tolerancePct: "0", sortOrder: 1 },
          { label: "USD", targetPct: "33.3333", tolerancePct: "1", sortOrder: 5 },
        ],
      });
      expect(expectOk(await rest.get(key, model.publicId))).toEqual(updated);
      expect(expectOk(await rest.list(key, p))).toEqual([updated, sibling]);
      // The old buckets are gone, not kept beside the new ones.
      const rows = await t.db.sql<{ label: string }>(
        "SELECT b.label FROM allocation_bucket b JOIN allocation_model m ON m.id = b.model_id WHERE m.public_id = $1 ORDER BY b.label",
        [model.publicId],
      );
      expect(rows.map((r) => r.label)).toEqual(["AUD", "USD"]);
    });

    it("an exact value such as 33.3333 round-trips exactly through save and every read", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const input = { ...BALANCED, isActive: true, buckets: [{ label: "A", targetPct: 33.3333, tolerancePct: 0.0001 }, { label: "B", targetPct: "33.3333" }, { label: "C", targetPct: 33.3334 }] };
      const saved = expectOk(await tr.save(key, p, input), 201);
      expect(saved.buckets.map((b) => [b.targetPct, b.tolerancePct])).toEqual([["33.3333", "0.0001"], ["33.3333", "0"], ["33.3334", "0"]]);
      expect(expectOk(await tr.get(key, saved.publicId))).toEqual(saved);
      expect(expectOk(await tr.active(key, p))).toEqual(saved);
      expect(expectOk(await tr.list(key, p))).toEqual([saved]);
      const stored = await t.db.sql<{ t: string }>("SELECT target_pct::text AS t FROM allocation_bucket ORDER BY sort_order");
      expect(stored.map((r) => r.t)).toEqual(["33.3333", "33.3333", "33.3334"]);
    });

    it("an unknown publicId answers NOT_FOUND (REST 404) and writes nothing", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.save(key, p, { ...BALANCED, publicId: "3f1c2d4e-0000-4000-8000-000000000000" }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });

    it("the publicId of a model of another portfolio of the same account answers NOT_FOUND and leaves that model alone", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const q = await newPortfolio(key, "Q");
      const theirs = await seedModel(key, q, { name: "Q model" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.save(key, p, { ...BALANCED, publicId: theirs.publicId, name: "Hijacked" }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.get(key, theirs.publicId))).toEqual(theirs);
      expect(expectOk(await rest.list(key, p))).toEqual([]);
    });

    it("the publicId of a soft-deleted model answers NOT_FOUND and does not revive it", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      expectOk(await rest.remove(key, model.publicId), 204);
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.save(key, p, { ...BALANCED, publicId: model.publicId, name: "Revived" }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.list(key, p))).toEqual([]);
    });
  });
});

// =============================================================================================
// isActive in the save body
// =============================================================================================

describe("isActive in a save: true activates (clearing the others), false deactivates, absent leaves it", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("an insert with isActive true becomes the active model and clears the previous one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const old = await seedModel(key, p, { name: "Old", isActive: true });
      const created = expectOk(await tr.save(key, p, { ...BALANCED, name: "New", isActive: true }), 201);
      expect(created.isActive).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(created.publicId);
      expect((await dbRow(old.publicId)).is_active).toBe(false);
      expect(await activeCount(p)).toBe(1);
    });

    it("an insert with isActive false or absent is inactive and leaves the active model active", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(expectOk(await tr.save(key, p, { ...BALANCED, name: "Off", isActive: false }), 201).isActive).toBe(false);
      expect(expectOk(await tr.save(key, p, { ...BALANCED, name: "Unsaid" }), 201).isActive).toBe(false);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
      expect(await activeCount(p)).toBe(1);
    });

    it("an update with isActive true activates that model and clears the flag on the others", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      const other = await seedModel(key, p, { name: "Other" });
      const updated = expectOk(await tr.save(key, p, { ...BALANCED, publicId: other.publicId, name: "Other", isActive: true }), 200);
      expect(updated.isActive).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(other.publicId);
      expect(expectOk(await rest.get(key, current.publicId))?.isActive).toBe(false);
      expect(await activeCount(p)).toBe(1);
    });

    it("an update with isActive true on the model that is already active keeps it active", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(expectOk(await tr.save(key, p, { ...BALANCED, publicId: current.publicId, name: "Current", isActive: true }), 200).isActive).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
    });

    it("an update with isActive false deactivates the model, leaving the portfolio without an active one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(expectOk(await tr.save(key, p, { ...BALANCED, publicId: current.publicId, isActive: false }), 200).isActive).toBe(false);
      expect(expectOk(await rest.active(key, p))).toBeNull();
      expect(await activeCount(p)).toBe(0);
    });

    it("an update without isActive leaves the flag as it was, active or not", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      const other = await seedModel(key, p, { name: "Other" });
      expect(expectOk(await tr.save(key, p, { ...BALANCED, publicId: current.publicId, name: "Current v2" }), 200).isActive).toBe(true);
      expect(expectOk(await tr.save(key, p, { ...BALANCED, publicId: other.publicId, name: "Other v2" }), 200).isActive).toBe(false);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
      expect(await activeCount(p)).toBe(1);
    });
  });
});

// =============================================================================================
// Get active
// =============================================================================================

describe("Get the active allocation model of a portfolio", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns the active model", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      await seedModel(key, p, { name: "Idle" });
      const live = await seedModel(key, p, { name: "Live", isActive: true });
      expect(expectOk(await tr.active(key, p), 200)).toEqual(live);
    });

    it("returns null when the portfolio has no active model", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      expect(expectOk(await tr.active(key, p), 200)).toBeNull();
      await seedModel(key, p, { name: "Idle" });
      expect(expectOk(await tr.active(key, p), 200)).toBeNull();
    });

    it("answers NOT_FOUND (REST 404) for a portfolio of another account", async () => {
      const owner = await t.newAccount();
      const p = await newPortfolio(owner);
      await seedModel(owner, p, { isActive: true });
      const stranger = await t.newAccount();
      expectError(await tr.active(stranger, p), "NOT_FOUND");
    });
  });

  it("REST: no active model is the JSON body `null` with 200 application/json", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    const res = await t.http.get(`/v1/portfolios/${p}/allocation-models/active`).set("authorization", key);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.text).toBe("null");
  });

  it("GraphQL: no active model is data.activeAllocationModel null without errors", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    const res = await t.gql(key, Q.active, { p: String(p) });
    expect(res.body).toEqual({ data: { activeAllocationModel: null } });
  });
});

// =============================================================================================
// Get one
// =============================================================================================

describe("Get one allocation model by publicId", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns the model with its buckets", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p, { isActive: true });
      await seedModel(key, p, { name: "Another" });
      expect(expectOk(await tr.get(key, model.publicId), 200)).toEqual(model);
    });

    it("a soft-deleted or unknown publicId is absent: REST 404, GraphQL null", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      expectOk(await rest.remove(key, model.publicId), 204);
      expectNoModel(await tr.get(key, model.publicId));
      expectNoModel(await tr.get(key, "3f1c2d4e-0000-4000-8000-000000000000"));
    });
  });
});

// =============================================================================================
// Soft delete
// =============================================================================================

describe("Soft-delete an allocation model", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("deletes (REST 204, GraphQL true) while the row stays in allocation_model with deleted_at set", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      expect(expectOk(await tr.remove(key, model.publicId), 204)).toBe(true);
      const row = await dbRow(model.publicId);
      expect(row.deleted_at).not.toBeNull();
      expect(row.is_active).toBe(false);
      const [{ n }] = await t.db.sql<{ n: number }>(
        "SELECT count(*)::int AS n FROM allocation_bucket b JOIN allocation_model m ON m.id = b.model_id WHERE m.public_id = $1",
        [model.publicId],
      );
      expect(n).toBe(3);
    });

    it("the deleted model disappears from the list and from get; the others stay", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const keep = await seedModel(key, p, { name: "Keep" });
      const drop = await seedModel(key, p, { name: "Drop" });
      expectOk(await tr.remove(key, drop.publicId), 204);
      expect(expectOk(await tr.list(key, p))).toEqual([keep]);
      expectNoModel(await tr.get(key, drop.publicId));
      expect(expectOk(await tr.get(key, keep.publicId))).toEqual(keep);
    });

    it("deleting the active model leaves the portfolio without an active one (is_active false)", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const live = await seedModel(key, p, { isActive: true });
      expectOk(await tr.remove(key, live.publicId), 204);
      expect(expectOk(await tr.active(key, p))).toBeNull();
      const row = await dbRow(live.publicId);
      expect(row.is_active).toBe(false);
      expect(row.deleted_at).not.toBeNull();
      expect(await activeCount(p)).toBe(0);
    });

    it("a deleted model cannot be activated, updated or deleted again (NOT_FOUND, REST 404)", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      expectOk(await tr.remove(key, model.publicId), 204);
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.activate(key, model.publicId), "NOT_FOUND");
      expectError(await tr.remove(key, model.publicId), "NOT_FOUND");
      expectError(await tr.save(key, p, { ...BALANCED, publicId: model.publicId }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await tr.active(key, p))).toBeNull();
    });

    it("an unknown publicId answers NOT_FOUND (REST 404)", async () => {
      const key = await t.newAccount();
      expectError(await tr.remove(key, "3f1c2d4e-0000-4000-8000-000000000000"), "NOT_FOUND");
    });

    // A race, so a stress test: every round deletes each model while activating it and saving it
    // with isActive true at the same moment. Whatever the interleaving, a model whose delete
    // answered 204 is deleted and must not be active afterwards. On PGlite (one connection) the
    // requests serialise and this always holds; on PostgreSQL it exercises real concurrency.
    it("deletes racing activations and isActive saves of the same models never leave a deleted model active", async () => {
      const key = await t.newAccount();
      const portfolios: number[] = [];
      for (let round = 0; round < 20; round++) {
        const p = await newPortfolio(key, `Round ${round}`);
        portfolios.push(p);
        const models = await Promise.all(Array.from({ length: 10 }, (_, i) => seedModel(key, p, { name: `M${i}` })));
        const outcomes = await Promise.all(
          models.map((m) =>
            Promise.all([tr.activate(key, m.publicId), tr.save(key, p, { ...BALANCED, publicId: m.publicId, isActive: true }), tr.remove(key, m.publicId)]),
          ),
        );
        for (const [activated, saved, removed] of outcomes) {
          expect(removed.ok).toBe(true);
          for (const o of [activated, saved]) if (!o.ok) expectError(o, "NOT_FOUND");
        }
        expect(expectOk(await tr.active(key, p))).toBeNull();
      }
      const live = await t.db.sql("SELECT public_id FROM allocation_model WHERE portfolio_id = ANY($1::int[]) AND deleted_at IS NULL", [portfolios]);
      expect(live).toEqual([]);
      const deletedButActive = await t.db.sql("SELECT public_id FROM allocation_model WHERE portfolio_id = ANY($1::int[]) AND is_active", [portfolios]);
      expect(deletedButActive).toEqual([]);
    });
  });

  it("REST: 204 has an empty body", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    const model = await seedModel(key, p);
    const res = await t.http.delete(`/v1/allocation-models/${model.publicId}`).set("authorization", key);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });
});

// =============================================================================================
// Activate (seed §3)
// =============================================================================================

describe("Activate an allocation model (seed 3)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("sets it active and clears the flag on every other model of the portfolio; other portfolios are untouched", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const q = await newPortfolio(key, "Q");
      const first = await seedModel(key, p, { name: "First", isActive: true });
      const second = await seedModel(key, p, { name: "Second" });
      const third = await seedModel(key, p, { name: "Third" });
      const elsewhere = await seedModel(key, q, { name: "Elsewhere", isActive: true });

      const activated = expectOk(await tr.activate(key, third.publicId), 200);
      expect(activated).toEqual({ ...third, isActive: true });
      expect(expectOk(await rest.list(key, p)).map((m) => [m.name, m.isActive])).toEqual([
        ["First", false],
        ["Second", false],
        ["Third", true],
      ]);
      expect(await activeCount(p)).toBe(1);
      expect((await dbRow(first.publicId)).is_active).toBe(false);
      expect((await dbRow(second.publicId)).is_active).toBe(false);
      expect(expectOk(await rest.active(key, q))).toEqual(elsewhere);
      expect(await activeCount(q)).toBe(1);
    });

    it("activating the model that is already active keeps it the only active one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const live = await seedModel(key, p, { isActive: true });
      await seedModel(key, p, { name: "Idle" });
      expect(expectOk(await tr.activate(key, live.publicId), 200).isActive).toBe(true);
      expect(expectOk(await tr.active(key, p))?.publicId).toBe(live.publicId);
      expect(await activeCount(p)).toBe(1);
    });

    it("an unknown publicId answers NOT_FOUND (REST 404)", async () => {
      const key = await t.newAccount();
      expectError(await tr.activate(key, "3f1c2d4e-0000-4000-8000-000000000000"), "NOT_FOUND");
    });

    it("20 concurrent activations of 20 different models of one portfolio all succeed and leave exactly one active", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const models: Model[] = [];
      for (let i = 0; i < 20; i++) models.push(await seedModel(key, p, { name: `M${i}` }));

      const results = await Promise.all(models.map((m) => tr.activate(key, m.publicId)));
      results.forEach((r, i) => {
        const model = expectOk(r, 200);
        expect(model.publicId).toBe(models[i].publicId);
        expect(model.isActive).toBe(true);
      });

      expect(await activeCount(p)).toBe(1);
      const [row] = await t.db.sql<{ public_id: string }>("SELECT public_id FROM allocation_model WHERE portfolio_id = $1 AND is_active", [p]);
      expect(expectOk(await tr.active(key, p))?.publicId).toBe(row.public_id);
      expect(expectOk(await tr.list(key, p)).filter((m) => m.isActive).map((m) => m.publicId)).toEqual([row.public_id]);
    });
  });

  it("the database itself refuses a second active model in one portfolio (unique violation), but allows one per portfolio", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    const q = await newPortfolio(key, "Q");
    const a = await seedModel(key, p, { name: "A" });
    const b = await seedModel(key, p, { name: "B" });
    const c = await seedModel(key, q, { name: "C" });

    await expect(t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id IN ($1, $2)", [a.publicId, b.publicId])).rejects.toMatchObject({
      code: "23505",
    });
    expect(await activeCount(p)).toBe(0);

    await t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [a.publicId]);
    await expect(t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [b.publicId])).rejects.toMatchObject({ code: "23505" });
    await t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [c.publicId]);
    expect(await activeCount(p)).toBe(1);
    expect(await activeCount(q)).toBe(1);
  });
});

// =============================================================================================
// Validation
// =============================================================================================

const VALID = {
  name: "Balanced",
  dimension: "assetClass",
  buckets: [
    { label: "Equities", targetPct: 60 },
    { label: "Bonds", targetPct: 30 },
    { label: "Cash", targetPct: 10 },
  ],
};

/** VALID with bucket i's fields replaced. */
function withBucket(i: number, patch: Json): Json {
  return { ...VALID, buckets: VALID.buckets.map((b, j) => (j === i ? { ...b, ...patch } : b)) };
}

function without(field: keyof typeof VALID): Json {
  const copy: Json = { ...VALID };
  delete copy[field];
  return copy;
}

interface BadCase {
  rule: string;
  input: Json;
  /** The paths the service names in `errors` (REST, and GraphQL when it reaches the service). */
  paths: string[];
  /** GraphQL's own type system rejects this input before the service: BAD_USER_INPUT. */
  graphqlTypeError?: true;
}

const BAD: BadCase[] = [
  { rule: "name empty", input: { ...VALID, name: "" }, paths: ["name"] },
  { rule: "name blank", input: { ...VALID, name: "   " }, paths: ["name"] },
  { rule: "name of 201 characters", input: { ...VALID, name: "n".repeat(201) }, paths: ["name"] },
  { rule: "name missing", input: without("name"), paths: ["name"], graphqlTypeError: true },
  { rule: "dimension not in the set", input: { ...VALID, dimension: "country" }, paths: ["dimension"] },
  { rule: "dimension empty", input: { ...VALID, dimension: "" }, paths: ["dimension"] },
  { rule: "dimension customGroup without an id", input: { ...VALID, dimension: "customGroup:" }, paths: ["dimension"] },
  { rule: "dimension customGroup:0", input: { ...VALID, dimension: "customGroup:0" }, paths: ["dimension"] },
  { rule: "dimension customGroup:-3", input: { ...VALID, dimension: "customGroup:-3" }, paths: ["dimension"] },
  { rule: "dimension customGroup:abc", input: { ...VALID, dimension: "customGroup:abc" }, paths: ["dimension"] },
  { rule: "dimension customGroup:1.5", input: { ...VALID, dimension: "customGroup:1.5" }, paths: ["dimension"] },
  { rule: "dimension missing", input: without("dimension"), paths: ["dimension"], graphqlTypeError: true },
  { rule: "0 buckets", input: { ...VALID, buckets: [] }, paths: ["buckets"] },
  { rule: "501 buckets", input: { ...VALID, buckets: [...manyBuckets(500, "0.2"), { label: "Extra", targetPct: 0 }] }, paths: ["buckets"] },
  { rule: "buckets missing", input: without("buckets"), paths: ["buckets"], graphqlTypeError: true },
  { rule: "empty label", input: withBucket(2, { label: "" }), paths: ["buckets[2].label"] },
  { rule: "blank label", input: withBucket(2, { label: "  " }), paths: ["buckets[2].label"] },
  { rule: "duplicate label, ignoring case", input: withBucket(2, { label: "EQUITIES" }), paths: ["buckets[2].label"] },
  { rule: "duplicate label, same case", input: withBucket(1, { label: "Equities" }), paths: ["buckets[1].label"] },
  { rule: "targetPct below 0", input: { ...VALID, buckets: [{ label: "A", targetPct: 60 }, { label: "B", targetPct: -1 }, { label: "C", targetPct: 41 }] }, paths: ["buckets[1].targetPct"] },
  { rule: "targetPct above 100", input: { ...VALID, buckets: [{ label: "A", targetPct: 0 }, { label: "B", targetPct: 100.0001 }] }, paths: ["buckets[1].targetPct"] },
  { rule: "targetPct with 5 decimals (number)", input: withBucket(1, { targetPct: 29.99999 }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct with 5 decimals (string)", input: withBucket(1, { targetPct: "30.00001" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct non-numeric string", input: withBucket(1, { targetPct: "thirty" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct empty string", input: withBucket(1, { targetPct: "" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct with a percent sign", input: withBucket(1, { targetPct: "30%" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct exponent string 3e1", input: withBucket(1, { targetPct: "3e1" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct exponent string 3E1", input: withBucket(1, { targetPct: "3E1" }), paths: ["buckets[1].targetPct"] },
  { rule: "targetPct boolean", input: withBucket(1, { targetPct: true }), paths: ["buckets[1].targetPct"], graphqlTypeError: true },
  { rule: "targetPct null", input: withBucket(1, { targetPct: null }), paths: ["buckets[1].targetPct"], graphqlTypeError: true },
  { rule: "tolerancePct below 0", input: withBucket(0, { tolerancePct: -0.5 }), paths: ["buckets[0].tolerancePct"] },
  { rule: "tolerancePct above 100", input: withBucket(0, { tolerancePct: "100.5" }), paths: ["buckets[0].tolerancePct"] },
  { rule: "tolerancePct with 5 decimals", input: withBucket(0, { tolerancePct: 0.00001 }), paths: ["buckets[0].tolerancePct"] },
  { rule: "tolerancePct non-numeric", input: withBucket(0, { tolerancePct: "five" }), paths: ["buckets[0].tolerancePct"] },
  { rule: "targets summing to 99.98", input: withBucket(1, { targetPct: 29.98 }), paths: ["buckets"] },
  { rule: "targets summing to 100.02", input: withBucket(1, { targetPct: "30.02" }), paths: ["buckets"] },
  { rule: "targets summing to 90", input: withBucket(2, { targetPct: 0 }), paths: ["buckets"] },
  { rule: "sortOrder 1.5", input: withBucket(0, { sortOrder: 1.5 }), paths: ["buckets[0].sortOrder"], graphqlTypeError: true },
  { rule: 'sortOrder "1" (a string)', input: withBucket(0, { sortOrder: "1" }), paths: ["buckets[0].sortOrder"], graphqlTypeError: true },
  {
    rule: "holding label without an exchange",
    input: { ...VALID, dimension: "holding", buckets: [{ label: "CBA.ASX", targetPct: 50 }, { label: "BHP", targetPct: 40 }, { label: "Cash", targetPct: 10 }] },
    paths: ["buckets[1].label"],
  },
  {
    rule: "holding label ending in a dot, or with a space for the dot",
    input: { ...VALID, dimension: "holding", buckets: [{ label: "CBA.", targetPct: 50 }, { label: "BHP ASX", targetPct: 50 }] },
    paths: ["buckets[0].label", "buckets[1].label"],
  },
  {
    rule: "several faults at once, each named",
    input: { ...VALID, name: "", buckets: [{ label: "Equities", targetPct: 60 }, { label: "Bonds", targetPct: "abc" }, { label: "", targetPct: 10 }] },
    paths: ["name", "buckets[1].targetPct", "buckets[2].label"],
  },
];

describe("Validation: 400 VALIDATION_FAILED naming each bad path, and nothing written", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it.each(BAD)("rejects $rule", async ({ input, paths, graphqlTypeError }) => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const live = await seedModel(key, p, { isActive: true });
      const before = await ledgerSnapshot(t.db);
      // isActive: true too, so a rejected save must not even clear the current active model.
      const res = await tr.save(key, p, { ...input, isActive: true });
      if (tr.name === "GraphQL" && graphqlTypeError) expectError(res, "BAD_USER_INPUT");
      else expectInvalid(res, paths);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.active(key, p))).toEqual(live);
    });

    it("rejects an invalid update the same way and leaves the model exactly as it was", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const model = await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      const bad = { ...VALID, publicId: model.publicId, name: "Changed", buckets: [{ label: "Equities", targetPct: 60 }, { label: "equities", targetPct: 40 }] };
      expectInvalid(await tr.save(key, p, bad), ["buckets[1].label"]);
      expectInvalid(await tr.save(key, p, { ...withBucket(1, { targetPct: 101 }), publicId: model.publicId }), ["buckets[1].targetPct"]);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.get(key, model.publicId))).toEqual(model);
    });

    it.each([
      ["targets summing to 99.995", withBucket(1, { targetPct: 29.995 })],
      ["targets summing to 100.005", withBucket(1, { targetPct: "30.005" })],
      ["targets summing to 99.99 (the edge of ±0.01)", withBucket(1, { targetPct: 29.99 })],
      ["targets summing to 100.01 (the edge of ±0.01)", withBucket(1, { targetPct: 30.01 })],
      ["targetPct and tolerancePct at 0 and 100", { ...VALID, buckets: [{ label: "All", targetPct: 100, tolerancePct: 0 }, { label: "None", targetPct: "0", tolerancePct: "100" }] }],
      ["targetPct with 4 decimals", { ...VALID, buckets: [{ label: "A", targetPct: 0.0001 }, { label: "B", targetPct: "99.9999" }] }],
      ["a name of 200 characters", { ...VALID, name: "n".repeat(200) }],
      ["500 buckets", { ...VALID, buckets: manyBuckets(500, "0.2") }],
      ["negative and large sortOrder", { ...VALID, buckets: [{ label: "A", targetPct: 50, sortOrder: -5 }, { label: "B", targetPct: 50, sortOrder: 2147483647 }] }],
      ["holding labels SYMBOL.EXCHANGE and Cash", { ...VALID, dimension: "holding", buckets: [{ label: "CBA.ASX", targetPct: 40 }, { label: "BRK.B.NYSE", targetPct: 40 }, { label: "Cash", targetPct: 20 }] }],
      ["dimension holding", { ...VALID, dimension: "holding", buckets: [{ label: "VAS.ASX", targetPct: 100 }] }],
      ["dimension assetClass", { ...VALID, dimension: "assetClass" }],
      ["dimension sector", { ...VALID, dimension: "sector" }],
      ["dimension currency", { ...VALID, dimension: "currency" }],
      ["dimension exchange", { ...VALID, dimension: "exchange" }],
      ["dimension holdingType", { ...VALID, dimension: "holdingType" }],
    ])("accepts %s", async (_rule, input) => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const saved = expectOk(await tr.save(key, p, input), 201);
      expect(saved.name).toBe(input.name);
      expect(saved.dimension).toBe(input.dimension);
      expect(saved.buckets).toHaveLength((input.buckets as unknown[]).length);
      expect(expectOk(await tr.list(key, p))).toEqual([saved]);
    });

    it("accepts dimension customGroup:{id} of one of the account's custom groups, and answers NOT_FOUND for another's or a missing one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      const own = await newCustomGroup(key);
      const foreign = await newCustomGroup(await t.newAccount());
      expect(expectOk(await tr.save(key, p, { ...VALID, dimension: `customGroup:${own}` }), 201).dimension).toBe(`customGroup:${own}`);
      const before = await ledgerSnapshot(t.db);
      for (const id of [foreign, 424242]) expectError(await tr.save(key, p, { ...VALID, dimension: `customGroup:${id}` }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });
  });

  describe("REST bodies that are not a model", () => {
    it.each([
      ["not JSON", "{\"name\": \"Balanced\", "],
      ["a JSON string", JSON.stringify("Balanced")],
      ["a JSON array", JSON.stringify([VALID])],
      ["empty", ""],
    ])("rejects a body that is %s with 400 VALIDATION_FAILED and writes nothing", async (_what, body) => {
      const key = await t.newAccount();
      const p = await newPortfolio(key);
      await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      const res = await t.http.post(`/v1/portfolios/${p}/allocation-models`).set("authorization", key).set("content-type", "application/json").send(body);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });
  });

  it("GraphQL: a request body that is not JSON answers 400 and writes nothing", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    await seedModel(key, p);
    const before = await ledgerSnapshot(t.db);
    const res = await t.http.post("/graphql").set("authorization", key).set("content-type", "application/json").send('{"query": "mutation { ');
    expect(res.status).toBe(400);
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("REST and GraphQL name the same paths with the same messages for service-validated input", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    const input = { ...VALID, name: "", dimension: "planet", buckets: [{ label: "A", targetPct: "1e2" }, { label: "a", targetPct: 101 }, { label: "", targetPct: 0, tolerancePct: -1 }] };
    const r = await rest.save(key, p, input);
    const g = await graphql.save(key, p, input);
    expectError(r, "VALIDATION_FAILED");
    expectError(g, "VALIDATION_FAILED");
    if (r.ok || g.ok) return;
    expect(g.errors).toEqual(r.errors);
    expect(r.errors!.map((e) => e.path)).toEqual(expect.arrayContaining(["name", "dimension", "buckets[0].targetPct", "buckets[1].targetPct", "buckets[2].label", "buckets[2].tolerancePct"]));
  });
});

// =============================================================================================
// Bad ids
// =============================================================================================

describe("Bad portfolio ids: not an integer → 400, unknown → 404", () => {
  it.each(["abc", "0", "-1", "1.5"])("REST: portfolio id %s answers 400 VALIDATION_FAILED on list, save and active", async (id) => {
    const key = await t.newAccount();
    const before = await ledgerSnapshot(t.db);
    expectInvalid(await rest.list(key, id), ["portfolioId"]);
    expectInvalid(await rest.save(key, id, VALID), ["portfolioId"]);
    expectInvalid(await rest.active(key, id), ["portfolioId"]);
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("REST: portfolio 999999 answers 404 NOT_FOUND on list, save and active", async () => {
    const key = await t.newAccount();
    await newPortfolio(key);
    const before = await ledgerSnapshot(t.db);
    expectError(await rest.list(key, 999999), "NOT_FOUND");
    expectError(await rest.save(key, 999999, VALID), "NOT_FOUND");
    expectError(await rest.active(key, 999999), "NOT_FOUND");
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("REST: the exact paths /v1/portfolios/abc/allocation-models → 400 and /v1/portfolios/999999/allocation-models → 404", async () => {
    const key = await t.newAccount();
    expect((await t.http.get("/v1/portfolios/abc/allocation-models").set("authorization", key)).status).toBe(400);
    expect((await t.http.get("/v1/portfolios/999999/allocation-models").set("authorization", key)).status).toBe(404);
  });

  it.each(["abc", "0", "-1", "1.5"])("GraphQL: portfolioId %s answers VALIDATION_FAILED on allocationModels, saveAllocationModel and activeAllocationModel", async (id) => {
    const key = await t.newAccount();
    const before = await ledgerSnapshot(t.db);
    expectInvalid(await graphql.list(key, id), ["portfolioId"]);
    expectInvalid(await graphql.save(key, id, VALID), ["portfolioId"]);
    expectInvalid(await graphql.active(key, id), ["portfolioId"]);
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("GraphQL: portfolioId 999999 answers NOT_FOUND, and portfolio(id) is null", async () => {
    const key = await t.newAccount();
    await newPortfolio(key);
    const before = await ledgerSnapshot(t.db);
    expectError(await graphql.list(key, 999999), "NOT_FOUND");
    expectError(await graphql.save(key, 999999, VALID), "NOT_FOUND");
    expectError(await graphql.active(key, 999999), "NOT_FOUND");
    const res = await t.gql(key, Q.portfolio, { id: "999999" });
    expect(res.body).toEqual({ data: { portfolio: null } });
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });
});

// =============================================================================================
// Tenant isolation (API.md §1 tenancy)
// =============================================================================================

describe("Tenant isolation: another account's portfolio and models do not exist for a key", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("every operation on account A's portfolio or models with account B's key answers as if absent, and A's data is unchanged", async () => {
      const keyA = await t.newAccount("A");
      const pA = await newPortfolio(keyA, "A's");
      const live = await seedModel(keyA, pA, { name: "A live", isActive: true });
      const idle = await seedModel(keyA, pA, { name: "A idle" });
      const keyB = await t.newAccount("B");
      const pB = await newPortfolio(keyB, "B's");
      const listA = expectOk(await rest.list(keyA, pA));
      const before = await ledgerSnapshot(t.db);

      expectError(await tr.list(keyB, pA), "NOT_FOUND");
      expectError(await tr.save(keyB, pA, VALID), "NOT_FOUND");
      expectError(await tr.save(keyB, pA, { ...VALID, publicId: idle.publicId }), "NOT_FOUND");
      expectError(await tr.save(keyB, pB, { ...VALID, publicId: idle.publicId, name: "Stolen" }), "NOT_FOUND");
      expectError(await tr.save(keyB, pB, { ...VALID, publicId: live.publicId, isActive: false }), "NOT_FOUND");
      expectError(await tr.active(keyB, pA), "NOT_FOUND");
      expectNoModel(await tr.get(keyB, live.publicId));
      expectNoModel(await tr.get(keyB, idle.publicId));
      expectError(await tr.remove(keyB, live.publicId), "NOT_FOUND");
      expectError(await tr.activate(keyB, idle.publicId), "NOT_FOUND");

      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.list(keyA, pA))).toEqual(listA);
      expect(expectOk(await rest.active(keyA, pA))).toEqual(live);
      expect(expectOk(await rest.list(keyB, pB))).toEqual([]);
    });
  });

  it("REST: B's 404 for A's portfolio is the same problem as for a portfolio that does not exist", async () => {
    const keyA = await t.newAccount("A");
    const pA = await newPortfolio(keyA);
    const keyB = await t.newAccount("B");
    const foreign = await t.http.get(`/v1/portfolios/${pA}/allocation-models`).set("authorization", keyB);
    const missing = await t.http.get("/v1/portfolios/999999/allocation-models").set("authorization", keyB);
    const shape = (b: Json) => ({ type: b.type, title: b.title, status: b.status, code: b.code, errors: b.errors });
    expect(foreign.status).toBe(404);
    expect(shape(foreign.body)).toEqual(shape(missing.body));
  });

  it("GraphQL: portfolio(id) of another account is null", async () => {
    const keyA = await t.newAccount("A");
    const pA = await newPortfolio(keyA);
    await seedModel(keyA, pA, { isActive: true });
    const keyB = await t.newAccount("B");
    const res = await t.gql(keyB, Q.portfolio, { id: String(pA) });
    expect(res.body).toEqual({ data: { portfolio: null } });
  });
});

// =============================================================================================
// GraphQL Portfolio.allocationModels / Portfolio.activeAllocationModel
// =============================================================================================

describe("GraphQL Portfolio.allocationModels and Portfolio.activeAllocationModel", () => {
  async function nested(key: string, p: number) {
    const res = await t.gql(key, Q.portfolio, { id: String(p) });
    expect(res.body.errors).toBeUndefined();
    const portfolio = res.body.data.portfolio as { allocationModels: Json[]; activeAllocationModel: Json | null };
    return { models: portfolio.allocationModels.map(gqlModel), active: gqlModelOrNull(portfolio.activeAllocationModel) };
  }

  it("agree with the root queries through create, activate and delete", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key);
    expect(await nested(key, p)).toEqual({ models: [], active: null });

    const a = await seedModel(key, p, { name: "A", buckets: [{ label: "X", targetPct: 33.3333 }, { label: "Y", targetPct: 66.6667, tolerancePct: 60.5 }] });
    const b = await seedModel(key, p, { name: "B" });
    await seedModel(key, p, { name: "C" });
    expect(await nested(key, p)).toEqual({ models: expectOk(await graphql.list(key, p)), active: null });

    expectOk(await graphql.activate(key, b.publicId));
    let view = await nested(key, p);
    expect(view).toEqual({ models: expectOk(await graphql.list(key, p)), active: expectOk(await graphql.active(key, p)) });
    expect(view.active?.publicId).toBe(b.publicId);
    expect(view.models.find((m) => m.publicId === a.publicId)?.buckets).toEqual([
      { label: "X", targetPct: "33.3333", tolerancePct: "0", sortOrder: 0 },
      { label: "Y", targetPct: "66.6667", tolerancePct: "60.5", sortOrder: 1 },
    ]);

    expectOk(await graphql.remove(key, b.publicId));
    view = await nested(key, p);
    expect(view).toEqual({ models: expectOk(await graphql.list(key, p)), active: null });
    expect(names(view.models)).toEqual(["A", "C"]);
  });

  it("each portfolio of a portfolios query gets its own models", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(key, "P");
    const q = await newPortfolio(key, "Q");
    await newPortfolio(key, "Empty");
    await seedModel(key, p, { name: "P1" });
    const p2 = await seedModel(key, p, { name: "P2", isActive: true });
    await seedModel(key, q, { name: "Q1" });
    const stranger = await t.newAccount();
    await seedModel(stranger, await newPortfolio(stranger), { name: "Theirs", isActive: true });

    const res = await t.gql(key, "{ portfolios { name allocationModels { name } activeAllocationModel { publicId } } }");
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolios).toEqual([
      { name: "P", allocationModels: [{ name: "P1" }, { name: "P2" }], activeAllocationModel: { publicId: p2.publicId } },
      { name: "Q", allocationModels: [{ name: "Q1" }], activeAllocationModel: null },
      { name: "Empty", allocationModels: [], activeAllocationModel: null },
    ]);
  });
});
