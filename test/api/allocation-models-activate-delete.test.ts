import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectOk } from "../support/outcomes";
import { type Model, Q, BALANCED, without, allocationModelsApi } from "./allocation-models.transports";

/**
 * Soft-deleting and activating allocation models (docs/reports.md §4.1).
 * (Split from allocation-models.test.ts by story; the transports and setup functions are in ./allocation-models.transports.ts.)
 */

// Every test writes under an account of its own and reads only what that account owns: no test
// needs the database emptied first.
const t = useTestApp({ reset: "none" });
// The race's interleavings vary on PostgreSQL, where requests run side by side; PGlite runs one
// statement at a time, so more rounds there repeat one order. CI's PostgreSQL leg runs the 20.
const RACE_ROUNDS = process.env.TEST_DATABASE_URL ? 20 : 3;
const { rest, TRANSPORTS, seedModel, dbRow, activeCount } = allocationModelsApi(t);

describe("Soft-delete an allocation model", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("deletes (REST 204, GraphQL true) while the row stays in allocation_model with deleted_at set", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
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
      const p = await newPortfolio(t, key);
      const keep = await seedModel(key, p, { name: "Keep" });
      const drop = await seedModel(key, p, { name: "Drop" });
      expectOk(await tr.remove(key, drop.publicId), 204);
      expect(expectOk(await tr.list(key, p))).toEqual([keep]);
      expectAbsent(await tr.get(key, drop.publicId));
      expect(expectOk(await tr.get(key, keep.publicId))).toEqual(keep);
    });

    it("deleting the active model leaves the portfolio without an active one (is_active false)", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
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
      const p = await newPortfolio(t, key);
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
    // requests serialise and this always holds: a few rounds check the outcome there, while
    // PostgreSQL, where the requests really run at once, gets the twenty that vary the interleaving.
    it("deletes racing activations and isActive saves of the same models never leave a deleted model active", async () => {
      const key = await t.newAccount();
      const portfolios: number[] = [];
      for (let round = 0; round < RACE_ROUNDS; round++) {
        const p = await newPortfolio(t, key, { name: `Round ${round}` });
        portfolios.push(p);
        const models = await Promise.all(Array.from({ length: 10 }, (_, i) => seedModel(key, p, { name: `M${i}` })));
        const outcomes = await Promise.all(
          models.map((m) =>
            Promise.all([
              tr.activate(key, m.publicId),
              tr.save(key, p, { ...BALANCED, publicId: m.publicId, isActive: true }),
              tr.remove(key, m.publicId),
            ]),
          ),
        );
        for (const [activated, saved, removed] of outcomes) {
          expect(removed.ok).toBe(true);
          for (const o of [activated, saved]) if (!o.ok) expectError(o, "NOT_FOUND");
        }
        expect(expectOk(await tr.active(key, p))).toBeNull();
      }
      const live = await t.db.sql(
        "SELECT public_id FROM allocation_model WHERE portfolio_id = ANY($1::int[]) AND deleted_at IS NULL",
        [portfolios],
      );
      expect(live).toEqual([]);
      const deletedButActive = await t.db.sql(
        "SELECT public_id FROM allocation_model WHERE portfolio_id = ANY($1::int[]) AND is_active",
        [portfolios],
      );
      expect(deletedButActive).toEqual([]);
    });
  });

  it("REST: 204 has an empty body", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    const model = await seedModel(key, p);
    const res = await t.http.delete(`/v1/allocation-models/${model.publicId}`).set("authorization", key);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });
});

describe("Activate an allocation model (seed 3)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("sets it active and clears the flag on every other model of the portfolio; other portfolios are untouched", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const q = await newPortfolio(t, key, { name: "Q" });
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
      const p = await newPortfolio(t, key);
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
      const p = await newPortfolio(t, key);
      const models: Model[] = [];
      for (let i = 0; i < 20; i++) models.push(await seedModel(key, p, { name: `M${i}` }));

      const results = await Promise.all(models.map((m) => tr.activate(key, m.publicId)));
      results.forEach((r, i) => {
        const model = expectOk(r, 200);
        expect(model.publicId).toBe(models[i].publicId);
        expect(model.isActive).toBe(true);
      });

      expect(await activeCount(p)).toBe(1);
      const [row] = await t.db.sql<{ public_id: string }>(
        "SELECT public_id FROM allocation_model WHERE portfolio_id = $1 AND is_active",
        [p],
      );
      expect(expectOk(await tr.active(key, p))?.publicId).toBe(row.public_id);
      expect(
        expectOk(await tr.list(key, p))
          .filter((m) => m.isActive)
          .map((m) => m.publicId),
      ).toEqual([row.public_id]);
    });
  });

  it("the database itself refuses a second active model in one portfolio (unique violation), but allows one per portfolio", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    const q = await newPortfolio(t, key, { name: "Q" });
    const a = await seedModel(key, p, { name: "A" });
    const b = await seedModel(key, p, { name: "B" });
    const c = await seedModel(key, q, { name: "C" });

    await expect(
      t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id IN ($1, $2)", [a.publicId, b.publicId]),
    ).rejects.toMatchObject({
      code: "23505",
    });
    expect(await activeCount(p)).toBe(0);

    await t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [a.publicId]);
    await expect(
      t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [b.publicId]),
    ).rejects.toMatchObject({ code: "23505" });
    await t.db.sql("UPDATE allocation_model SET is_active = true WHERE public_id = $1", [c.publicId]);
    expect(await activeCount(p)).toBe(1);
    expect(await activeCount(q)).toBe(1);
  });
});
