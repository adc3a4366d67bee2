import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";
import { newCustomHolding, newPortfolio } from "../support/kit";
import {
  expectAbsent,
  expectError,
  expectInvalid,
  failureMessage,
  gqlOutcome,
  restCall,
  type Outcome,
} from "../support/outcomes";

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

/** A custom investment named "<symbol> fund" in the portfolio, over REST; returns its id. */
const newHolding = (k: string, portfolioId: number, symbol: string) =>
  newCustomHolding(t, k, portfolioId, { symbol, name: `${symbol} fund` });

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
  list: async (k) => restCall(await t.http.get("/v1/custom-groups").set("authorization", k), 200),
  get: async (k, id) => restCall(await t.http.get(`/v1/custom-groups/${id}`).set("authorization", k), 200),
  create: async (k, input) =>
    restCall(
      await t.http
        .post("/v1/custom-groups")
        .set("authorization", k)
        .send(input as object),
      201,
    ),
  update: async (k, id, input) =>
    restCall(
      await t.http
        .put(`/v1/custom-groups/${id}`)
        .set("authorization", k)
        .send(input as object),
      200,
    ),
  remove: async (k, id) => restCall(await t.http.delete(`/v1/custom-groups/${id}`).set("authorization", k), 204),
  assignments: async (k, id) =>
    restCall(await t.http.get(`/v1/custom-groups/${id}/assignments`).set("authorization", k), 200),
  assign: async (k, id, list) =>
    restCall(await t.http.put(`/v1/custom-groups/${id}/assignments`).set("authorization", k).send(list), 200),
};

