import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectOk } from "../support/outcomes";
import {
  type Model,
  Q,
  manyBuckets,
  VALID,
  withBucket,
  BAD,
  allocationModelsApi,
} from "./allocation-models.transports";

/**
 * Validation of allocation models: 400 VALIDATION_FAILED naming each bad path with nothing written, and bad portfolio ids.
 * (Split from allocation-models.test.ts by story; the transports and setup functions are in ./allocation-models.transports.ts.)
 */

// Every test writes under an account of its own, and each rejection proves it wrote nothing at
// all: no test needs the database emptied first.
const t = useTestApp({ reset: "none" });
const { rest, graphql, TRANSPORTS, newCustomGroup, seedModel } = allocationModelsApi(t);

describe("Validation: 400 VALIDATION_FAILED naming each bad path, and nothing written", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    // The rejected saves change nothing (each proves it): one portfolio with its active model serves them all.
    let key: string;
    let p: number;
    let live: Model;
    beforeAll(async () => {
      key = await t.newAccount();
      p = await newPortfolio(t, key);
      live = await seedModel(key, p, { isActive: true });
    });

    it.each(BAD)("rejects $rule", async ({ input, paths, graphqlTypeError }) => {
      const before = await ledgerSnapshot(t.db);
      // isActive: true too, so a rejected save must not even clear the current active model.
      const res = await tr.save(key, p, { ...input, isActive: true });
      if (tr.name === "GraphQL" && graphqlTypeError) expectError(res, "BAD_USER_INPUT");
      else expectInvalid(res, paths);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.active(key, p))).toEqual(live);
    });

    it("rejects an invalid update the same way and leaves the model exactly as it was", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const model = await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      const bad = {
        ...VALID,
        publicId: model.publicId,
        name: "Changed",
        buckets: [
          { label: "Equities", targetPct: 60 },
          { label: "equities", targetPct: 40 },
        ],
      };
      expectInvalid(await tr.save(key, p, bad), ["buckets[1].label"]);
      expectInvalid(await tr.save(key, p, { ...withBucket(1, { targetPct: 101 }), publicId: model.publicId }), [
        "buckets[1].targetPct",
      ]);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.get(key, model.publicId))).toEqual(model);
    });

    it.each([
      ["targets summing to 99.995", withBucket(1, { targetPct: 29.995 })],
      ["targets summing to 100.005", withBucket(1, { targetPct: "30.005" })],
      ["targets summing to 99.99 (the edge of ±0.01)", withBucket(1, { targetPct: 29.99 })],
      ["targets summing to 100.01 (the edge of ±0.01)", withBucket(1, { targetPct: 30.01 })],
      [
        "targetPct and tolerancePct at 0 and 100",
        {
          ...VALID,
          buckets: [
            { label: "All", targetPct: 100, tolerancePct: 0 },
            { label: "None", targetPct: "0", tolerancePct: "100" },
          ],
        },
      ],
      [
        "targetPct with 4 decimals",
        {
          ...VALID,
          buckets: [
            { label: "A", targetPct: 0.0001 },
            { label: "B", targetPct: "99.9999" },
          ],
        },
      ],
      ["a name of 200 characters", { ...VALID, name: "n".repeat(200) }],
      ["500 buckets", { ...VALID, buckets: manyBuckets(500, "0.2") }],
      [
        "negative and large sortOrder",
        {
          ...VALID,
          buckets: [
            { label: "A", targetPct: 50, sortOrder: -5 },
            { label: "B", targetPct: 50, sortOrder: 2147483647 },
          ],
        },
      ],
      [
        "holding labels SYMBOL.EXCHANGE and Cash",
        {
          ...VALID,
          dimension: "holding",
          buckets: [
            { label: "CBA.ASX", targetPct: 40 },
            { label: "BRK.B.NYSE", targetPct: 40 },
            { label: "Cash", targetPct: 20 },
          ],
        },
      ],
      ["dimension holding", { ...VALID, dimension: "holding", buckets: [{ label: "VAS.ASX", targetPct: 100 }] }],
      ["dimension assetClass", { ...VALID, dimension: "assetClass" }],
      ["dimension sector", { ...VALID, dimension: "sector" }],
      ["dimension currency", { ...VALID, dimension: "currency" }],
      ["dimension exchange", { ...VALID, dimension: "exchange" }],
      ["dimension holdingType", { ...VALID, dimension: "holdingType" }],
    ])("accepts %s", async (_rule, input) => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const saved = expectOk(await tr.save(key, p, input), 201);
      expect(saved.name).toBe(input.name);
      expect(saved.dimension).toBe(input.dimension);
      expect(saved.buckets).toHaveLength((input.buckets as unknown[]).length);
      expect(expectOk(await tr.list(key, p))).toEqual([saved]);
    });

    it("accepts dimension customGroup:{id} of one of the account's custom groups, and answers NOT_FOUND for another's or a missing one", async () => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      const own = await newCustomGroup(key);
      const foreign = await newCustomGroup(await t.newAccount());
      expect(expectOk(await tr.save(key, p, { ...VALID, dimension: `customGroup:${own}` }), 201).dimension).toBe(
        `customGroup:${own}`,
      );
      const before = await ledgerSnapshot(t.db);
      for (const id of [foreign, 424242])
        expectError(await tr.save(key, p, { ...VALID, dimension: `customGroup:${id}` }), "NOT_FOUND");
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });
  });

  describe("REST bodies that are not a model", () => {
    it.each([
      ["not JSON", '{"name": "Balanced", '],
      ["a JSON string", JSON.stringify("Balanced")],
      ["a JSON array", JSON.stringify([VALID])],
      ["empty", ""],
    ])("rejects a body that is %s with 400 VALIDATION_FAILED and writes nothing", async (_what, body) => {
      const key = await t.newAccount();
      const p = await newPortfolio(t, key);
      await seedModel(key, p);
      const before = await ledgerSnapshot(t.db);
      const res = await t.http
        .post(`/v1/portfolios/${p}/allocation-models`)
        .set("authorization", key)
        .set("content-type", "application/json")
        .send(body);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    });
  });

  it("GraphQL: a request body that is not JSON answers 400 and writes nothing", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    await seedModel(key, p);
    const before = await ledgerSnapshot(t.db);
    const res = await t.http
      .post("/graphql")
      .set("authorization", key)
      .set("content-type", "application/json")
      .send('{"query": "mutation { ');
    expect(res.status).toBe(400);
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("REST and GraphQL name the same paths with the same messages for service-validated input", async () => {
    const key = await t.newAccount();
    const p = await newPortfolio(t, key);
    const input = {
      ...VALID,
      name: "",
      dimension: "planet",
      buckets: [
        { label: "A", targetPct: "1e2" },
        { label: "a", targetPct: 101 },
        { label: "", targetPct: 0, tolerancePct: -1 },
      ],
    };
    const r = await rest.save(key, p, input);
    const g = await graphql.save(key, p, input);
    expectError(r, "VALIDATION_FAILED");
    expectError(g, "VALIDATION_FAILED");
    if (r.ok || g.ok) return;
    expect(g.errors).toEqual(r.errors);
    expect(r.errors!.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "name",
        "dimension",
        "buckets[0].targetPct",
        "buckets[1].targetPct",
        "buckets[2].label",
        "buckets[2].tolerancePct",
      ]),
    );
  });
});

