import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectAbsent, expectError } from "../support/outcomes";
import { group, customGroupsApi, created } from "./custom-groups.transports";

/**
 * Who may see and change groups: another account's group is hidden like a missing one; a client key
 * reads them and may change nothing.
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
  describe("tenant isolation", () => {
    it("hides another account's group exactly like a missing one, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await created(tr, key);
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
        const g = await created(tr, key);
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
});
