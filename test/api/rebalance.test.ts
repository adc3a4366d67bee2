import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { measured } from "../support/kit";
import {
  expectError,
  expectInvalid,
  expectOk,
  gqlDecimal,
  gqlId,
  restCall,
  restDecimal,
  withApp,
  type Json,
  type Outcome,
} from "../support/outcomes";
import { seventyThirty } from "../scenarios/seventy-thirty";

/**
 * computeRebalance over REST (POST /v1/portfolios/{p}/rebalance) and GraphQL (mutation
 * computeRebalance): docs/reports.md §4.3's 60/40 example on a real ledger, the same numbers on both
 * transports, nothing written, a Read client key allowed, and every refusal.
 *
 * Ledger: 70 AAA @ 100 and 30 BBB @ 100 (valued at their last trade price, 100): 7,000 / 3,000.
 * Model (dimension holding): AAA.ASX 60 ± 5, BBB.ASX 40 ± 5 → drifts +10 / −10; sell 10 AAA
 * (1,000), buy 10 BBB (1,000); both in band after; no cash left.
 */
const t = useTestApp();
let key: string;
const { gqlCall, unchanged } = withApp(() => t);

beforeEach(async () => {
  key = await t.newAccount();
});

async function sixtyForty(k = key) {
  const { portfolioId, aaa, bbb } = await seventyThirty(t, k, "60/40");
  const model = await postCreated<{ publicId: string }>(t, k, `/v1/portfolios/${portfolioId}/allocation-models`, {
    name: "Balanced",
    dimension: "holding",
    isActive: true,
    buckets: [
      { label: "AAA.ASX", targetPct: 60, tolerancePct: 5 },
      { label: "BBB.ASX", targetPct: 40, tolerancePct: 5 },
    ],
  });
  return { portfolioId, aaa, bbb, publicId: model.publicId };
}

/** The answer in one comparable shape (decimals as text, ids as numbers). */
interface Plan {
  portfolioId: number;
  modelPublicId: string;
  totalValue: string;
  drift: string[];
  legs: string[];
  post: string[];
  cashRemaining: string;
  warnings: string[];
}

const GQL = `mutation($p: ID!, $input: RebalanceInput) { computeRebalance(portfolioId: $p, input: $input) {
  portfolioId modelPublicId asOf totalValue cashAvailable cashRemaining
  driftReport { maxDriftPct outOfBandCount entries { label currentValue currentPct targetPct tolerancePct driftPct status } }
  postTradeDrift { maxDriftPct outOfBandCount entries { label currentValue currentPct targetPct tolerancePct driftPct status } }
  legs { holdingId symbol exchange label side quantity price currencyCode value estimatedCapitalGain parcels { tradeId units capitalGain } }
  warnings { code message label holdingId }
} }`;

const transports: {
  name: string;
  call(k: string, portfolioId: number | string, input?: Json): Promise<Outcome<Plan>>;
}[] = [
  {
    name: "REST",
    call: (k, p, input = {}) =>
      restCall(t.http.post(`/v1/portfolios/${p}/rebalance`).set("authorization", k).send(input), 200, (b) => {
        const r = b as Json & {
          driftReport: { entries: Json[] };
          postTradeDrift: { entries: Json[] };
          legs: Json[];
          warnings: Json[];
        };
        const entry = (e: Json) =>
          `${e.label} ${restDecimal(e.currentValue)} ${e.currentPct} ${e.driftPct} ${e.status}`;
        return {
          portfolioId: r.portfolioId as number,
          modelPublicId: r.modelPublicId as string,
          totalValue: restDecimal(r.totalValue),
          drift: r.driftReport.entries.map(entry),
          legs: r.legs.map(
            (l) =>
              `${l.side} ${restDecimal(l.quantity)} ${l.symbol}.${l.exchange} @ ${l.currencyCode} ${restDecimal(l.price)} = ${restDecimal(l.value)} (holding ${l.holdingId})`,
          ),
          post: r.postTradeDrift.entries.map(entry),
          cashRemaining: restDecimal(r.cashRemaining),
          warnings: r.warnings.map((w) => String(w.code)),
        };
      }),
  },
  {
    name: "GraphQL",
    call: (k, p, input = {}) =>
      gqlCall(k, GQL, { p: String(p), input }, "computeRebalance", (b) => {
        const r = b as Json & {
          driftReport: { entries: Json[] };
          postTradeDrift: { entries: Json[] };
          legs: Json[];
          warnings: Json[];
        };
        const entry = (e: Json) => `${e.label} ${gqlDecimal(e.currentValue)} ${e.currentPct} ${e.driftPct} ${e.status}`;
        return {
          portfolioId: gqlId(r.portfolioId),
          modelPublicId: r.modelPublicId as string,
          totalValue: gqlDecimal(r.totalValue),
          drift: r.driftReport.entries.map(entry),
          legs: r.legs.map(
            (l) =>
              `${l.side} ${gqlDecimal(l.quantity)} ${l.symbol}.${l.exchange} @ ${l.currencyCode} ${gqlDecimal(l.price)} = ${gqlDecimal(l.value)} (holding ${l.holdingId === null ? null : gqlId(l.holdingId)})`,
          ),
          post: r.postTradeDrift.entries.map(entry),
          cashRemaining: gqlDecimal(r.cashRemaining),
          warnings: r.warnings.map((w) => String(w.code)),
        };
      }),
  },
];

