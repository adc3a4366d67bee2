import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectOk } from "../support/outcomes";
import { Q, BALANCED, names, PUBLIC_ID, without, allocationModelsApi } from "./allocation-models.transports";

/**
 * Saving an allocation model: create or update (docs/reports.md §4.1), and what isActive in a save does.
 * (Split from allocation-models.test.ts by story; the transports and setup functions are in ./allocation-models.transports.ts.)
 */

const t = useTestApp();
const { rest, TRANSPORTS, seedModel, dbRow, activeCount } = allocationModelsApi(t);

describe("Create or update an allocation model (seed 4.3)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it.each([
      ["absent", {}],
      ["null", { publicId: null }],
      ["empty", { publicId: "" }],
    ])("a publicId that is %s inserts a new model (REST 201) with a fresh publicId", async (_what, publicId) => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
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
      const p = await newPortfolio(t, key);
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
      const p = await newPortfolio(t, key);
      const input = {
        ...BALANCED,
        isActive: true,
        buckets: [
          { label: "A", targetPct: 33.3333, tolerancePct: 0.0001 },
          { label: "B", targetPct: "33.3333" },
          { label: "C", targetPct: 33.3334 },
        ],
      };
      const saved = expectOk(await tr.save(key, p, input), 201);
      expect(saved.buckets.map((b) => [b.targetPct, b.tolerancePct])).toEqual([
        ["33.3333", "0.0001"],
        ["33.3333", "0"],
        ["33.3334", "0"],
      ]);
      expect(expectOk(await tr.get(key, saved.publicId))).toEqual(saved);
      expect(expectOk(await tr.active(key, p))).toEqual(saved);
      expect(expectOk(await tr.list(key, p))).toEqual([saved]);
      const stored = await t.db.sql<{ t: string }>(
        "SELECT target_pct::text AS t FROM allocation_bucket ORDER BY sort_order",
      );
      expect(stored.map((r) => r.t)).toEqual(["33.3333", "33.3333", "33.3334"]);
    });

    it("an unknown publicId answers NOT_FOUND (REST 404) and writes nothing", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      expectError(
        await tr.save(key, p, { ...BALANCED, publicId: "3f1c2d4e-0000-4000-8000-000000000000" }),
        "NOT_FOUND",
      );
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });

    it("the publicId of a model of another portfolio of the same account answers NOT_FOUND and leaves that model alone", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const q = await newPortfolio(t, key, { name: "Q" });
      const theirs = await seedModel(key, q, { name: "Q model" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.save(key, p, { ...BALANCED, publicId: theirs.publicId, name: "Hijacked" }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.get(key, theirs.publicId))).toEqual(theirs);
      expect(expectOk(await rest.list(key, p))).toEqual([]);
    });

    it("the publicId of a soft-deleted model answers NOT_FOUND and does not revive it", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const model = await seedModel(key, p);
      expectOk(await rest.remove(key, model.publicId), 204);
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.save(key, p, { ...BALANCED, publicId: model.publicId, name: "Revived" }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.list(key, p))).toEqual([]);
    });
  });
});

describe("isActive in a save: true activates (clearing the others), false deactivates, absent leaves it", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("an insert with isActive true becomes the active model and clears the previous one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const old = await seedModel(key, p, { name: "Old", isActive: true });
      const created = expectOk(await tr.save(key, p, { ...BALANCED, name: "New", isActive: true }), 201);
      expect(created.isActive).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(created.publicId);
      expect((await dbRow(old.publicId)).is_active).toBe(false);
      expect(await activeCount(p)).toBe(1);
    });

    it("an insert with isActive false or absent is inactive and leaves the active model active", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(expectOk(await tr.save(key, p, { ...BALANCED, name: "Off", isActive: false }), 201).isActive).toBe(false);
      expect(expectOk(await tr.save(key, p, { ...BALANCED, name: "Unsaid" }), 201).isActive).toBe(false);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
      expect(await activeCount(p)).toBe(1);
    });

    it("an update with isActive true activates that model and clears the flag on the others", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      const other = await seedModel(key, p, { name: "Other" });
      const updated = expectOk(
        await tr.save(key, p, { ...BALANCED, publicId: other.publicId, name: "Other", isActive: true }),
        200,
      );
      expect(updated.isActive).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(other.publicId);
      expect(expectOk(await rest.get(key, current.publicId))?.isActive).toBe(false);
      expect(await activeCount(p)).toBe(1);
    });

    it("an update with isActive true on the model that is already active keeps it active", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(
        expectOk(
          await tr.save(key, p, { ...BALANCED, publicId: current.publicId, name: "Current", isActive: true }),
          200,
        ).isActive,
      ).toBe(true);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
    });

    it("an update with isActive false deactivates the model, leaving the portfolio without an active one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      expect(
        expectOk(await tr.save(key, p, { ...BALANCED, publicId: current.publicId, isActive: false }), 200).isActive,
      ).toBe(false);
      expect(expectOk(await rest.active(key, p))).toBeNull();
      expect(await activeCount(p)).toBe(0);
    });

    it("an update without isActive leaves the flag as it was, active or not", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const current = await seedModel(key, p, { name: "Current", isActive: true });
      const other = await seedModel(key, p, { name: "Other" });
      expect(
        expectOk(await tr.save(key, p, { ...BALANCED, publicId: current.publicId, name: "Current v2" }), 200).isActive,
      ).toBe(true);
      expect(
        expectOk(await tr.save(key, p, { ...BALANCED, publicId: other.publicId, name: "Other v2" }), 200).isActive,
      ).toBe(false);
      expect(expectOk(await rest.active(key, p))?.publicId).toBe(current.publicId);
      expect(await activeCount(p)).toBe(1);
    });
  });
});
