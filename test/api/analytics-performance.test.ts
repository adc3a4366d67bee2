import { useTestApp } from "../support/app";
import { navexaWorkedExample } from "../scenarios/navexa-worked-example";
import { newPortfolio, postCreated } from "../factories";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { canonicalReport, expectIdentity, performanceTransports, REPORT } from "./analytics.transports";
import { cashFundedRoundTrip, usdHolding } from "../scenarios/analytics";

/**
 * GET /v1/portfolios/{p}/performance and GraphQL `performance` (docs/reports.md §2), on the worked
 * example of docs/rules.md §11.5 and on a portfolio with a synced cash account.
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
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const navexa = (k = key) => navexaWorkedExample(t, k);

const transports = performanceTransports(() => t);
const num = (v: unknown) => Number(v);

describe.each(transports)("performance over $name", (tr) => {
  it("the worked example of DOMAIN.md §3, to 9 significant figures by every method", async () => {
    const p = await navexa();
    const r = expectOk(await tr.performance(key, p, { from: "2018-01-01", to: "2019-12-31" }));
    expect(r).toMatchObject({
      portfolioId: p,
      portfolioName: "SMSF",
      baseCurrencyCode: "AUD",
      from: "2018-01-01",
      to: "2019-12-31",
      hasHoldings: true,
      openingValue: "0",
      totalValue: "0",
      netFlows: "-400",
    });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "400",
      capitalGainValue: "400",
      dividendReturnValue: "0",
      currencyGainValue: "0",
      isAnnualized: true,
    });
    expect(num(r.totalReturn.totalReturnPercent)).toBeCloseTo(6.445346989, 8);
    expect(num(r.totalReturn.capitalGainPercent)).toBeCloseTo(6.445346989, 8);
    expect(num((r.timeWeightedReturn as Json).cumulativePercent)).toBeCloseTo(9.523809524, 8);
    expect(num((r.timeWeightedReturn as Json).annualisedPercent)).toBeCloseTo(4.653623694, 8);
    expect(num((r.moneyWeightedReturn as Json).annualisedPercent)).toBeCloseTo(6.328548494, 8);
    expect(num((r.modifiedDietz as Json).cumulativePercent)).toBeCloseTo(12.890693978, 8);
    expect(num((r.modifiedDietz as Json).annualisedPercent)).toBeCloseTo(6.445346989, 8);
    expect(r.holdings).toHaveLength(1);
    expect(r.holdings[0]).toMatchObject({
      symbol: "XYZ",
      exchange: "ASX",
      currencyCode: "AUD",
      quantity: "0",
      currentPrice: "2.3",
      marketValue: "0",
      holdingWeight: "0",
      groupedByValue: "XYZ.ASX",
    });
    // The only holding's figures are the portfolio's.
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expect(r.groups).toBeUndefined();
    expectIdentity(r);
  });

  it("annualise=false, or a period under 365 days: cumulative percentages, no annualised TWR or Dietz", async () => {
    const p = await navexa();
    const cumulative = expectOk(
      await tr.performance(key, p, { from: "2018-01-01", to: "2019-12-31", annualise: false }),
    );
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
    const { portfolioId, cashAccountId } = await cashFundedRoundTrip(t, key);
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId,
      type: "InterestPayment",
      date: "2024-01-03",
      amount: 5,
    });
    // Deposit 1,000 in (the only flow); the buy (500) and the sale (600) settle in the account.
    // EMV: cash 1,000 − 500 + 5 + 600 = 1,105; total return 1,105 − 0 − 1,000 = 105:
    //   AAA: 0 − 0 − (500 − 600) = 100 capital; the account: 1,105 − 0 − (1,000 − 500 + 600) = 5 dividend.
    const r = expectOk(
      await tr.performance(key, portfolioId, { from: "2024-01-01", to: "2024-01-04", groupBy: "assetClass" }),
    );
    expect(r).toMatchObject({ openingValue: "0", totalValue: "1105", netFlows: "1000" });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "105",
      capitalGainValue: "100",
      dividendReturnValue: "5",
      currencyGainValue: "0",
      isAnnualized: false,
    });
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

  it("a USD holding's AUD income counts in AUD: dividend 100, no currency gain made up from it", async () => {
    // 10 USX @ USD 100 on 2024-01-02 at 1.5 (AUD 1,500 in); USD/AUD 1.5 all period; an income
    // record of AUD 100 net (its own currency), ex 2024-01-10, paid 2024-01-20 (AUD 100 out).
    //   EMV 1,500; total 1,500 − 0 − (1,500 − 100) = 100 = dividend 100 + capital 0 + currency 0.
    const { portfolioId, holdingId } = await usdHolding(t, key, "Mixed");
    const rates = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "USD", quote: "AUD", date: "2024-01-01", rate: 1.5 }]);
    expect(rates.status).toBeLessThan(300);
    await postCreated(t, key, "/v1/income", {
      holdingId,
      exDividendDate: "2024-01-10",
      paidDate: "2024-01-20",
      unfrankedAmount: 100,
      currencyCode: "AUD",
    });
    const r = expectOk(await tr.performance(key, portfolioId, { from: "2024-01-01", to: "2024-01-31" }));
    expect(r.holdings[0].totalReturn).toMatchObject({
      totalReturnValue: "100",
      dividendReturnValue: "100",
      capitalGainValue: "0",
      currencyGainValue: "0",
    });
    expectIdentity(r);
  });

  it("a deposit in a currency without any rate counts 0 (as the exact figures do): the returns stay numbers", async () => {
    // A USD cash account in an AUD portfolio, USD 1,000 deposited, and no USD rate anywhere: the
    // balance has no value and the flow none either; nothing was invested, TWR 0, Dietz null.
    const portfolioId = await newPortfolio(t, key, { name: "No rate" });
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId,
      name: "USD",
      currencyCode: "USD",
    });
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "Deposit",
      date: "2024-01-02",
      amount: 1000,
    });
    const r = expectOk(await tr.performance(key, portfolioId, { from: "2024-01-01", to: "2024-01-31" }));
    expect(r).toMatchObject({ totalValue: "0", netFlows: "0" });
    expect(num((r.timeWeightedReturn as Json).cumulativePercent)).toBe(0);
    expect(r.modifiedDietz).toMatchObject({ cumulativePercent: null });
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
    expect(
      expectOk(await tr.performance(reader, p, { from: "2018-01-01", to: "2019-12-31" })).totalReturn,
    ).toMatchObject({ totalReturnValue: "400" });
  });
});

test("Portfolio.performance(from, to) answers what performance does", async () => {
  const p = await navexa();
  const res = await t.gql(
    key,
    `query($p: ID!) { portfolio(id: $p) { performance(from: "2018-01-01", to: "2019-12-31") ${REPORT} } }`,
    { p: String(p) },
  );
  const nested = canonicalReport(res.body.data.portfolio.performance);
  const direct = expectOk(await transports[0].performance(key, p, { from: "2018-01-01", to: "2019-12-31" }));
  expect(nested).toEqual(direct);
});
