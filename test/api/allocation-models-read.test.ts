import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectOk, type Json } from "../support/outcomes";
import {
  Q,
  gqlModel,
  gqlModelOrNull,
  names,
  PUBLIC_ID,
  without,
  allocationModelsApi,
} from "./allocation-models.transports";
import { useTestApp } from "../support/app";

/**
 * Reading allocation models: the list, the active model, one model by publicId, and GraphQL Portfolio.allocationModels / activeAllocationModel.
 * (Split from allocation-models.test.ts by story; the transports and setup functions are in ./allocation-models.transports.ts.)
 */

const t = useTestApp();
const { rest, graphql, TRANSPORTS, newCustomGroup, seedModel } = allocationModelsApi(t);

describe("List the allocation models of a portfolio (seed 4.2)", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns every model that is not soft-deleted, oldest first, each with its buckets in sortOrder (ties by label)", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const other = await newPortfolio(t, key, { name: "Other" });
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
      const p = await newPortfolio(t, key);
      expect(expectOk(await tr.list(key, p), 200)).toEqual([]);
    });
  });

  it("REST: the body is a bare array whose models and buckets carry exactly the seed's fields, decimals as exact JSON numbers", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
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
    expect(Object.keys(model).sort()).toEqual([
      "buckets",
      "dimension",
      "isActive",
      "name",
      "notes",
      "portfolioId",
      "publicId",
    ]);
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
    const p = await newPortfolio(t, key);
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
    expect(Object.keys(model).sort()).toEqual([
      "buckets",
      "dimension",
      "isActive",
      "name",
      "notes",
      "portfolioId",
      "publicId",
    ]);
    expect(model.portfolioId).toBe(String(p));
    expect(model.buckets).toEqual([
      { label: "Equities", targetPct: "60.5", tolerancePct: "5", sortOrder: 0 },
      { label: "Bonds", targetPct: "6.1667", tolerancePct: "0", sortOrder: 1 },
      { label: "Property", targetPct: "33.3333", tolerancePct: "0", sortOrder: 2 },
    ]);
  });

  it("REST and GraphQL return the same list", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    await seedModel(key, p, { name: "One" });
    await seedModel(key, p, {
      name: "Two",
      isActive: true,
      buckets: [
        { label: "X", targetPct: 33.3333 },
        { label: "Y", targetPct: 66.6667 },
      ],
    });
    expect(expectOk(await graphql.list(key, p))).toEqual(expectOk(await rest.list(key, p)));
  });
});

describe("Get the active allocation model of a portfolio", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns the active model", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      await seedModel(key, p, { name: "Idle" });
      const live = await seedModel(key, p, { name: "Live", isActive: true });
      expect(expectOk(await tr.active(key, p), 200)).toEqual(live);
    });

    it("returns null when the portfolio has no active model", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      expect(expectOk(await tr.active(key, p), 200)).toBeNull();
      await seedModel(key, p, { name: "Idle" });
      expect(expectOk(await tr.active(key, p), 200)).toBeNull();
    });

    it("answers NOT_FOUND (REST 404) for a portfolio of another account", async () => {
      const owner = await t.newAccount();
      const p = await newPortfolio(t, owner);
      await seedModel(owner, p, { isActive: true });
      const stranger = await t.newAccount();
      expectError(await tr.active(stranger, p), "NOT_FOUND");
    });
  });

  it("REST: no active model is the JSON body `null` with 200 application/json", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    const res = await t.http.get(`/v1/portfolios/${p}/allocation-models/active`).set("authorization", key);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.text).toBe("null");
  });

  it("GraphQL: no active model is data.activeAllocationModel null without errors", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    const res = await t.gql(key, Q.active, { p: String(p) });
    expect(res.body).toEqual({ data: { activeAllocationModel: null } });
  });
});

describe("Get one allocation model by publicId", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("returns the model with its buckets", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const model = await seedModel(key, p, { isActive: true });
      await seedModel(key, p, { name: "Another" });
      expect(expectOk(await tr.get(key, model.publicId), 200)).toEqual(model);
    });

    it("a soft-deleted or unknown publicId is absent: REST 404, GraphQL null", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const model = await seedModel(key, p);
      expectOk(await rest.remove(key, model.publicId), 204);
      expectAbsent(await tr.get(key, model.publicId));
      expectAbsent(await tr.get(key, "3f1c2d4e-0000-4000-8000-000000000000"));
    });
  });
});

describe("GraphQL Portfolio.allocationModels and Portfolio.activeAllocationModel", () => {
  async function nested(key: string, p: number) {
    const res = await t.gql(key, Q.portfolio, { id: String(p) });
    expect(res.body.errors).toBeUndefined();
    const portfolio = res.body.data.portfolio as { allocationModels: Json[]; activeAllocationModel: Json | null };
    return {
      models: portfolio.allocationModels.map(gqlModel),
      active: gqlModelOrNull(portfolio.activeAllocationModel),
    };
  }

  it("agree with the root queries through create, activate and delete", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    expect(await nested(key, p)).toEqual({ models: [], active: null });

    const a = await seedModel(key, p, {
      name: "A",
      buckets: [
        { label: "X", targetPct: 33.3333 },
        { label: "Y", targetPct: 66.6667, tolerancePct: 60.5 },
      ],
    });
    const b = await seedModel(key, p, { name: "B" });
    await seedModel(key, p, { name: "C" });
    expect(await nested(key, p)).toEqual({ models: expectOk(await graphql.list(key, p)), active: null });

    expectOk(await graphql.activate(key, b.publicId));
    let view = await nested(key, p);
    expect(view).toEqual({
      models: expectOk(await graphql.list(key, p)),
      active: expectOk(await graphql.active(key, p)),
    });
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
    const p = await newPortfolio(t, key, { name: "P" });
    const q = await newPortfolio(t, key, { name: "Q" });
    await newPortfolio(t, key, { name: "Empty" });
    await seedModel(key, p, { name: "P1" });
    const p2 = await seedModel(key, p, { name: "P2", isActive: true });
    await seedModel(key, q, { name: "Q1" });
    const stranger = await t.newAccount();
    await seedModel(stranger, await newPortfolio(t, stranger), { name: "Theirs", isActive: true });

    const res = await t.gql(
      key,
      "{ portfolios { name allocationModels { name } activeAllocationModel { publicId } } }",
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolios).toEqual([
      {
        name: "P",
        allocationModels: [{ name: "P1" }, { name: "P2" }],
        activeAllocationModel: { publicId: p2.publicId },
      },
      { name: "Q", allocationModels: [{ name: "Q1" }], activeAllocationModel: null },
      { name: "Empty", allocationModels: [], activeAllocationModel: null },
    ]);
  });
});
