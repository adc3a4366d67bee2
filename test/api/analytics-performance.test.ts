import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../support/kit";
import { canonicalAnswer, expectError, expectInvalid, expectOk, gqlOutcome, restCall, type Json, type Outcome } from "../support/outcomes";

/**
 * GET /v1/portfolios/{p}/performance and GraphQL `performance` (REPORTS.md §2), on the worked
 * example of DOMAIN.md §3 and on a portfolio with a synced cash account.
 *
 * The worked example: buy 1,000 @ 2.00 on 2018-01-01, buy 1,000 @ 2.20 on 2018-12-31, sell 2,000
 * @ 2.30 on 2019-12-31; no cash account, so the trades are the flows. Period 2018-01-01..2019-12-31
 * (T = 730 days):
 *   BMV 0, EMV 0, net flows 2,000 + 2,200 − 4,600 = −400, total return 0 − 0 − (−400) = 400
 *   Modified Dietz denominator 2,000 × 730/730 + 2,200 × 366/730 (the sale weighs 0) = 3,103.0137
 *     cumulative 400 / 3,103.0137 = 12.890693978 %, annualised × 365/730 = 6.445346989 %
 *   TWR (1 + 2,000... daily chain): 4,400 / 4,200 on 2018-12-31, then 4,600 / 4,400 = 9.523809524 %,
 *     annualised (1.095238095)^(365/730) − 1 = 4.653623694 %
 *   XIRR of −2,000 (2018-01-01), −2,200 (2018-12-31), +4,600 (2019-12-31) = 6.328548494 %
 * The return is all capital (AUD, no income): capital 400 and 6.445346989 % annualised.
 */
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

async function navexa(k = key) {
  const portfolioId = await newPortfolio(t, k, { name: "SMSF" });
  await newTrade(t, k, { portfolioId, symbol: "XYZ", exchange: "ASX", tradeType: "Buy", tradeDate: "2018-01-01", quantity: 1000, price: 2 });
  await newTrade(t, k, { portfolioId, symbol: "XYZ", exchange: "ASX", tradeType: "Buy", tradeDate: "2018-12-31", quantity: 1000, price: 2.2 });
  await newTrade(t, k, { portfolioId, symbol: "XYZ", exchange: "ASX", tradeType: "Sell", tradeDate: "2019-12-31", quantity: 2000, price: 2.3 });
  return portfolioId;
}

type Report = Json & {
  totalReturn: Json;
  holdings: (Json & { totalReturn: Json })[];
  groups?: (Json & { totalReturn: Json })[];
};

const SUMMARY = "{ totalReturnValue totalReturnPercent capitalGainValue capitalGainPercent dividendReturnValue dividendReturnPercent currencyGainValue currencyGainPercent isAnnualized }";
const REPORT = `{ portfolioId portfolioName baseCurrencyCode from to hasHoldings openingValue totalValue netFlows
  totalReturn ${SUMMARY}
  timeWeightedReturn { cumulativePercent annualisedPercent } moneyWeightedReturn { annualisedPercent } modifiedDietz { cumulativePercent annualisedPercent }
  holdings { id symbol name exchange currencyCode quantity currentPrice marketValue holdingWeight groupedByValue totalReturn ${SUMMARY} }
  groups { label marketValue weight totalReturn ${SUMMARY} } }`;

/** Both transports' answers in one canonical form (numbers as strings, ids as numbers), generatedDate aside. */
const canonical = (b: unknown) => {
  const { generatedDate: _g, ...rest } = canonicalAnswer(b) as Json;
  if (rest.groups === undefined || rest.groups === null) delete rest.groups;
  return rest as Report;
};

const transports: { name: string; performance(k: string, p: number, query: Json): Promise<Outcome<Report>> }[] = [
  { name: "REST", performance: (k, p, query) => restCall(t.http.get(`/v1/portfolios/${p}/performance`).query(query).set("authorization", k), 200, canonical) },
  {
    name: "GraphQL",
    performance: async (k, p, query) =>
      gqlOutcome(
        await t.gql(k, `query($p: ID!, $from: Date, $to: Date, $g: String, $l: Boolean, $c: Boolean, $a: Boolean) { performance(portfolioId: $p, from: $from, to: $to, groupBy: $g, showLocalCurrency: $l, includeClosed: $c, annualise: $a) ${REPORT} }`, {
          p: String(p),
          from: query.from,
          to: query.to,
          g: query.groupBy,
          l: query.showLocalCurrency,
          c: query.includeClosed,
          a: query.annualise,
        }),
        "performance",
        canonical,
      ),
  },
];

