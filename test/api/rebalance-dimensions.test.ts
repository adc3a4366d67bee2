import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { type Json } from "../support/outcomes";
import { seventyThirty } from "../scenarios/seventy-thirty";

/**
 * computeRebalance buckets holdings by the model's dimension (docs/reports.md §4.1: holding, assetClass, sector,
 * currency, exchange, holdingType, customGroup:{id}); a tax-aware sell over the API takes the loss
 * parcel. Ledger: AAA (ASX, AUD, Stock) 70 @ 100, BBB (ASX) 30 @ 100; classification and custom
 * group labels put AAA in "Growth" and BBB in "Defensive".
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

async function ledger() {
  const { portfolioId, aaa, bbb } = await seventyThirty(t, key, "Dimensions");
  for (const [id, label] of [
    [aaa, "Growth"],
    [bbb, "Defensive"],
  ] as const) {
    const res = await t.http
      .put(`/v1/holdings/${id}`)
      .set("authorization", key)
      .send({ classification: { assetClass: label, sector: label } });
    expect(res.status).toBe(200);
  }
  return { portfolioId, aaa, bbb };
}

const rebalance = async (portfolioId: number, dimension: string, buckets: Json[], input: Json = {}) => {
  const model = await postCreated<{ publicId: string }>(t, key, `/v1/portfolios/${portfolioId}/allocation-models`, {
    name: dimension,
    dimension,
    buckets,
  });
  const res = await t.http
    .post(`/v1/portfolios/${portfolioId}/rebalance`)
    .set("authorization", key)
    .send({ modelPublicId: model.publicId, asOf: "2024-06-30", ...input });
  expect(res.status).toBe(200);
  return res.body as { driftReport: { entries: Json[] }; legs: Json[] };
};
const drift = (r: { driftReport: { entries: Json[] } }) =>
  r.driftReport.entries.map((e) => `${e.label} ${e.currentPct} ${e.status}`);

it.each([
  ["assetClass", ["Growth", "Defensive"]],
  ["sector", ["Growth", "Defensive"]],
])("dimension %s buckets by the holding's classification", async (dimension, [g, d]) => {
  const s = await ledger();
  const r = await rebalance(s.portfolioId, dimension, [
    { label: g, targetPct: 60, tolerancePct: 5 },
    { label: d, targetPct: 40, tolerancePct: 5 },
  ]);
  expect(drift(r)).toEqual([`${g} 70 Over`, `${d} 30 Under`]);
  expect(r.legs.map((l) => `${l.side} ${l.quantity} ${l.holdingId}`)).toEqual([`Sell 10 ${s.aaa}`, `Buy 10 ${s.bbb}`]);
});

it("dimensions currency, exchange and holdingType bucket by the holding's own fields", async () => {
  const s = await ledger();
  expect(drift(await rebalance(s.portfolioId, "currency", [{ label: "AUD", targetPct: 100 }]))).toEqual([
    "AUD 100 InBand",
  ]);
  expect(drift(await rebalance(s.portfolioId, "exchange", [{ label: "ASX", targetPct: 100 }]))).toEqual([
    "ASX 100 InBand",
  ]);
  // The security master knows AAA.ASX as an ETF (its holding type comes from there) and BBB as a
  // stock: BBB is untargeted under its own label.
  expect(drift(await rebalance(s.portfolioId, "holdingType", [{ label: "Etf", targetPct: 100 }]))).toEqual([
    "Etf 70 Under",
    "Stock 30 Untargeted",
  ]);
});

it("dimension customGroup:{id} buckets by the group's labels; a holding without one is Unclassified", async () => {
  const s = await ledger();
  const group = await postCreated<{ id: number }>(t, key, "/v1/custom-groups", {
    name: "Strategy",
    labels: ["Core", "Satellite"],
  });
  const set = await t.http
    .put(`/v1/custom-groups/${group.id}/assignments`)
    .set("authorization", key)
    .send([{ holdingId: s.aaa, label: "Core" }]);
  expect(set.status).toBe(200);
  const r = await rebalance(s.portfolioId, `customGroup:${group.id}`, [
    { label: "Core", targetPct: 50 },
    { label: "Satellite", targetPct: 50 },
  ]);
  expect(drift(r)).toEqual(["Core 70 Over", "Satellite 0 Under", "Unclassified 30 Untargeted"]);
});

it("taxAware over the API: the sell leg takes the loss parcel and says its gain", async () => {
  const portfolioId = await newPortfolio(t, key, { name: "Tax" });
  // 100 @ 10 (2020) and 100 @ 20 (2024), priced 15 now: sell 1,000 of AAA = 66 units from the
  // 2024 parcel, a loss of 66 × (15 − 20) = −330.
  const old = await newTrade(t, key, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2020-01-02",
    quantity: 100,
    price: 10,
  });
  const recent = await newTrade(t, key, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 100,
    price: 20,
  });
  await newTrade(t, key, {
    portfolioId,
    symbol: "BBB",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 1000,
    price: 1,
  });
  const prices = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", key)
    .send([{ symbol: "AAA", exchange: "ASX", date: "2024-06-28", close: 15 }]);
  expect(prices.status).toBe(200);
  const r = await rebalance(
    portfolioId,
    "holding",
    [
      { label: "AAA.ASX", targetPct: 50 },
      { label: "BBB.ASX", targetPct: 50 },
    ],
    { taxAware: true, band: "ExactTarget" },
  );
  const sell = r.legs[0] as Json & { parcels: Json[] };
  expect([
    sell.side,
    sell.quantity,
    sell.estimatedCapitalGain,
    sell.parcels.map((p) => [p.tradeId, p.units, p.capitalGain]),
  ]).toEqual(["Sell", 66, -330, [[recent.id, 66, -330]]]);
  expect(old.id).not.toBe(recent.id);
});

it("a Cash bucket brings the cash accounts in, and a security not held yet is bought at its market price in its own currency", async () => {
  // 7,000 AAA + 3,000 BBB + 2,000 cash = 12,000. Model: AAA 50 %, BBB 20 %, Cash 10 %, MSFT.NASDAQ
  // 20 % (not held; closes at USD 400, 1.5 AUD per USD: AUD 600 a unit). Targets 6,000 / 2,400 /
  // 1,200 / 2,400: sell 10 AAA (1,000) and 6 BBB (600), buy 4 MSFT (2,400); cash 2,000 + 1,600 −
  // 2,400 = 1,200, its target.
  const s = await ledger();
  const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId: s.portfolioId,
    name: "Cash",
    currencyCode: "AUD",
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "Deposit",
    date: "2024-02-01",
    amount: 2000,
  });
  expect(
    (
      await t.http
        .post("/v1/market-prices/bulk")
        .set("authorization", key)
        .send([{ symbol: "MSFT", exchange: "NASDAQ", date: "2024-06-28", close: 400 }])
    ).status,
  ).toBe(200);
  expect(
    (
      await t.http
        .post("/v1/fx-rates/bulk")
        .set("authorization", key)
        .send([{ base: "USD", quote: "AUD", date: "2024-06-28", rate: 1.5 }])
    ).status,
  ).toBe(200);
  const r = (await rebalance(s.portfolioId, "holding", [
    { label: "AAA.ASX", targetPct: 50, tolerancePct: 1 },
    { label: "BBB.ASX", targetPct: 20, tolerancePct: 1 },
    { label: "Cash", targetPct: 10, tolerancePct: 1 },
    { label: "MSFT.NASDAQ", targetPct: 20, tolerancePct: 1 },
  ])) as {
    driftReport: { entries: Json[] };
    legs: Json[];
    totalValue: number;
    cashAvailable: number;
    cashRemaining: number;
    postTradeDrift: { entries: Json[] };
  };
  expect({ totalValue: r.totalValue, cashAvailable: r.cashAvailable, cashRemaining: r.cashRemaining }).toEqual({
    totalValue: 12000,
    cashAvailable: 2000,
    cashRemaining: 1200,
  });
  expect(
    r.legs.map(
      (l) =>
        `${l.side} ${l.quantity} ${l.symbol}.${l.exchange} @ ${l.currencyCode} ${l.price} = ${l.value} (holding ${l.holdingId})`,
    ),
  ).toEqual([
    `Sell 10 AAA.ASX @ AUD 100 = 1000 (holding ${s.aaa})`,
    `Sell 6 BBB.ASX @ AUD 100 = 600 (holding ${s.bbb})`,
    // Not held yet: priced in the security's own currency (USD 400 × 1.5 = AUD 600 a unit).
    "Buy 4 MSFT.NASDAQ @ USD 400 = 2400 (holding null)",
  ]);
  expect(r.postTradeDrift.entries.map((e) => `${e.label} ${e.currentValue} ${e.status}`)).toEqual([
    "AAA.ASX 6000 InBand",
    "BBB.ASX 2400 InBand",
    "Cash 1200 InBand",
    "MSFT.NASDAQ 2400 InBand",
  ]);
});