const graphql: Transport = {
  name: "GraphQL",
  list: async (k) =>
    gqlOutcome(await t.gql(k, `{ customGroups { ${FIELDS} } }`), "customGroups", (gs: Group[]) =>
      gs.map((g) => group(g)!),
    ),
  get: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { ${FIELDS} } }`, { id: String(id) }),
      "customGroup",
      group,
    ),
  create: async (k, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($input: CreateCustomGroupInput!) { createCustomGroup(input: $input) { ${FIELDS} } }`, {
        input,
      }),
      "createCustomGroup",
      (g: Group) => group(g)!,
    ),
  update: async (k, id, input) =>
    gqlOutcome(
      await t.gql(
        k,
        `mutation ($id: ID!, $input: UpdateCustomGroupInput!) { updateCustomGroup(id: $id, input: $input) { ${FIELDS} } }`,
        { id: String(id), input },
      ),
      "updateCustomGroup",
      (g: Group) => group(g)!,
    ),
  remove: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!) { deleteCustomGroup(id: $id) }`, { id: String(id) }),
      "deleteCustomGroup",
    ),
  assignments: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { assignments { holdingId label } } }`, {
        id: String(id),
      }),
      "customGroup",
      (g: { assignments: Assignment[] } | null) => (g ? g.assignments.map(assignment) : null),
    ),
  assign: async (k, id, list) =>
    gqlOutcome(
      await t.gql(
        k,
        `mutation ($id: ID!, $list: [CustomGroupAssignmentInput!]!) { setCustomGroupAssignments(id: $id, assignments: $list) { holdingId label } }`,
        {
          id: String(id),
          list: (list as Record<string, unknown>[]).map((a) => ({ ...a, holdingId: gqlId(a.holdingId) })),
        },
      ),
      "setCustomGroupAssignments",
      (as: Assignment[]) => as.map(assignment),
    ),
};

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

    it.each(BAD_GROUPS)(
      "rejects %s with VALIDATION_FAILED naming the path, writing nothing",
      async (_label, input, paths) => {
        const before = await ledgerSnapshot(t.db);
        expectInvalid(await tr.create(key, input), ...paths);
        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );

    it("answers CONFLICT for a name the account already uses, writing nothing; another account may use it", async () => {
      await created(key);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { name: "Strategy", labels: ["X"] });
      expectError(o, "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.create(await t.newAccount(), STRATEGY)).code).toBeUndefined();
    });

    it("answers a missing group as absent and rejects a malformed id", async () => {
      expectAbsent(await tr.get(key, 999999));
      expectAbsent(await tr.assignments(key, 999999));
      expectInvalid(await tr.get(key, "abc"), "groupId");
    });
  });

  describe("update", () => {
    it("renames the group and replaces its labels; absent fields stay", async () => {
      const g = await created(key);
      expect((await tr.update(key, g.id, { name: "Style" })).data).toEqual({ ...g, name: "Style" });
      expect((await tr.update(key, g.id, { labels: ["Satellite", "Core", "Income"] })).data).toEqual({
        id: g.id,
        name: "Style",
        labels: ["Satellite", "Core", "Income"],
      });
      // Its own name again is no conflict; an empty change changes nothing.
      expect((await tr.update(key, g.id, { name: "Style" })).code).toBeUndefined();
      expect((await tr.update(key, g.id, {})).data).toEqual({
        id: g.id,
        name: "Style",
        labels: ["Satellite", "Core", "Income"],
      });
      expect((await rest.get(key, g.id)).data).toEqual({
        id: g.id,
        name: "Style",
        labels: ["Satellite", "Core", "Income"],
      });
    });

    it("answers CONFLICT when renaming to another group's name, writing nothing", async () => {
      await created(key);
      const other = await created(key, { name: "Style", labels: ["Growth"] });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(key, other.id, { name: "Strategy" }), "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("refuses (BUSINESS_RULE) to drop a label still assigned, naming it; an unassigned label may go", async () => {
      const g = await created(key, { name: "Strategy", labels: ["Core", "Satellite", "Spare"] });
      const p = await newPortfolio(t, key);
      const h = await newHolding(key, p, "AAA");
      expect((await tr.assign(key, g.id, [{ holdingId: h, label: "Satellite" }])).code).toBeUndefined();
      const before = await ledgerSnapshot(t.db);

      const o = await tr.update(key, g.id, { name: "Renamed", labels: ["Core"] });
      expectError(o, "BUSINESS_RULE", 422);
      expect(failureMessage(o)).toContain('"Satellite"');
      expect(failureMessage(o)).not.toContain('"Spare"');
      expect(await ledgerSnapshot(t.db)).toBe(before);

      expect((await tr.update(key, g.id, { labels: ["Satellite", "Core"] })).data!.labels).toEqual([
        "Satellite",
        "Core",
      ]);
    });

    it.each(BAD_GROUPS)("rejects %s, writing nothing", async (_label, input, paths) => {
      const g = await created(key);
      const before = await ledgerSnapshot(t.db);
      expectInvalid(await tr.update(key, g.id, input), ...paths);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for a missing group", async () => {
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(key, 999999, { name: "X" }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("delete", () => {
    it("removes the group with its assignments, and only those", async () => {
      const g = await created(key);
      const keep = await created(key, { name: "Style", labels: ["Growth"] });
      const h = await newHolding(key, await newPortfolio(t, key), "AAA");
      await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
      await tr.assign(key, keep.id, [{ holdingId: h, label: "Growth" }]);

      const o = await tr.remove(key, g.id);
      expect(o.code).toBeUndefined();
      expect(o.data).toBe(true);
      expectAbsent(await tr.get(key, g.id));
      expectError(await tr.remove(key, g.id), "NOT_FOUND", 404);
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
      const p = await newPortfolio(t, key);
      const q = await newPortfolio(t, key, { name: "Q" });
      const [h1, h2, h3] = [
        await newHolding(key, p, "AAA"),
        await newHolding(key, p, "BBB"),
        await newHolding(key, q, "CCC"),
      ];

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
      const p = await newPortfolio(t, key);
      const [h1, h2] = [await newHolding(key, p, "AAA"), await newHolding(key, p, "BBB")];
      await tr.assign(key, g.id, [{ holdingId: h1, label: "Core" }]);
      const before = await ledgerSnapshot(t.db);

      expectInvalid(
        await tr.assign(key, g.id, [
          { holdingId: h1, label: "Core" },
          { holdingId: h2, label: "Income" },
        ]),
        "[1].label",
      );
      // Labels match exactly: "core" is not "Core".
      expectInvalid(
        await tr.assign(key, g.id, [
          { holdingId: h1, label: "core" },
          { holdingId: h2, label: "Nope" },
        ]),
        "[0].label",
        "[1].label",
      );
      expectInvalid(
        await tr.assign(key, g.id, [
          { holdingId: h1, label: "Core" },
          { holdingId: h1, label: "Satellite" },
        ]),
        "[1].holdingId",
      );
      expectInvalid(await tr.assign(key, g.id, [{ holdingId: "abc", label: "Core" }]), "[0].holdingId");
      expectInvalid(await tr.assign(key, g.id, [{ holdingId: h1, label: "" }]), "[0].label");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND naming a holding that is missing or another account's, writing nothing", async () => {
      const g = await created(key);
      const h = await newHolding(key, await newPortfolio(t, key), "AAA");
      const other = await t.newAccount();
      const theirs = await newHolding(other, await newPortfolio(t, other), "ZZZ");
      await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
      const before = await ledgerSnapshot(t.db);
      for (const missing of [999999, theirs]) {
        const o = await tr.assign(key, g.id, [
          { holdingId: h, label: "Satellite" },
          { holdingId: missing, label: "Core" },
        ]);
        expectError(o, "NOT_FOUND", 404);
        expect(failureMessage(o)).toContain(`Holding ${missing}`);
      }
      expectError(await tr.assign(key, 999999, [{ holdingId: h, label: "Core" }]), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a holding's assignments go with it", async () => {
      const g = await created(key);
      const p = await newPortfolio(t, key);
      const [h1, h2] = [await newHolding(key, p, "AAA"), await newHolding(key, p, "BBB")];
      await tr.assign(key, g.id, [
        { holdingId: h1, label: "Core" },
        { holdingId: h2, label: "Core" },
      ]);
      expect((await t.http.delete(`/v1/holdings/${h1}`).set("authorization", key)).status).toBe(204);
      expect((await tr.assignments(key, g.id)).data).toEqual([{ holdingId: h2, label: "Core" }]);
    });
  });

  describe("tenant isolation", () => {
    it("hides another account's group exactly like a missing one, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await created(key);
      const theirHolding = await newHolding(other, await newPortfolio(t, other), "ZZZ");
      const before = await ledgerSnapshot(t.db);

      expect((await tr.list(other)).data).toEqual([]);
      expectAbsent(await tr.get(other, mine.id));
      expectAbsent(await tr.assignments(other, mine.id));
      expectError(await tr.update(other, mine.id, { name: "Hijacked" }), "NOT_FOUND", 404);
      expectError(await tr.assign(other, mine.id, [{ holdingId: theirHolding, label: "Core" }]), "NOT_FOUND", 404);
      expectError(await tr.remove(other, mine.id), "NOT_FOUND", 404);

      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.get(key, mine.id)).data).toEqual(mine);
    });
  });

  describe("client login keys", () => {
    it.each(["Read", "ReadWrite"] as const)(
      "a client key with %s reads groups and its own holdings' labels, and may change nothing (FORBIDDEN)",
      async (permission) => {
        const g = await created(key);
        const hers = await newPortfolio(t, key, { name: "Hers" });
        const notHers = await newPortfolio(t, key, { name: "Not hers" });
        const [h1, h2] = [await newHolding(key, hers, "AAA"), await newHolding(key, notHers, "BBB")];
        await tr.assign(key, g.id, [
          { holdingId: h1, label: "Core" },
          { holdingId: h2, label: "Satellite" },
        ]);
        const login = await t.newClientKey(key, permission, [hers]);
        const before = await ledgerSnapshot(t.db);

        expect((await tr.list(login)).data).toEqual([g]);
        expect((await tr.get(login, g.id)).data).toEqual(g);
        // Only the labels of holdings the key may see.
        expect((await tr.assignments(login, g.id)).data).toEqual([{ holdingId: h1, label: "Core" }]);

        expectError(await tr.create(login, { name: "Mine", labels: ["A"] }), "FORBIDDEN", 403);
        expectError(await tr.update(login, g.id, { name: "Renamed" }), "FORBIDDEN", 403);
        expectError(await tr.assign(login, g.id, [{ holdingId: h1, label: "Satellite" }]), "FORBIDDEN", 403);
        expectError(await tr.remove(login, g.id), "FORBIDDEN", 403);
        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );
  });

  it("reads the same group on both transports", async () => {
    const g = await created(key);
    const h = await newHolding(key, await newPortfolio(t, key), "AAA");
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
      const p = await newPortfolio(t, k);
      const holdings = [await newHolding(k, p, "AAA"), await newHolding(k, p, "BBB"), await newHolding(k, p, "CCC")];
      for (let i = 0; i < groups; i++) {
        const g = (await rest.create(k, { name: `G${i}`, labels: ["A", "B"] })).data!;
        await rest.assign(
          k,
          g.id,
          holdings.map((h, j) => ({ holdingId: h, label: j % 2 ? "B" : "A" })),
        );
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
    const res = await t.http
      .put(`/v1/custom-groups/${g.id}/assignments`)
      .set("authorization", key)
      .send({ holdingId: 1, label: "Core" });
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
      for (const [id, status] of [
        ["abc", 400],
        ["999999", 404],
      ] as const) {
        const req = (t.http as unknown as Record<string, (p: string) => request.Test>)
          [method](path.replace("{id}", id))
          .set("authorization", key);
        const res = await (body ? req.send(body as object) : req);
        expect({ method, path, id, status: res.status }).toEqual({ method, path, id, status });
        if (status === 400) expect(res.body.errors).toEqual([{ path: "groupId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });
});