const num = (v: unknown) => Number(v);
/** totalReturnValue = EMV − BMV − net flows = capital + dividend + currency, to the cent (REPORTS.md §2). */
function expectIdentity(r: Report) {
  const s = r.totalReturn;
  expect(num(s.totalReturnValue)).toBeCloseTo(num(r.totalValue) - num(r.openingValue) - num(r.netFlows), 8);
  expect(num(s.capitalGainValue) + num(s.dividendReturnValue) + num(s.currencyGainValue)).toBeCloseTo(num(s.totalReturnValue), 8);
  if (s.totalReturnPercent !== null) expect(num(s.capitalGainPercent) + num(s.dividendReturnPercent) + num(s.currencyGainPercent)).toBeCloseTo(num(s.totalReturnPercent), 9);
}

describe.each(transports)("performance over $name", (tr) => {
  it("the worked example of DOMAIN.md §3, to 9 significant figures by every method", async () => {
    const p = await navexa();
    const r = expectOk(await tr.performance(key, p, { from: "2018-01-01", to: "2019-12-31" }));
    expect(r).toMatchObject({ portfolioId: p, portfolioName: "SMSF", baseCurrencyCode: "AUD", from: "2018-01-01", to: "2019-12-31", hasHoldings: true, openingValue: "0", totalValue: "0", netFlows: "-400" });
    expect(r.totalReturn).toMatchObject({ totalReturnValue: "400", capitalGainValue: "400", dividendReturnValue: "0", currencyGainValue: "0", isAnnualized: true });
    expect(num(r.totalReturn.totalReturnPercent)).toBeCloseTo(6.445346989, 8);
    expect(num(r.totalReturn.capitalGainPercent)).toBeCloseTo(6.445346989, 8);
    expect(num((r.timeWeightedReturn as Json).cumulativePercent)).toBeCloseTo(9.523809524, 8);
    expect(num((r.timeWeightedReturn as Json).annualisedPercent)).toBeCloseTo(4.653623694, 8);
    expect(num((r.moneyWeightedReturn as Json).annualisedPercent)).toBeCloseTo(6.328548494, 8);
    expect(num((r.modifiedDietz as Json).cumulativePercent)).toBeCloseTo(12.890693978, 8);
    expect(num((r.modifiedDietz as Json).annualisedPercent)).toBeCloseTo(6.445346989, 8);
    expect(r.holdings).toHaveLength(1);
    expect(r.holdings[0]).toMatchObject({ symbol: "XYZ", exchange: "ASX", currencyCode: "AUD", quantity: "0", currentPrice: "2.3", marketValue: "0", holdingWeight: "0", groupedByValue: "XYZ.ASX" });
    // The only holding's figures are the portfolio's.
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expect(r.groups).toBeUndefined();
    expectIdentity(r);
  });

  it("annualise=false, or a period under 365 days: cumulative percentages, no annualised TWR or Dietz", async () => {
    const p = await navexa();
    const cumulative = expectOk(await tr.performance(key, p, { from: "2018-01-01", to: "2019-12-31", annualise: false }));
    expect(cumulative.totalReturn.isAnnualized).toBe(false);
    expect(num(cumulative.totalReturn.totalReturnPercent)).toBeCloseTo(12.890693978, 8);
    // 2018 only (365 days): 2,000 in on day 1, 2,200 in on 2018-12-31 (weight 1/365); value 4,400.
    //   gain 4,400 − 4,200 = 200; denominator 2,000 + 2,200/365 = 2,006.02740; 9.969935... %
    const year = expectOk(await tr.performance(key, p, { from: "2018-01-01", to: "2018-12-31", annualise: false }));
    expect(year.totalReturn.totalReturnValue).toBe("200");
    expect(num(year.totalReturn.totalReturnPercent)).toBeCloseTo((200 / (2000 + 2200 / 365)) * 100, 9);
    // Under 365 days: nothing annualised, whatever `annualise` says.
    const short = expectOk(await tr.performance(key, p, { from: "2018-01-01", to: "2018-06-30" }));
    expect(short.totalReturn.isAnnualized).toBe(false);
    expect(short.timeWeightedReturn).toMatchObject({ annualisedPercent: null });
    expect(short.modifiedDietz).toMatchObject({ annualisedPercent: null });
    expectIdentity(short);
  });

  it("with a synced cash account the deposits are the flows; interest is dividend return; components add up", async () => {
    const portfolioId = await newPortfolio(t, key, { name: "With cash" });
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", { portfolioId, name: "Cash", currencyCode: "AUD", syncTrades: true, settlementDays: 0 });
    await postCreated(t, key, "/v1/cash-transactions", { cashAccountId: cash.id, type: "Deposit", date: "2024-01-01", amount: 1000 });
    await newTrade(t, key, { portfolioId, symbol: "AAA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-02", quantity: 50, price: 10 });
    await postCreated(t, key, "/v1/cash-transactions", { cashAccountId: cash.id, type: "InterestPayment", date: "2024-01-03", amount: 5 });
    await newTrade(t, key, { portfolioId, symbol: "AAA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-04", quantity: 50, price: 12 });
    // Deposit 1,000 in (the only flow); the buy (500) and the sale (600) settle in the account.
    // EMV: cash 1,000 − 500 + 5 + 600 = 1,105; total return 1,105 − 0 − 1,000 = 105:
    //   AAA: 0 − 0 − (500 − 600) = 100 capital; the account: 1,105 − 0 − (1,000 − 500 + 600) = 5 dividend.
    const r = expectOk(await tr.performance(key, portfolioId, { from: "2024-01-01", to: "2024-01-04", groupBy: "assetClass" }));
    expect(r).toMatchObject({ openingValue: "0", totalValue: "1105", netFlows: "1000" });
    expect(r.totalReturn).toMatchObject({ totalReturnValue: "105", capitalGainValue: "100", dividendReturnValue: "5", currencyGainValue: "0", isAnnualized: false });
    // Modified Dietz: 1,000 in on day 1 of 4 weighs 4/4: 105 / 1,000 = 10.5 %, split 10 + 0.5.
    expect(num(r.totalReturn.totalReturnPercent)).toBeCloseTo(10.5, 9);
    expect(num(r.totalReturn.capitalGainPercent)).toBeCloseTo(10, 9);
    expect(num(r.totalReturn.dividendReturnPercent)).toBeCloseTo(0.5, 9);
    expect(r.holdings.map((h) => [h.symbol, (h.totalReturn as Json).totalReturnValue])).toEqual([["AAA", "100"]]);
    // Groups: AAA has no asset class recorded; the cash account is its own group. Their totals add up.
    expect(r.groups!.map((g) => [g.label, g.marketValue, (g.totalReturn as Json).totalReturnValue])).toEqual([
      ["Cash", "1105", "5"],
      ["Unclassified", "0", "100"],
    ]);
    expect(num(r.groups![0].weight)).toBeCloseTo(100, 9);
    expectIdentity(r);
  });

  it("an empty portfolio answers zeros and null percentages, not an error", async () => {
    const p = await newPortfolio(t, key, { name: "Empty" });
    const r = expectOk(await tr.performance(key, p, {}));
    expect(r).toMatchObject({ hasHoldings: false, openingValue: "0", totalValue: "0", netFlows: "0", holdings: [] });
    expect(r.totalReturn).toMatchObject({ totalReturnValue: "0", totalReturnPercent: null });
    expect(r.moneyWeightedReturn).toEqual({ annualisedPercent: null });
  });

  it("refuses an unknown groupBy, from after to, malformed dates (400 naming the field); another account's portfolio or custom group: 404", async () => {
    const p = await navexa();
    expectInvalid(await tr.performance(key, p, { groupBy: "colour" }), "groupBy");
    expectInvalid(await tr.performance(key, p, { groupBy: "customGroup:0" }), "groupBy");
    expectInvalid(await tr.performance(key, p, { from: "2019-01-02", to: "2019-01-01" }), "from");
    if (tr.name === "REST") {
      expectInvalid(await tr.performance(key, p, { from: "2019-02-30" }), "from");
      expectInvalid(await tr.performance(key, p, { annualise: "yes" }), "annualise");
    }
    expectError(await tr.performance(key, p, { groupBy: "customGroup:999" }), "NOT_FOUND");
    expectError(await tr.performance(await t.newAccount("intruder"), p, {}), "NOT_FOUND");
  });

  it("a Read client key reads it", async () => {
    const p = await navexa();
    const reader = await t.newClientKey(key, "Read", [p]);
    expect(expectOk(await tr.performance(reader, p, { from: "2018-01-01", to: "2019-12-31" })).totalReturn).toMatchObject({ totalReturnValue: "400" });
  });
});

test("Portfolio.performance(from, to) answers what performance does", async () => {
  const p = await navexa();
  const res = await t.gql(key, `query($p: ID!) { portfolio(id: $p) { performance(from: "2018-01-01", to: "2019-12-31") ${REPORT} } }`, { p: String(p) });
  const nested = canonical(res.body.data.portfolio.performance);
  const direct = expectOk(await transports[0].performance(key, p, { from: "2018-01-01", to: "2019-12-31" }));
  expect(nested).toEqual(direct);
});
