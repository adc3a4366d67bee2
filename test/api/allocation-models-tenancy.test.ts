import { allocationModelsByPortfolioIds } from "../../src/modules/allocation-models/allocation-models.service";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { serviceContext } from "../support/kit";
import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectOk, type Json } from "../support/outcomes";
import { Q, VALID, allocationModelsApi } from "./allocation-models.transports";

/**
 * Tenant isolation: another account's portfolio and models do not exist for a key.
 * (Split from allocation-models.test.ts by story; the transports and setup functions are in ./allocation-models.transports.ts.)
 */

const t = useTestApp();
const { rest, TRANSPORTS, seedModel } = allocationModelsApi(t);

describe("Tenant isolation: another account's portfolio and models do not exist for a key", () => {
  describe.each(TRANSPORTS)("over $name", (tr) => {
    it("every operation on account A's portfolio or models with account B's key answers as if absent, and A's data is unchanged", async () => {
      const keyA = await t.newAccount("A");
      const pA = await newPortfolio(t, keyA, { name: "A's" });
      const live = await seedModel(keyA, pA, { name: "A live", isActive: true });
      const idle = await seedModel(keyA, pA, { name: "A idle" });
      const keyB = await t.newAccount("B");
      const pB = await newPortfolio(t, keyB, { name: "B's" });
      const listA = expectOk(await rest.list(keyA, pA));
      const before = await ledgerSnapshot(t.db);

      expectError(await tr.list(keyB, pA), "NOT_FOUND");
      expectError(await tr.save(keyB, pA, VALID), "NOT_FOUND");
      expectError(await tr.save(keyB, pA, { ...VALID, publicId: idle.publicId }), "NOT_FOUND");
      expectError(await tr.save(keyB, pB, { ...VALID, publicId: idle.publicId, name: "Stolen" }), "NOT_FOUND");
      expectError(await tr.save(keyB, pB, { ...VALID, publicId: live.publicId, isActive: false }), "NOT_FOUND");
      expectError(await tr.active(keyB, pA), "NOT_FOUND");
      expectAbsent(await tr.get(keyB, live.publicId));
      expectAbsent(await tr.get(keyB, idle.publicId));
      expectError(await tr.remove(keyB, live.publicId), "NOT_FOUND");
      expectError(await tr.activate(keyB, idle.publicId), "NOT_FOUND");

      expect(await ledgerSnapshot(t.db)).toEqual(before);
      expect(expectOk(await rest.list(keyA, pA))).toEqual(listA);
      expect(expectOk(await rest.active(keyA, pA))).toEqual(live);
      expect(expectOk(await rest.list(keyB, pB))).toEqual([]);
    });
  });

  it("REST: B's 404 for A's portfolio is the same problem as for a portfolio that does not exist", async () => {
    const keyA = await t.newAccount("A");
    const pA = await newPortfolio(t, keyA);
    const keyB = await t.newAccount("B");
    const foreign = await t.http.get(`/v1/portfolios/${pA}/allocation-models`).set("authorization", keyB);
    const missing = await t.http.get("/v1/portfolios/999999/allocation-models").set("authorization", keyB);
    const shape = (b: Json) => ({ type: b.type, title: b.title, status: b.status, code: b.code, errors: b.errors });
    expect(foreign.status).toBe(404);
    expect(shape(foreign.body)).toEqual(shape(missing.body));
  });

  it("GraphQL: portfolio(id) of another account is null", async () => {
    const keyA = await t.newAccount("A");
    const pA = await newPortfolio(t, keyA);
    await seedModel(keyA, pA, { isActive: true });
    const keyB = await t.newAccount("B");
    const res = await t.gql(keyB, Q.portfolio, { id: String(pA) });
    expect(res.body).toEqual({ data: { portfolio: null } });
  });

  it("the models' DataLoader reads only the caller's portfolios, and a client key only its client's", async () => {
    const keyA = await t.newAccount("A");
    const mine = await newPortfolio(t, keyA, { name: "the client's" });
    const other = await newPortfolio(t, keyA, { name: "another client's" });
    const ownModel = await seedModel(keyA, mine, { name: "own" });
    await seedModel(keyA, other, { name: "other" });
    const keyB = await t.newAccount("B");
    const foreign = await newPortfolio(t, keyB);
    await seedModel(keyB, foreign, { name: "foreign" });
    const clientKey = await t.newClientKey(keyA, "Read", [mine]);
    await t.newClientKey(keyA, "Read", [other]);
    const names = (m: Map<number, { name: string }[]>) =>
      Object.fromEntries([...m].map(([id, models]) => [id, models.map((x) => x.name)]));

    // The resolvers hand it only portfolios the caller may see; it scopes them again itself.
    const asked = [mine, other, foreign];
    const asAdviser = await allocationModelsByPortfolioIds(await serviceContext(t, keyA), asked);
    expect(names(asAdviser)).toEqual({ [mine]: ["own"], [other]: ["other"], [foreign]: [] });
    const asClient = await allocationModelsByPortfolioIds(await serviceContext(t, clientKey), asked);
    expect(names(asClient)).toEqual({ [mine]: ["own"], [other]: [], [foreign]: [] });

    const res = await t.gql(clientKey, "{ portfolios { id allocationModels { publicId name } } }");
    expect(res.body).toEqual({
      data: { portfolios: [{ id: String(mine), allocationModels: [{ publicId: ownModel.publicId, name: "own" }] }] },
    });
  });
});
