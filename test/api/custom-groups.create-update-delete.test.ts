import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectInvalid, failureMessage } from "../support/outcomes";
import { group, STRATEGY, customGroupsApi, created } from "./custom-groups.transports";

/**
 * Creating, reading, renaming, relabelling and deleting groups; both transports read the same group.
 *
 * Custom groups (docs/conventions.md §2.3–2.4): every operation over REST and over GraphQL on the same
 * scenarios. Groups are account-wide: only the adviser changes them (a client key: FORBIDDEN), a
 * client key may read them, and another account's groups and holdings answer NOT_FOUND.
 */

const t = useTestApp();
let key: string;
const { newHolding, rest, graphql } = customGroupsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

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
      expect((await created(tr, key, { name: "Wide", labels })).labels).toEqual(labels);
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
      await created(tr, key);
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
      const g = await created(tr, key);
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
      await created(tr, key);
      const other = await created(tr, key, { name: "Style", labels: ["Growth"] });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(key, other.id, { name: "Strategy" }), "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("refuses (BUSINESS_RULE) to drop a label still assigned, naming it; an unassigned label may go", async () => {
      const g = await created(tr, key, { name: "Strategy", labels: ["Core", "Satellite", "Spare"] });
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
      const g = await created(tr, key);
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
      const g = await created(tr, key);
      const keep = await created(tr, key, { name: "Style", labels: ["Growth"] });
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

  it("reads the same group on both transports", async () => {
    const g = await created(tr, key);
    const h = await newHolding(key, await newPortfolio(t, key), "AAA");
    await tr.assign(key, g.id, [{ holdingId: h, label: "Core" }]);
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, g.id)).data).toEqual(g);
      expect((await reader.list(key)).data).toEqual([g]);
      expect((await reader.assignments(key, g.id)).data).toEqual([{ holdingId: h, label: "Core" }]);
    }
  });
});
