import { ledgerFingerprint, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { schema, type Json, rest, parityTransports } from "./graphql-parity.transports";

/**
 * (e) Pro-rata components take the same JSON on both transports and answer alike.
 *
 * REST and GraphQL are two adapters over one set of service functions (docs/conventions.md §9.1, "one
 * name for one operation"). This suite holds them together:
 *  (a) the operation sets match under one naming rule;
 *  (b) schema.graphql passes graphql-schema-linter's description rules;
 *  (c) every value REST types as an enum is a GraphQL enum with exactly the same values;
 *  (d) trade import and the symbol-change list answer alike on both transports;
 *  (e) pro-rata components take the same JSON on both transports and answer alike.
 *
 * The naming rule: a REST operationId is the name of the service function it calls. A GraphQL
 * mutation has that same name. A GraphQL query field is the operationId without its leading
 * `get` or `list`, first letter lower-cased (getPortfolio → portfolio, listPortfolios →
 * portfolios, searchSecurities → searchSecurities). A list that belongs to a parent is a field of
 * the parent's type instead (RELATIONS in graphql-parity.operation-sets.test.ts).
 */

const t = useTestApp();
let key: string;
const { gql } = parityTransports(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

describe("(e) pro-rata components: one JSON body for both transports", () => {
  const PRO_RATA = `mutation($holdingId: ID!, $financialYear: Int!, $components: IncomeComponents!) {
    updateProRataDistributions(holdingId: $holdingId, financialYear: $financialYear, components: $components) { id isTrustIncome components }
  }`;

  async function seed(): Promise<number> {
    const p = await newPortfolio(t, key, { name: "Parity" });
    const holdingId = (
      await t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "VAS",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-10",
        quantity: 100,
        price: 90,
      })
    ).body.holdingId as number;
    for (const [exDividendDate, paidDate, unfrankedAmount] of [
      ["2024-09-30", "2024-10-15", 100],
      ["2025-03-31", "2025-04-15", 300],
    ] as const) {
      expect(
        (
          await t.http
            .post("/v1/income")
            .set("authorization", key)
            .send({ holdingId, exDividendDate, paidDate, unfrankedAmount })
        ).status,
      ).toBe(201);
    }
    return holdingId;
  }

  /** REST's answer in GraphQL's terms: ids and amounts as strings. */
  const asGraphql = (records: Json[]) =>
    records.map((r) => ({
      id: String(r.id),
      isTrustIncome: r.isTrustIncome,
      components:
        r.components === null
          ? null
          : Object.fromEntries(Object.entries(r.components as Json).map(([k, v]) => [k, String(v)])),
    }));

  it("the same body gives the same answer on both", async () => {
    const holdingId = await seed();
    const body = {
      financialYear: 2025,
      components: { discountedCapitalGains: 100, frankedDistributions: "33.3333", amitCostBaseDecrease: 4 },
    };
    const viaRest = await t.http
      .put(`/v1/holdings/${holdingId}/pro-rata-distributions`)
      .set("authorization", key)
      .send(body);
    expect(viaRest.status).toBe(200);
    const viaGraphql = await gql(PRO_RATA, { holdingId: String(holdingId), ...body }, "updateProRataDistributions");
    expect(viaGraphql.data).toEqual(asGraphql(viaRest.body));
    expect(viaGraphql.data).toEqual([
      expect.objectContaining({
        components: { discountedCapitalGains: "25", frankedDistributions: "8.3333", amitCostBaseDecrease: "1" },
      }),
      expect.objectContaining({
        components: { discountedCapitalGains: "75", frankedDistributions: "25", amitCostBaseDecrease: "3" },
      }),
    ]);
    // The income record reads back the same object on both.
    const id = (viaGraphql.data as Json[])[0].id as string;
    const readRest = (await t.http.get(`/v1/income/${id}`).set("authorization", key)).body as Json;
    const readGraphql = await gql(
      `query($id: ID!) { income(id: $id) { id isTrustIncome components } }`,
      { id },
      "income",
    );
    expect(readGraphql.data).toEqual(asGraphql([readRest])[0]);
  });

  it("a bad body is refused with the same code, paths and messages on both, writing nothing", async () => {
    const holdingId = await seed();
    const before = await ledgerFingerprint(t.db);
    for (const components of [
      { "discounted capital gains": 1 },
      {},
      { nonPrimaryProductionIncome: "1.00001" },
      { nonPrimaryProductionIncome: "x" },
    ]) {
      const body = { financialYear: 2025, components };
      const viaRest = rest(
        await t.http.put(`/v1/holdings/${holdingId}/pro-rata-distributions`).set("authorization", key).send(body),
      );
      const viaGraphql = await gql(PRO_RATA, { holdingId: String(holdingId), ...body }, "updateProRataDistributions");
      expect(viaRest.code).toBe("VALIDATION_FAILED");
      expect(viaGraphql).toEqual(viaRest);
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("createIncome takes the components object REST takes", async () => {
    const holdingId = await seed();
    const input = {
      holdingId: String(holdingId),
      exDividendDate: "2025-06-30",
      paidDate: "2025-07-15",
      unfrankedAmount: 10,
      isTrustIncome: true,
      components: { nonPrimaryProductionIncome: "10" },
    };
    const viaGraphql = await gql(
      `mutation($input: IncomeInput!) { createIncome(input: $input) { id components } }`,
      { input },
      "createIncome",
    );
    const id = (viaGraphql.data as Json).id;
    expect(viaGraphql.data).toEqual({ id: expect.any(String), components: { nonPrimaryProductionIncome: "10" } });
    expect((await t.http.get(`/v1/income/${id}`).set("authorization", key)).body.components).toEqual({
      nonPrimaryProductionIncome: 10,
    });
  });
});
