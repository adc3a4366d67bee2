import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Custom groups (API.md §2 Custom groups): every operation over REST and over GraphQL on the same
 * scenarios. Groups are account-wide: only the adviser changes them (a client key: FORBIDDEN), a
 * client key may read them, and another account's groups and holdings answer NOT_FOUND.
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

interface Group {
  id: number;
  name: string;
  labels: string[];
}

interface Assignment {
  holdingId: number;
  label: string;
}

interface FieldError {
  path: string;
  message: string;
}

interface Outcome<T> {
  status: number;
  data?: T;
  code?: string;
  errors?: FieldError[];
  res: request.Response;
}

interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<Group[]>>;
  /** REST: 404 when absent; GraphQL: customGroup(id) is null. */
  get(key: string, id: unknown): Promise<Outcome<Group | null>>;
  create(key: string, input: unknown): Promise<Outcome<Group>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Group>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  /** REST: GET …/assignments (404 when absent); GraphQL: customGroup(id) { assignments } (null when absent). */
  assignments(key: string, id: unknown): Promise<Outcome<Assignment[] | null>>;
  assign(key: string, id: unknown, assignments: unknown[]): Promise<Outcome<Assignment[]>>;
}

const FIELDS = "id name labels";

function restOutcome<T>(res: request.Response, success: number): Outcome<T> {
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), title: expect.any(String), detail: expect.any(String) });
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

function gqlOutcome<T>(res: request.Response, field: string, map: (v: never) => T = (v) => v): Outcome<T> {
  const errors = res.body.errors as { extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    expect(res.body.data?.[field] ?? null).toBeNull();
    return { status: res.status, code: errors[0].extensions?.code, errors: errors[0].extensions?.errors, res };
  }
  expect(res.status).toBe(200);
  return { status: res.status, data: map(res.body.data[field] as never), res };
}

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
const group = (g: Group | null) => {
  if (!g) return null;
  expect(String(g.id)).toMatch(/^\d+$/);
  return { ...g, id: Number(g.id) };
};
const assignment = (a: Assignment) => {
  expect(String(a.holdingId)).toMatch(/^\d+$/);
  return { ...a, holdingId: Number(a.holdingId) };
};
/** GraphQL's ID accepts strings and integers; malformed values go through as strings. */
const gqlId = (v: unknown) => (typeof v === "number" ? String(v) : v);

const rest: Transport = {
  name: "REST",
  list: async (k) => restOutcome(await t.http.get("/v1/custom-groups").set("authorization", k), 200),
  get: async (k, id) => restOutcome(await t.http.get(`/v1/custom-groups/${id}`).set("authorization", k), 200),
  create: async (k, input) => restOutcome(await t.http.post("/v1/custom-groups").set("authorization", k).send(input as object), 201),
  update: async (k, id, input) => restOutcome(await t.http.put(`/v1/custom-groups/${id}`).set("authorization", k).send(input as object), 200),
  remove: async (k, id) => restOutcome(await t.http.delete(`/v1/custom-groups/${id}`).set("authorization", k), 204),
  assignments: async (k, id) => restOutcome(await t.http.get(`/v1/custom-groups/${id}/assignments`).set("authorization", k), 200),
  assign: async (k, id, list) => restOutcome(await t.http.put(`/v1/custom-groups/${id}/assignments`).set("authorization", k).send(list), 200),
};