describe.each(transports)("computeRebalance over $name", (tr) => {
  it("the 60/40 example: sell 1,000 of the first, buy 1,000 of the second, both in band after; nothing written", async () => {
    const s = await sixtyForty();
    let plan: Plan | undefined;
    await unchanged(async () => {
      plan = expectOk(await tr.call(key, s.portfolioId, { asOf: "2024-06-30" }));
    });
    expect(plan).toEqual({
      portfolioId: s.portfolioId,
      modelPublicId: s.publicId,
      totalValue: "10000",
      drift: ["AAA.ASX 7000 70 10 Over", "BBB.ASX 3000 30 -10 Under"],
      legs: [
        `Sell 10 AAA.ASX @ AUD 100 = 1000 (holding ${s.aaa})`,
        `Buy 10 BBB.ASX @ AUD 100 = 1000 (holding ${s.bbb})`,
      ],
      post: ["AAA.ASX 6000 60 0 InBand", "BBB.ASX 4000 40 0 InBand"],
      cashRemaining: "0",
      warnings: [],
    });
  });

  it("a Read client key may call it", async () => {
    const s = await sixtyForty();
    const readKey = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect(expectOk(await tr.call(readKey, s.portfolioId, { asOf: "2024-06-30" })).legs).toHaveLength(2);
  });

  it("a named model; no model and no active one: 422; a model of another portfolio or account: 404", async () => {
    const s = await sixtyForty();
    const other = await newPortfolio(t, key, { name: "Other" });
    expectError(await tr.call(key, other), "BUSINESS_RULE");
    expectError(await tr.call(key, other, { modelPublicId: s.publicId }), "NOT_FOUND");
    const stranger = await t.newAccount();
    expectError(await tr.call(stranger, s.portfolioId), "NOT_FOUND");
    const theirs = await sixtyForty(stranger);
    expectError(await tr.call(key, s.portfolioId, { modelPublicId: theirs.publicId }), "NOT_FOUND");
    expect(
      expectOk(await tr.call(key, s.portfolioId, { modelPublicId: s.publicId, asOf: "2024-06-30" })).legs,
    ).toHaveLength(2);
  });

  it("bad input: negative cashToInvest, an unknown holding to exclude, an unknown mode: 400 naming the field", async () => {
    const s = await sixtyForty();
    expectInvalid(await tr.call(key, s.portfolioId, { cashToInvest: "-1" }), "cashToInvest");
    expectInvalid(
      await tr.call(key, s.portfolioId, { excludeHoldingIds: [String(s.aaa), "999999"] }),
      "excludeHoldingIds.1",
    );
    if (tr.name === "REST") expectInvalid(await tr.call(key, s.portfolioId, { mode: "SellEverything" }), "mode");
  });

  it("buy-only with new cash and whole units: the remainder stays in cashRemaining, with a warning", async () => {
    const s = await sixtyForty();
    // 10,000 + 1,050 = 11,050; targets 6,630 / 4,420; BuyOnly never sells AAA; BBB is 1,420
    // short: 1,050 buys 10 units (1,000), 50 stays.
    const plan = expectOk(
      await tr.call(key, s.portfolioId, { asOf: "2024-06-30", mode: "BuyOnly", cashToInvest: "1050" }),
    );
    expect([plan.legs, plan.cashRemaining, plan.warnings]).toEqual([
      [`Buy 10 BBB.ASX @ AUD 100 = 1000 (holding ${s.bbb})`],
      "50",
      ["WHOLE_UNITS_CASH"],
    ]);
  });
});

