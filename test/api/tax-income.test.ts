import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import {
  canonicalAnswer,
  expectError,
  expectInvalid,
  expectOk,
  gqlOutcome,
  restCall,
  type Json,
  type Outcome,
} from "../support/outcomes";

/**
 * Taxable income and ATO myTax (docs/reports.md §5.3–5.4) over REST and GraphQL, each scenario's labels
 * derived by hand from docs/rules.md §6.3–6.5's mapping:
 *   - ATO's franked dividend: 700 franked at 30 % → 11T 700, 11U 700 × 0.3 / 0.7 = 300 (paid in FY2025).
 *   - a trust distribution with AMIT components, ex 30 June 2025 and paid in July (FY2025, the year
 *     of entitlement): 13U 100, 13C 50, 13Q 20, 13R 5; 18H = 30 × 2 + 10 = 70; taxDeferred 40 lowers
 *     the holding's cost base (1,000 → 960) on the paid date.
 *   - a foreign dividend of USD 100 with USD 15 foreign tax at 1.5 AUD/USD: 20E 150, 20M 150, 20O 22.5.
 *   - cash interest of 12.50 on an AUD account in January 2025: 10L 12.5.
 *   - an unconfirmed dividend counts nowhere; a dividend paid 1 July 2025 belongs to FY2026.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const income = async (k: string, body: Json, confirm = true) => {
  const created = await postCreated<{ id: number }>(t, k, "/v1/income", body);
  if (confirm) expect((await t.http.put(`/v1/income/${created.id}/confirm`).set("authorization", k)).status).toBe(200);
  return created.id;
};

async function investor(k = key) {
  const portfolioId = await newPortfolio(t, k, { name: "Income investor" });
  const aaa = await newTrade(t, k, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-05-02",
    quantity: 100,
    price: 10,
  });
  const trust = await newTrade(t, k, {
    portfolioId,
    symbol: "TTT",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 100,
    price: 10,
  });
  const us = await newTrade(t, k, {
    portfolioId,
    symbol: "USX",
    exchange: "NYSE",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
    currencyCode: "USD",
    exchangeRate: 1.5,
  });
  const franked = await income(k, {
    holdingId: aaa.holdingId,
    exDividendDate: "2024-08-20",
    paidDate: "2024-09-12",
    frankedAmount: 700,
  });
  await income(
    k,
    { holdingId: aaa.holdingId, exDividendDate: "2025-02-20", paidDate: "2025-03-12", unfrankedAmount: 999 },
    false,
  );
  await income(k, {
    holdingId: aaa.holdingId,
    exDividendDate: "2025-06-10",
    paidDate: "2025-07-01",
    unfrankedAmount: 50,
  });
  const distribution = await income(k, {
    holdingId: trust.holdingId,
    exDividendDate: "2025-06-30",
    paidDate: "2025-07-15",
    isTrustIncome: true,
    unfrankedAmount: 215,
    components: {
      nonPrimaryProductionIncome: 100,
      frankedDistributions: 50,
      frankingCredits: 20,
      tfnWithheld: 5,
      discountedCapitalGains: 30,
      nonDiscountedCapitalGains: 10,
      taxDeferred: 40,
    },
  });
  const foreign = await income(k, {
    holdingId: us.holdingId,
    exDividendDate: "2024-11-01",
    paidDate: "2024-11-20",
    foreignIncome: 100,
    foreignTaxPaid: 15,
    currencyCode: "USD",
    exchangeRate: 1.5,
  });
  const cash = await postCreated<{ id: number }>(t, k, "/v1/cash-accounts", {
    portfolioId,
    name: "Saver",
    currencyCode: "AUD",
  });
  await postCreated(t, k, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "Deposit",
    date: "2024-07-01",
    amount: 5000,
  });
  await postCreated(t, k, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "InterestPayment",
    date: "2025-01-31",
    amount: 12.5,
  });
  return {
    portfolioId,
    aaa: aaa.holdingId,
    trust: trust.holdingId,
    us: us.holdingId,
    franked,
    distribution,
    foreign,
    cashAccountId: cash.id,
  };
}

const transports: {
  name: string;
  income(k: string, p: number, fy?: number): Promise<Outcome<Json>>;
  myTax(k: string, p: number, fy?: number): Promise<Outcome<Json>>;
}[] = [
  {
    name: "REST",
    income: (k, p, fy) =>
      restCall(
        t.http
          .get(`/v1/portfolios/${p}/reports/taxable-income`)
          .query(fy ? { financialYear: fy } : {})
          .set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
    myTax: (k, p, fy) =>
      restCall(
        t.http
          .get(`/v1/portfolios/${p}/reports/ato-mytax`)
          .query(fy ? { financialYear: fy } : {})
          .set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
  },
  {
    name: "GraphQL",
    income: async (k, p, fy) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $fy: Int) { taxableIncomeReport(portfolioId: $p, financialYear: $fy) { portfolioId financialYear from to rows { incomeId holdingId symbol exchange exDividendDate paidDate labels } holdings { holdingId symbol exchange labels } interest { cashAccountId name labels } totals } }`,
          { p: String(p), fy },
        ),
        "taxableIncomeReport",
        (b) => canonicalAnswer(b) as Json,
      ),
    myTax: async (k, p, fy) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $fy: Int) { myTaxReport(portfolioId: $p, financialYear: $fy) { portfolioId portfolioName financialYear entityType labels { label section description amount }
            capitalGains { shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward }
            taxableIncome } }`,
          { p: String(p), fy },
        ),
        "myTaxReport",
        (b) => canonicalAnswer(b) as Json,
      ),
  },
];

describe.each(transports)("taxable income and myTax over $name", (tr) => {
  it("labels every confirmed record of FY2025, per holding and in total", async () => {
    const s = await investor();
    const r = expectOk(await tr.income(key, s.portfolioId, 2025));
    expect(r).toMatchObject({ portfolioId: s.portfolioId, financialYear: 2025, from: "2024-07-01", to: "2025-06-30" });
    expect(r.rows).toEqual([
      {
        incomeId: s.franked,
        holdingId: s.aaa,
        symbol: "AAA",
        exchange: "ASX",
        exDividendDate: "2024-08-20",
        paidDate: "2024-09-12",
        labels: { "11T": "700", "11U": "300" },
      },
      {
        incomeId: s.foreign,
        holdingId: s.us,
        symbol: "USX",
        exchange: "NYSE",
        exDividendDate: "2024-11-01",
        paidDate: "2024-11-20",
        labels: { "20E": "150", "20M": "150", "20O": "22.5" },
      },
      {
        incomeId: s.distribution,
        holdingId: s.trust,
        symbol: "TTT",
        exchange: "ASX",
        exDividendDate: "2025-06-30",
        paidDate: "2025-07-15",
        labels: { "13U": "100", "13C": "50", "13Q": "20", "13R": "5", "18H": "70" },
      },
    ]);
    expect(r.holdings).toEqual([
      { holdingId: s.aaa, symbol: "AAA", exchange: "ASX", labels: { "11T": "700", "11U": "300" } },
      {
        holdingId: s.trust,
        symbol: "TTT",
        exchange: "ASX",
        labels: { "13U": "100", "13C": "50", "13Q": "20", "13R": "5", "18H": "70" },
      },
      { holdingId: s.us, symbol: "USX", exchange: "NYSE", labels: { "20E": "150", "20M": "150", "20O": "22.5" } },
    ]);
    expect(r.interest).toEqual([{ cashAccountId: s.cashAccountId, name: "Saver", labels: { "10L": "12.5" } }]);
    expect(r.totals).toEqual({
      "10L": "12.5",
      "10M": "0",
      "11S": "0",
      "11T": "700",
      "11U": "300",
      "11V": "0",
      "13U": "100",
      "13C": "50",
      "13Q": "20",
      "13R": "5",
      "18H": "70",
      "20E": "150",
      "20M": "150",
      "20O": "22.5",
    });
  });

  it("the dividend paid on 1 July 2025 is FY2026's", async () => {
    const s = await investor();
    const r = expectOk(await tr.income(key, s.portfolioId, 2026));
    expect(r.rows).toEqual([expect.objectContaining({ paidDate: "2025-07-01", labels: { "11S": "50" } })]);
    expect((r.totals as Json)["11S"]).toBe("50");
  });

  it("myTax: every label once, in order, to the cent; the trust's capital gain in 18H and 18A", async () => {
    const s = await investor();
    const r = expectOk(await tr.myTax(key, s.portfolioId, 2025));
    const labels = r.labels as { label: string; section: string; amount: string }[];
    expect(labels.map((l) => l.label)).toEqual([
      "10L",
      "10M",
      "11S",
      "11T",
      "11U",
      "11V",
      "13U",
      "13C",
      "13Q",
      "13R",
      "18H",
      "18A",
      "18V",
      "20E",
      "20M",
      "20O",
    ]);
    // No sale in the year: the capital gains are the trust's alone. 18H = 70 (30 grossed up to
    // 60, a discount gain, + 10); 18A = 10 + 60 × 50 % = 40.
    expect(Object.fromEntries(labels.map((l) => [l.label, l.amount]))).toEqual({
      "10L": "12.5",
      "10M": "0",
      "11S": "0",
      "11T": "700",
      "11U": "300",
      "11V": "0",
      "13U": "100",
      "13C": "50",
      "13Q": "20",
      "13R": "5",
      "18H": "70",
      "18A": "40",
      "18V": "0",
      "20E": "150",
      "20M": "150",
      "20O": "22.5",
    });
    expect(labels[0]).toMatchObject({ section: "Interest" });
    expect(r).toMatchObject({
      portfolioId: s.portfolioId,
      portfolioName: "Income investor",
      financialYear: 2025,
      entityType: "Individual",
    });
    expect(r.capitalGains).toMatchObject({ trustCapitalGains: "70", discount: "30", netCapitalGain: "40" });
    expect((r.taxableIncome as Json)["11T"]).toBe("700");
  });

  it("refuses another account's portfolio (404), a non-AUD one (422) and a bad year (400)", async () => {
    const s = await investor();
    const intruder = await t.newAccount("intruder");
    expectError(await tr.income(intruder, s.portfolioId, 2025), "NOT_FOUND");
    expectError(await tr.myTax(intruder, s.portfolioId, 2025), "NOT_FOUND");
    const usd = await newPortfolio(t, key, { name: "US", baseCurrencyCode: "USD" });
    expectError(await tr.income(key, usd, 2025), "BUSINESS_RULE");
    expectError(await tr.myTax(key, usd, 2025), "BUSINESS_RULE");
    expectInvalid(await tr.myTax(key, s.portfolioId, 10_000), "financialYear");
  });

  it("a Read client key reads both", async () => {
    const s = await investor();
    const reader = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect((expectOk(await tr.income(reader, s.portfolioId, 2025)).totals as Json)["11T"]).toBe("700");
    expect(expectOk(await tr.myTax(reader, s.portfolioId, 2025)).labels).toHaveLength(16);
  });
});

it("a distribution's taxDeferred lowers the holding's cost base on the paid date", async () => {
  const s = await investor();
  const holdings = await t.http.get(`/v1/portfolios/${s.portfolioId}/holdings`).set("authorization", key);
  const trust = (holdings.body as { id: number; costBase: number }[]).find((h) => h.id === s.trust)!;
  // 100 × 10 = 1,000 − 40 tax deferred.
  expect(trust.costBase).toBe(960);
  const before = await t.http.get(`/v1/portfolios/${s.portfolioId}/holdings?date=2025-07-14`).set("authorization", key);
  expect((before.body as { id: number; costBase: number }[]).find((h) => h.id === s.trust)!.costBase).toBe(1000);
});

it("an AMIT component name outside the vocabulary is refused, listing the names allowed, and nothing is written", async () => {
  const s = await investor();
  const res = await t.http
    .post("/v1/income")
    .set("authorization", key)
    .send({
      holdingId: s.trust,
      exDividendDate: "2025-01-01",
      paidDate: "2025-01-15",
      isTrustIncome: true,
      unfrankedAmount: 10,
      components: { otherIncome: 10 },
    });
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([
    {
      path: "components.otherIncome",
      message: expect.stringContaining("nonPrimaryProductionIncome, frankedDistributions"),
    },
  ]);
  expect(res.body.errors[0].message).toContain("amitCostBaseIncrease");
  const list = await t.http.get(`/v1/holdings/${s.trust}/income`).set("authorization", key);
  expect(list.body).toHaveLength(1);
});