const graphql: Transport = {
  name: "GraphQL",
  list: async (k) => gqlOutcome(await t.gql(k, `{ customGroups { ${FIELDS} } }`), "customGroups", (gs: Group[]) => gs.map((g) => group(g)!)),
  get: async (k, id) => gqlOutcome(await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { ${FIELDS} } }`, { id: String(id) }), "customGroup", group),
  create: async (k, input) =>
    gqlOutcome(await t.gql(k, `mutation ($input: CreateCustomGroupInput!) { createCustomGroup(input: $input) { ${FIELDS} } }`, { input }), "createCustomGroup", (g: Group) => group(g)!),
  update: async (k, id, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!, $input: UpdateCustomGroupInput!) { updateCustomGroup(id: $id, input: $input) { ${FIELDS} } }`, { id: String(id), input }),
      "updateCustomGroup",
      (g: Group) => group(g)!,
    ),
  remove: async (k, id) => gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteCustomGroup(id: $id) }`, { id: String(id) }), "deleteCustomGroup"),
  assignments: async (k, id) =>
    gqlOutcome(await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { assignments { holdingId label } } }`, { id: String(id) }), "customGroup", (g: { assignments: Assignment[] } | null) =>
      g ? g.assignments.map(assignment) : null,
    ),
  assign: async (k, id, list) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!, $list: [CustomGroupAssignmentInput!]!) { setCustomGroupAssignments(id: $id, assignments: $list) { holdingId label } }`, {
        id: String(id),
        list: (list as Record<string, unknown>[]).map((a) => ({ ...a, holdingId: gqlId(a.holdingId) })),
      }),
      "setCustomGroupAssignments",
      (as: Assignment[]) => as.map(assignment),
    ),
};

function expectFailure(tr: Transport, o: Outcome<unknown>, code: string, status: number): void {
  expect({ code: o.code, data: o.data }).toEqual({ code, data: undefined });
  if (tr.name === "REST") expect(o.status).toBe(status);
}

/** VALIDATION_FAILED whose `errors` name exactly these paths. */
function expectInvalid(tr: Transport, o: Outcome<unknown>, ...paths: string[]): void {
  expectFailure(tr, o, "VALIDATION_FAILED", 400);
  expect([...new Set(o.errors!.map((e) => e.path))].sort()).toEqual([...paths].sort());
  for (const e of o.errors!) expect(e).toEqual({ path: expect.any(String), message: expect.any(String) });
}

function expectAbsent(tr: Transport, o: Outcome<unknown>): void {
  if (tr.name === "REST") return expectFailure(tr, o, "NOT_FOUND", 404);
  expect(o.code).toBeUndefined();
  expect(o.data).toBeNull();
}

/** The detail of a failure: problem+json `detail`, or the GraphQL error's message. */
const message = (o: Outcome<unknown>): string => o.res.body.detail ?? o.res.body.errors[0].message;

async function newPortfolio(k: string, name = "P"): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set("authorization", k).send({ name });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function newHolding(k: string, portfolioId: number, symbol: string): Promise<number> {
  const res = await t.http.post(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", k).send({ symbol, name: `${symbol} fund` });
  expect(res.status).toBe(201);
  return res.body.id;
}

const STRATEGY = { name: "Strategy", labels: ["Core", "Satellite"] };

const BAD_GROUPS: [string, Record<string, unknown>, string[]][] = [
  ["an empty name", { name: "", labels: ["A"] }, ["name"]],
  ["a 201-character name", { name: "n".repeat(201), labels: ["A"] }, ["name"]],
  ["a name with a control character", { name: "a\u0007b", labels: ["A"] }, ["name"]],
  ["no labels", { name: "G", labels: [] }, ["labels"]],
  ["an empty label", { name: "G", labels: ["A", " "] }, ["labels[1]"]],
  ["a 201-character label", { name: "G", labels: ["l".repeat(201)] }, ["labels[0]"]],
  ["a label repeated (ignoring case)", { name: "G", labels: ["Core", "Satellite", "core"] }, ["labels[2]"]],
  ["201 labels", { name: "G", labels: Array.from({ length: 201 }, (_, i) => `L${i}`) }, ["labels"]],
];

describe.each([rest, graphql])("custom groups over $name", (tr) => {
  async function created(k: string, input: Record<string, unknown> = STRATEGY): Promise<Group> {
    const o = await tr.create(k, input);
    expect(o.code).toBeUndefined();
    return o.data!;
  }

  describe("create and read", () => {
    it("answers the new group, which is then listed and readable", async () => {
      const o = await tr.create(key, { name: " Strategy ", labels: ["Core", " Satellite"] });
      expect(o.code).toBeUndefined();
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(["id", "labels", "name"]);
      }
      expect(o.data).toEqual({ id: expect.any(Number), name: "Strategy", labels: ["Core", "Satellite"] });
      expect((await tr.get(key, o.data!.id)).data).toEqual(o.data);
      expect((await tr.list(key)).data).toEqual([o.data]);
      expect((await tr.assignments(key, o.data!.id)).data).toEqual([]);
    });

    it("accepts 200 labels of 200 characters", async () => {
      const labels = Array.from({ length: 200 }, (_, i) => String(i).padStart(200, "x"));
      expect((await created(key, { name: "Wide", labels })).labels).toEqual(labels);
    });

    it.each(BAD_GROUPS)("rejects %s with VALIDATION_FAILED naming the path, writing nothing", async (_label, input, paths) => {
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.create(key, input), ...paths);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers CONFLICT for a name the account already uses, writing nothing; another account may use it", async () => {
      await created(key);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { name: "Strategy", labels: ["X"] });
      expectFailure(tr, o, "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.create(await t.newAccount(), STRATEGY)).code).toBeUndefined();
    });

    it("answers a missing group as absent and rejects a malformed id", async () => {
      expectAbsent(tr, await tr.get(key, 999999));
      expectAbsent(tr, await tr.assignments(key, 999999));
      expectInvalid(tr, await tr.get(key, "abc"), "groupId");
    });
  });

  describe("update", () => {
    it("renames the group and replaces its labels; absent fields stay", async () => {
      const g = await created(key);
      expect((await tr.update(key, g.id, { name: "Style" })).data).toEqual({ ...g, name: "Style" });
      expect((await tr.update(key, g.id, { labels: ["Satellite", "Core", "Income"] })).data).toEqual({ id: g.id, name: "Style", labels: ["Satellite", "Core", "Income"] });
      // Its own name again is no conflict; an empty change changes nothing.
      expect((await tr.update(key, g.id, { name: "Style" })).code).toBeUndefined();
      expect((await tr.update(key, g.id, {})).data).toEqual({ id: g.id, name: "Style", labels: ["Satellite", "Core", "Income"] });
      expect((await rest.get(key, g.id)).data).toEqual({ id: g.id, name: "Style", labels: ["Satellite", "Core", "Income"] });
    });

    it("answers CONFLICT when renaming to another group's name, writing nothing", async () => {
      await created(key);
      const other = await created(key, { name: "Style", labels: ["Growth"] });
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.update(key, other.id, { name: "Strategy" }), "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("refuses (BUSINESS_RULE) to drop a label still assigned, naming it; an unassigned label may go", async () => {
      const g = await created(key, { name: "Strategy", labels: ["Core", "Satellite", "Spare"] });
      const p = await newPortfolio(key);
      const h = await newHolding(key, p, "AAA");
      expect((await tr.assign(key, g.id, [{ holdingId: h, label: "Satellite" }])).code).toBeUndefined();
      const before = await ledgerSnapshot(t.db);

      const o = await tr.update(key, g.id, { name: "Renamed", labels: ["Core"] });
      expectFailure(tr, o, "BUSINESS_RULE", 422);
      expect(message(o)).toContain('"Satellite"');
      expect(message(o)).not.toContain('"Spare"');
      expect(await ledgerSnapshot(t.db)).toBe(before);

      expect((await tr.update(key, g.id, { labels: ["Satellite", "Core"] })).data!.labels).toEqual(["Satellite", "Core"]);
    });

    it.each(BAD_GROUPS)("rejects %s, writing nothing", async (_label, input, paths) => {
      const g = await created(key);
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.update(key, g.id, input), ...paths);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for a missing group", async () => {
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.update(key, 999999, { name: "X" }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("delete", () => {
    it("removes the group with its assignments, and only those", async () => {
      const g = await created(key);
      const keep = await created(key, { name: "Style", labels: ["Growth"] });
      const h = await newHolding(key, await newPortfolio(key), "AAA");
      await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
      await tr.assign(key, keep.id, [{ holdingId: h, label: "Growth" }]);

      const o = await tr.remove(key, g.id);
      expect(o.code).toBeUndefined();
      expect(o.data).toBe(true);
      expectAbsent(tr, await tr.get(key, g.id));
      expectFailure(tr, await tr.remove(key, g.id), "NOT_FOUND", 404);
      expect((await tr.list(key)).data).toEqual([keep]);
      expect((await tr.assignments(key, keep.id)).data).toEqual([{ holdingId: h, label: "Growth" }]);
      const [row] = await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM custom_group_assignment");
      expect(Number(row.n)).toBe(1);
      // The holding stays.
      expect((await t.http.get(`/v1/holdings/${h}`).set("authorization", key)).status).toBe(200);
    });
  });

  describe("assignments", () => {
    it("replaces the group's assignments as a whole, answering them by holding", async () => {
      const g = await created(key);
      const p = await newPortfolio(key);
      const q = await newPortfolio(key, "Q");
      const [h1, h2, h3] = [await newHolding(key, p, "AAA"), await newHolding(key, p, "BBB"), await newHolding(key, q, "CCC")];

      const first = await tr.assign(key, g.id, [
        { holdingId: h3, label: "Satellite" },
        { holdingId: h1, label: "Core" },
      ]);
      expect(first.code).toBeUndefined();
      expect(first.data).toEqual([
        { holdingId: h1, label: "Core" },
        { holdingId: h3, label: "Satellite" },
      ]);
      expect((await tr.assignments(key, g.id)).data).toEqual(first.data);

      // Not listed any more: unlabelled.
      const second = await tr.assign(key, g.id, [
        { holdingId: h2, label: "Core" },
        { holdingId: h1, label: "Satellite" },
      ]);
      expect(second.data).toEqual([
        { holdingId: h1, label: "Satellite" },
        { holdingId: h2, label: "Core" },
      ]);
      expect((await rest.assignments(key, g.id)).data).toEqual(second.data);

      expect((await tr.assign(key, g.id, [])).data).toEqual([]);
      expect((await tr.assignments(key, g.id)).data).toEqual([]);
    });

    it("rejects a label the group does not have at [i].label, a holding listed twice, and malformed input, writing nothing", async () => {
      const g = await created(key);
      const p = await newPortfolio(key);
      const [h1, h2] = [await newHolding(key, p, "AAA"), await newHolding(key, p, "BBB")];
      await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }]);
      const before = await ledgerSnapshot(t.db);

      expectInvalid(tr, await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }, { holdingId: h2, label: "Income" }]), "[1].label");
      // Labels match exactly: "core" is not "Core".
      expectInvalid(tr, await tr.assign(key, g.id, [{ holdingId: h1, label: "core" }, { holdingId: h2, label: "Nope" }]), "[0].label", "[1].label");
      expectInvalid(tr, await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }, { holdingId: h1, label: "Satellite" }]), "[1].holdingId");
      expectInvalid(tr, await tr.assign(key, g.id, [{ holdingId: "abc", label: "Core" }]), "[0].holdingId");
      expectInvalid(tr, await tr.assign(key, g.id, [{ holdingId: h1, label: "" }]), "[0].label");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND naming a holding that is missing or another account's, writing nothing", async () => {
      const g = await created(key);
      const h = await newHolding(key, await newPortfolio(key), "AAA");
      const other = await t.newAccount();
      const theirs = await newHolding(other, await newPortfolio(other), "ZZZ");
      await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
      const before = await ledgerSnapshot(t.db);
      for (const missing of [999999, theirs]) {
        const o = await tr.assign(key, g.id, [{ holdingId: h, label: "Satellite" }, { holdingId: missing, label: "Core" }]);
        expectFailure(tr, o, "NOT_FOUND", 404);
        expect(message(o)).toContain(`Holding ${missing}`);
      }
      expectFailure(tr, await tr.assign(key, 999999, [{ holdingId: h, label: "Core" }]), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a holding's assignments go with it", async () => {
      const g = await created(key);
      const p = await newPortfolio(key);
      const [h1, h2] = [await newHolding(key, p, "AAA"), await newHolding(key, p, "BBB")];
      await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }, { holdingId: h2, label: "Core" }]);
      expect((await t.http.delete(`/v1/holdings/${h1}`).set("authorization", key)).status).toBe(204);
      expect((await tr.assignments(key, g.id)).data).toEqual([{ holdingId: h2, label: "Core" }]);
    });
  });

  describe("tenant isolation", () => {
    it("hides another account's group exactly like a missing one, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await created(key);
      const theirHolding = await newHolding(other, await newPortfolio(other), "ZZZ");
      const before = await ledgerSnapshot(t.db);

      expect((await tr.list(other)).data).toEqual([]);
      expectAbsent(tr, await tr.get(other, mine.id));
      expectAbsent(tr, await tr.assignments(other, mine.id));
      expectFailure(tr, await tr.update(other, mine.id, { name: "Hijacked" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.assign(other, mine.id, [{ holdingId: theirHolding, label: "Core" }]), "NOT_FOUND", 404);
      expectFailure(tr, await tr.remove(other, mine.id), "NOT_FOUND", 404);

      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.get(key, mine.id)).data).toEqual(mine);
    });
  });

  describe("client login keys", () => {
    it.each(["Read", "ReadWrite"] as const)("a client key with %s reads groups and its own holdings' labels, and may change nothing (FORBIDDEN)", async (permission) => {
      const g = await created(key);
      const hers = await newPortfolio(key, "Hers");
      const notHers = await newPortfolio(key, "Not hers");
      const [h1, h2] = [await newHolding(key, hers, "AAA"), await newHolding(key, notHers, "BBB")];
      await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }, { holdingId: h2, label: "Satellite" }]);
      const login = await t.newClientKey(key, permission, [hers]);
      const before = await ledgerSnapshot(t.db);

      expect((await tr.list(login)).data).toEqual([g]);
      expect((await tr.get(login, g.id)).data).toEqual(g);
      // Only the labels of holdings the key may see.
      expect((await tr.assignments(login, g.id)).data).toEqual([{ holdingId: h1, label: "Core" }]);

      expectFailure(tr, await tr.create(login, { name: "Mine", labels: ["A"] }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.update(login, g.id, { name: "Renamed" }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.assign(login, g.id, [{ holdingId: h1, label: "Satellite" }]), "FORBIDDEN", 403);
      expectFailure(tr, await tr.remove(login, g.id), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  it("reads the same group on both transports", async () => {
    const g = await created(key);
    const h = await newHolding(key, await newPortfolio(key), "AAA");
    await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, g.id)).data).toEqual(g);
      expect((await reader.list(key)).data).toEqual([g]);
      expect((await reader.assignments(key, g.id)).data).toEqual([{ holdingId: h, label: "Core" }]);
    }
  });
});

describe("GraphQL specifics", () => {
  it("customGroups { assignments } costs the same few statements for 1 group as for 10", async () => {
    const seed = async (k: string, groups: number) => {
      const p = await newPortfolio(k);
      const holdings = [await newHolding(k, p, "AAA"), await newHolding(k, p, "BBB"), await newHolding(k, p, "CCC")];
      for (let i = 0; i < groups; i++) {
        const g = (await rest.create(k, { name: `G${i}`, labels: ["A", "B"] })).data!;
        await rest.assign(k, g.id, holdings.map((h, j) => ({ holdingId: h, label: j % 2 ? "B" : "A" })));
      }
    };
    const small = await t.newAccount();
    await seed(small, 1);
    await seed(key, 10);
    const statements = async (k: string) => {
      const before = t.db.statementCount;
      const res = await t.gql(k, `{ customGroups { id labels assignments { holdingId label } } }`);
      expect(res.body.errors).toBeUndefined();
      return { n: t.db.statementCount - before, groups: res.body.data.customGroups as { assignments: unknown[] }[] };
    };
    const one = await statements(small);
    const many = await statements(key);
    expect(many.groups).toHaveLength(10);
    for (const g of many.groups) expect(g.assignments).toHaveLength(3);
    // key lookup + groups + one batch of assignments
    expect(many.n).toBe(3);
    expect(one.n).toBe(many.n);
  });
});

describe("REST specifics", () => {
  it("PUT assignments with a body that is not an array is 400", async () => {
    const g = (await rest.create(key, STRATEGY)).data!;
    const res = await t.http.put(`/v1/custom-groups/${g.id}/assignments`).set("authorization", key).send({ holdingId: 1, label: "Core" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors).toEqual([{ path: "(body)", message: expect.any(String) }]);
  });

  it("bad ids on every group path: abc → 400 naming groupId, 999999 → 404", async () => {
    const before = await ledgerSnapshot(t.db);
    const calls: [string, string, unknown?][] = [
      ["get", "/v1/custom-groups/{id}"],
      ["put", "/v1/custom-groups/{id}", { name: "X" }],
      ["delete", "/v1/custom-groups/{id}"],
      ["get", "/v1/custom-groups/{id}/assignments"],
      ["put", "/v1/custom-groups/{id}/assignments", []],
    ];
    for (const [method, path, body] of calls) {
      for (const [id, status] of [["abc", 400], ["999999", 404]] as const) {
        const req = (t.http as unknown as Record<string, (p: string) => request.Test>)[method](path.replace("{id}", id)).set("authorization", key);
        const res = await (body ? req.send(body as object) : req);
        expect({ method, path, id, status: res.status }).toEqual({ method, path, id, status });
        if (status === 400) expect(res.body.errors).toEqual([{ path: "groupId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });
});