describe("the drift of a book (GET /v1/drift, driftOverview)", () => {
  const overREST = async (k: string, query = "") => {
    const res = await t.http.get(`/v1/drift${query}`).set("authorization", k);
    expect(res.status).toBe(200);
    return (res.body as Json[]).map(
      (r) => `${r.portfolioName} ${r.modelName} ${restDecimal(r.totalValue)} ${r.maxDriftPct} ${r.outOfBandCount}`,
    );
  };
  const overGraphQL = async (k: string, clientId?: number) => {
    const o = await gqlCall(
      k,
      `query($c: ID) { driftOverview(clientId: $c) { portfolioName modelName totalValue maxDriftPct outOfBandCount } }`,
      clientId ? { c: String(clientId) } : {},
      "driftOverview",
    );
    return (expectOk(o) as Json[]).map(
      (r) => `${r.portfolioName} ${r.modelName} ${gqlDecimal(r.totalValue)} ${r.maxDriftPct} ${r.outOfBandCount}`,
    );
  };

  it("lists every portfolio with an active model, most drifted first, in a fixed number of statements", async () => {
    const first = await sixtyForty();
    const one = await measured(t.db, () => overREST(key));
    expect(one.res).toEqual(["60/40 Balanced 10000 10 2"]);

    // An in-band portfolio (62/38: drift 2) and one without an active model.
    const calm = await newPortfolio(t, key, { name: "Calm" });
    await newTrade(t, key, {
      portfolioId: calm,
      symbol: "AAA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 62,
      price: 100,
    });
    await newTrade(t, key, {
      portfolioId: calm,
      symbol: "BBB",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 38,
      price: 100,
    });
    await postCreated(t, key, `/v1/portfolios/${calm}/allocation-models`, {
      name: "Steady",
      dimension: "holding",
      isActive: true,
      buckets: [
        { label: "AAA.ASX", targetPct: 60, tolerancePct: 5 },
        { label: "BBB.ASX", targetPct: 40, tolerancePct: 5 },
      ],
    });
    await newPortfolio(t, key, { name: "No model" });
    const three = await measured(t.db, () => overREST(key));
    expect(three.res).toEqual(["60/40 Balanced 10000 10 2", "Calm Steady 10000 2 0"]);
    expect(three.statements).toBe(one.statements);
    expect(await overGraphQL(key)).toEqual(three.res);
    // The same figures computeRebalance reports for the portfolio.
    const plan = expectOk(await transports[0].call(key, first.portfolioId));
    expect(plan.drift).toEqual(["AAA.ASX 7000 70 10 Over", "BBB.ASX 3000 30 -10 Under"]);
  });

  it("a client key sees its own portfolios; clientId narrows an adviser's book; another's client: 404", async () => {
    const mine = await sixtyForty();
    const other = await sixtyForty();
    const readKey = await t.newClientKey(key, "Read", [mine.portfolioId]);
    await t.newClientKey(key, "Read", [other.portfolioId]);
    expect(await overREST(readKey)).toHaveLength(1);
    expect(await overGraphQL(readKey)).toHaveLength(1);
    const [{ client_id }, { client_id: otherClientId }] = await t.db.sql<{ client_id: number }>(
      "SELECT client_id FROM portfolio WHERE id = ANY($1) ORDER BY id",
      [[mine.portfolioId, other.portfolioId]],
    );
    // A client key names only its own client: another client's id of the same account is a 404.
    expect(await overREST(readKey, `?clientId=${client_id}`)).toHaveLength(1);
    const foreign = await t.http.get(`/v1/drift?clientId=${otherClientId}`).set("authorization", readKey);
    expect([foreign.status, foreign.body.code]).toEqual([404, "NOT_FOUND"]);
    expect(await overREST(key, `?clientId=${client_id}`)).toHaveLength(1);
    expect(await overREST(key)).toHaveLength(2);
    const stranger = await t.newAccount();
    const res = await t.http.get(`/v1/drift?clientId=${client_id}`).set("authorization", stranger);
    expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
    expect(await overREST(stranger)).toEqual([]);
  });
});
