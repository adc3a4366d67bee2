import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectInvalid } from "../support/outcomes";
import { created, portfoliosApi } from "./portfolios.transports";

/**
 * Listing, getting and deleting portfolios, and tenant isolation.
 * (Split from portfolios.test.ts by story; the transports and setup functions are in ./portfolios.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, rest, graphql } = portfoliosApi(t);

describe.each([rest, graphql])("portfolios over $name", (tr) => {
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
      expectAbsent(await tr.get(key, 999999));
    });

    it.each([["abc"], ["0"], ["-1"], ["1.5"]])(
      "rejects the id %p with VALIDATION_FAILED on portfolioId",
      async (id) => {
        expectInvalid(await tr.get(key, id), "portfolioId");
      },
    );
  });

  describe("delete", () => {
    it("removes the portfolio; afterwards it is gone and a second delete is NOT_FOUND", async () => {
      const p = await created(tr, key, { name: "Doomed" });
      const keep = await created(tr, key, { name: "Kept" });
      const o = await tr.remove(key, p.id);
      expect(o.code).toBeUndefined();
      expect(o.data).toBe(true);
      if (tr.name === "REST") expect(o.status).toBe(204);

      expectAbsent(await tr.get(key, p.id));
      expectError(await rest.get(key, p.id), "NOT_FOUND", 404);
      expectError(await tr.remove(key, p.id), "NOT_FOUND", 404);
      expectError(await tr.update(key, p.id, { name: "back" }), "NOT_FOUND", 404);
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
      expectError(await tr.remove(key, 999999), "NOT_FOUND", 404);
      expectInvalid(await tr.remove(key, "abc"), "portfolioId");
      expectInvalid(await tr.remove(key, "0"), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("tenant isolation", () => {
    it("hides another account's portfolio exactly like a missing one and leaves it unchanged", async () => {
      const other = await t.newAccount();
      const mine = await created(tr, key, { name: "Mine" });
      const before = await ledgerSnapshot(t.db);

      expectAbsent(await tr.get(other, mine.id));
      expectError(await tr.update(other, mine.id, { name: "Hijacked" }), "NOT_FOUND", 404);
      // Even a change the owner would be refused (422) is NOT_FOUND: nothing reveals the portfolio exists.
      expectError(await tr.update(other, mine.id, { baseCurrencyCode: "USD" }), "NOT_FOUND", 404);
      expectError(await tr.remove(other, mine.id), "NOT_FOUND", 404);
      expect((await tr.list(other)).data).toEqual([]);

      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.get(key, mine.id)).data).toEqual(mine);
    });
  });

  it("reads the same portfolio on both transports", async () => {
    const p = await created(tr, key, {
      name: "Shared",
      entityType: "Trust",
      taxResidency: "NZ",
      baseCurrencyCode: "NZD",
    });
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, p.id)).data).toEqual(p);
      expect((await reader.list(key)).data).toEqual([p]);
    }
  });
});
