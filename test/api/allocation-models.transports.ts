/**
 * The allocation-models API over REST and GraphQL, for the test/api/allocation-models-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = allocationModelsApi(t)`.
 */
import type { TestApp } from "../support/app";
import {
  expectOk,
  gqlDecimal,
  restCall,
  restDecimal,
  withApp,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";

/**
 * Allocation models (docs/reports.md §4.1), driven over both
 * transports on the same scenarios: every rule runs once through REST (/v1) and once through
 * GraphQL (/graphql) via the `Transport` adapters below, which normalise a model so the two can be
 * compared. Setup (portfolios, existing models) goes through REST; the operation under test goes
 * through the transport under test.
 */

// ---------------------------------------------------------------------------------------------
// A model as both transports show it: decimals as their exact digits, portfolioId as a string.
// ---------------------------------------------------------------------------------------------

export interface Bucket {
  label: string;
  targetPct: string;
  tolerancePct: string;
  sortOrder: number;
}

export interface Model {
  publicId: string;
  portfolioId: string;
  name: string;
  notes: string;
  dimension: string;
  isActive: boolean;
  buckets: Bucket[];
}

export type Id = number | string;

export interface Transport {
  name: TransportName;
  list(key: string, portfolioId: Id): Promise<Outcome<Model[]>>;
  save(key: string, portfolioId: Id, input: unknown): Promise<Outcome<Model>>;
  active(key: string, portfolioId: Id): Promise<Outcome<Model | null>>;
  get(key: string, publicId: string): Promise<Outcome<Model | null>>;
  remove(key: string, publicId: string): Promise<Outcome<boolean>>;
  activate(key: string, publicId: string): Promise<Outcome<Model>>;
}

export function toModel(raw: Json, decimal: (v: unknown) => string, transport: TransportName): Model {
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

export const restModel = (body: unknown) => toModel(body as Json, restDecimal, "REST");

// GraphQL ---------------------------------------------------------------------------------------

export const MODEL_FIELDS = `fragment M on AllocationModel {
  publicId portfolioId name notes dimension isActive
  buckets { label targetPct tolerancePct sortOrder }
}`;

export const Q = {
  list: `query($p: ID!) { allocationModels(portfolioId: $p) { ...M } } ${MODEL_FIELDS}`,
  active: `query($p: ID!) { activeAllocationModel(portfolioId: $p) { ...M } } ${MODEL_FIELDS}`,
  get: `query($id: ID!) { allocationModel(publicId: $id) { ...M } } ${MODEL_FIELDS}`,
  save: `mutation($p: ID!, $input: AllocationModelInput!) { saveAllocationModel(portfolioId: $p, input: $input) { ...M } } ${MODEL_FIELDS}`,
  remove: `mutation($id: ID!) { deleteAllocationModel(publicId: $id) }`,
  activate: `mutation($id: ID!) { activateAllocationModel(publicId: $id) { ...M } } ${MODEL_FIELDS}`,
  portfolio: `query($id: ID!) { portfolio(id: $id) { id allocationModels { ...M } activeAllocationModel { ...M } } } ${MODEL_FIELDS}`,
};

export const gqlModel = (data: unknown) => toModel(data as Json, gqlDecimal, "GraphQL");
export const gqlModelOrNull = (data: unknown) => (data === null ? null : gqlModel(data));

export const BALANCED = {
  name: "Balanced",
  notes: "Long-term mix",
  dimension: "assetClass",
  buckets: [
    { label: "Equities", targetPct: 60, tolerancePct: 5 },
    { label: "Bonds", targetPct: 30, tolerancePct: 2.5 },
    { label: "Cash", targetPct: 10 },
  ],
};

export const names = (models: Model[]) => models.map((m) => m.name);
/** Seed 2.2 leaves the format open; the column holds up to 36 characters. */
export const PUBLIC_ID = /^\S{1,36}$/;

/** n buckets B001..Bnnn of `pct` each. */
export function manyBuckets(n: number, pct: string): { label: string; targetPct: string }[] {
  return Array.from({ length: n }, (_, i) => ({ label: `B${String(i + 1).padStart(3, "0")}`, targetPct: pct }));
}

// =============================================================================================
// Validation
// =============================================================================================

export const VALID = {
  name: "Balanced",
  dimension: "assetClass",
  buckets: [
    { label: "Equities", targetPct: 60 },
    { label: "Bonds", targetPct: 30 },
    { label: "Cash", targetPct: 10 },
  ],
};

/** VALID with bucket i's fields replaced. */
export function withBucket(i: number, patch: Json): Json {
  return { ...VALID, buckets: VALID.buckets.map((b, j) => (j === i ? { ...b, ...patch } : b)) };
}

export function without(field: keyof typeof VALID): Json {
  const copy: Json = { ...VALID };
  delete copy[field];
  return copy;
}

export interface BadCase {
  rule: string;
  input: Json;
  /** The paths the service names in `errors` (REST, and GraphQL when it reaches the service). */
  paths: string[];
  /** GraphQL's own type system rejects this input before the service: BAD_USER_INPUT. */
  graphqlTypeError?: true;
}

export const BAD: BadCase[] = [
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
  {
    rule: "501 buckets",
    input: { ...VALID, buckets: [...manyBuckets(500, "0.2"), { label: "Extra", targetPct: 0 }] },
    paths: ["buckets"],
  },
  { rule: "buckets missing", input: without("buckets"), paths: ["buckets"], graphqlTypeError: true },
  { rule: "empty label", input: withBucket(2, { label: "" }), paths: ["buckets[2].label"] },
  { rule: "blank label", input: withBucket(2, { label: "  " }), paths: ["buckets[2].label"] },
  { rule: "duplicate label, ignoring case", input: withBucket(2, { label: "EQUITIES" }), paths: ["buckets[2].label"] },
  { rule: "duplicate label, same case", input: withBucket(1, { label: "Equities" }), paths: ["buckets[1].label"] },
  {
    rule: "targetPct below 0",
    input: {
      ...VALID,
      buckets: [
        { label: "A", targetPct: 60 },
        { label: "B", targetPct: -1 },
        { label: "C", targetPct: 41 },
      ],
    },
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct above 100",
    input: {
      ...VALID,
      buckets: [
        { label: "A", targetPct: 0 },
        { label: "B", targetPct: 100.0001 },
      ],
    },
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct with 5 decimals (number)",
    input: withBucket(1, { targetPct: 29.99999 }),
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct with 5 decimals (string)",
    input: withBucket(1, { targetPct: "30.00001" }),
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct non-numeric string",
    input: withBucket(1, { targetPct: "thirty" }),
    paths: ["buckets[1].targetPct"],
  },
  { rule: "targetPct empty string", input: withBucket(1, { targetPct: "" }), paths: ["buckets[1].targetPct"] },
  {
    rule: "targetPct with a percent sign",
    input: withBucket(1, { targetPct: "30%" }),
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct exponent string 3e1",
    input: withBucket(1, { targetPct: "3e1" }),
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct exponent string 3E1",
    input: withBucket(1, { targetPct: "3E1" }),
    paths: ["buckets[1].targetPct"],
  },
  {
    rule: "targetPct boolean",
    input: withBucket(1, { targetPct: true }),
    paths: ["buckets[1].targetPct"],
    graphqlTypeError: true,
  },
  {
    rule: "targetPct null",
    input: withBucket(1, { targetPct: null }),
    paths: ["buckets[1].targetPct"],
    graphqlTypeError: true,
  },
  { rule: "tolerancePct below 0", input: withBucket(0, { tolerancePct: -0.5 }), paths: ["buckets[0].tolerancePct"] },
  {
    rule: "tolerancePct above 100",
    input: withBucket(0, { tolerancePct: "100.5" }),
    paths: ["buckets[0].tolerancePct"],
  },
  {
    rule: "tolerancePct with 5 decimals",
    input: withBucket(0, { tolerancePct: 0.00001 }),
    paths: ["buckets[0].tolerancePct"],
  },
  {
    rule: "tolerancePct non-numeric",
    input: withBucket(0, { tolerancePct: "five" }),
    paths: ["buckets[0].tolerancePct"],
  },
  { rule: "targets summing to 99.98", input: withBucket(1, { targetPct: 29.98 }), paths: ["buckets"] },
  { rule: "targets summing to 100.02", input: withBucket(1, { targetPct: "30.02" }), paths: ["buckets"] },
  { rule: "targets summing to 90", input: withBucket(2, { targetPct: 0 }), paths: ["buckets"] },
  {
    rule: "sortOrder 1.5",
    input: withBucket(0, { sortOrder: 1.5 }),
    paths: ["buckets[0].sortOrder"],
    graphqlTypeError: true,
  },
  {
    rule: 'sortOrder "1" (a string)',
    input: withBucket(0, { sortOrder: "1" }),
    paths: ["buckets[0].sortOrder"],
    graphqlTypeError: true,
  },
  {
    rule: "holding label without an exchange",
    input: {
      ...VALID,
      dimension: "holding",
      buckets: [
        { label: "CBA.ASX", targetPct: 50 },
        { label: "BHP", targetPct: 40 },
        { label: "Cash", targetPct: 10 },
      ],
    },
    paths: ["buckets[1].label"],
  },
  {
    rule: "holding label ending in a dot, or with a space for the dot",
    input: {
      ...VALID,
      dimension: "holding",
      buckets: [
        { label: "CBA.", targetPct: 50 },
        { label: "BHP ASX", targetPct: 50 },
      ],
    },
    paths: ["buckets[0].label", "buckets[1].label"],
  },
  {
    rule: "several faults at once, each named",
    input: {
      ...VALID,
      name: "",
      buckets: [
        { label: "Equities", targetPct: 60 },
        { label: "Bonds", targetPct: "abc" },
        { label: "", targetPct: 10 },
      ],
    },
    paths: ["name", "buckets[1].targetPct", "buckets[2].label"],
  },
];

/** Both transports and the setup over the suite's app (read inside tests only). */
export function allocationModelsApi(t: TestApp) {
  const { gqlCall } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    list: (key, p) =>
      restCall(t.http.get(`/v1/portfolios/${p}/allocation-models`).set("authorization", key), (b) =>
        (b as Json[]).map(restModel),
      ),
    save: (key, p, input) =>
      restCall(
        t.http
          .post(`/v1/portfolios/${p}/allocation-models`)
          .set("authorization", key)
          .send(input as object),
        restModel,
      ),
    active: (key, p) =>
      restCall(t.http.get(`/v1/portfolios/${p}/allocation-models/active`).set("authorization", key), (b) =>
        b === null ? null : restModel(b),
      ),
    get: (key, id) =>
      restCall(t.http.get(`/v1/allocation-models/${encodeURIComponent(id)}`).set("authorization", key), restModel),
    remove: (key, id) =>
      restCall(t.http.delete(`/v1/allocation-models/${encodeURIComponent(id)}`).set("authorization", key), () => true),
    activate: (key, id) =>
      restCall(
        t.http.post(`/v1/allocation-models/${encodeURIComponent(id)}/activate`).set("authorization", key),
        restModel,
      ),
  };

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

  // Setup (REST) ----------------------------------------------------------------------------------

  /** A custom group of the key's account: a customGroup:{id} dimension must name one (else NOT_FOUND). */
  async function newCustomGroup(key: string): Promise<number> {
    const res = await t.http
      .post("/v1/custom-groups")
      .set("authorization", key)
      .send({ name: "Strategy", labels: ["Alpha", "Beta", "Gamma"] });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }

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
    const [{ n }] = await t.db.sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM allocation_model WHERE portfolio_id = $1 AND is_active",
      [portfolioId],
    );
    return n;
  }
  return { gqlCall, rest, graphql, TRANSPORTS, newCustomGroup, seedModel, dbRow, activeCount };
}