describe("Bad portfolio ids: not an integer → 400, unknown → 404", () => {
  it.each(["abc", "0", "-1", "1.5"])(
    "REST: portfolio id %s answers 400 VALIDATION_FAILED on list, save and active",
    async (id) => {
      const key = await t.newAccount();
      const before = await ledgerSnapshot(t.db);
      expectInvalid(await rest.list(key, id), ["portfolioId"]);
      expectInvalid(await rest.save(key, id, VALID), ["portfolioId"]);
      expectInvalid(await rest.active(key, id), ["portfolioId"]);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    },
  );

  it("REST: portfolio 999999 answers 404 NOT_FOUND on list, save and active", async () => {
    const key = await t.newAccount();
    await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    expectError(await rest.list(key, 999999), "NOT_FOUND");
    expectError(await rest.save(key, 999999, VALID), "NOT_FOUND");
    expectError(await rest.active(key, 999999), "NOT_FOUND");
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });

  it("REST: the exact paths /v1/portfolios/abc/allocation-models → 400 and /v1/portfolios/999999/allocation-models → 404", async () => {
    const key = await t.newAccount();
    expect((await t.http.get("/v1/portfolios/abc/allocation-models").set("authorization", key)).status).toBe(400);
    expect((await t.http.get("/v1/portfolios/999999/allocation-models").set("authorization", key)).status).toBe(404);
  });

  it.each(["abc", "0", "-1", "1.5"])(
    "GraphQL: portfolioId %s answers VALIDATION_FAILED on allocationModels, saveAllocationModel and activeAllocationModel",
    async (id) => {
      const key = await t.newAccount();
      const before = await ledgerSnapshot(t.db);
      expectInvalid(await graphql.list(key, id), ["portfolioId"]);
      expectInvalid(await graphql.save(key, id, VALID), ["portfolioId"]);
      expectInvalid(await graphql.active(key, id), ["portfolioId"]);
      expect(await ledgerSnapshot(t.db)).toEqual(before);
    },
  );

  it("GraphQL: portfolioId 999999 answers NOT_FOUND, and portfolio(id) is null", async () => {
    const key = await t.newAccount();
    await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    expectError(await graphql.list(key, 999999), "NOT_FOUND");
    expectError(await graphql.save(key, 999999, VALID), "NOT_FOUND");
    expectError(await graphql.active(key, 999999), "NOT_FOUND");
    const res = await t.gql(key, Q.portfolio, { id: "999999" });
    expect(res.body).toEqual({ data: { portfolio: null } });
    expect(await ledgerSnapshot(t.db)).toEqual(before);
  });
});
