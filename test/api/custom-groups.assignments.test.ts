import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectInvalid, failureMessage } from "../support/outcomes";
import { group, customGroupsApi, created } from "./custom-groups.transports";

/**
 * A group's assignments: replaced as a whole, refused when a label, holding or input is bad, and gone
 * with their holding.
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

describe.each([rest, graphql])("custom groups over $name", (tr) => {
  describe("assignments", () => {
    it("replaces the group's assignments as a whole, answering them by holding", async () => {
      const g = await created(tr, key);
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
      const g = await created(tr, key);
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
      const g = await created(tr, key);
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
      const g = await created(tr, key);
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
});
