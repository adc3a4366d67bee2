import { useTestApp } from "../support/app";
import { newPortfolio, newRoundTrip } from "../factories";
import { measured } from "../support/kit";
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
 * The capital gains report (docs/reports.md §5.1) over REST and GraphQL on a real ledger, with the
 * capital-loss ledger carried from the portfolio's own records.
 *
 * FY2025 (1 July 2024 – 30 June 2025) of an Individual, FIFO:
 *   AAA  buy 100 @ 10 on 2023-05-02 (cost 1,000), sell 100 @ 14 on 2024-09-10 → proceeds 1,400,
 *        gain 400, held more than 12 months: discountable.
 *   BBB  buy 50 @ 20 on 2024-08-01 (1,000), sell 50 @ 26 on 2025-02-03 → 1,300, gain 300, short.
 *   CCC  buy 10 @ 50 on 2024-07-15 (500), sell 10 @ 30 on 2025-03-03 → 300, loss 200.
 * s100-50: the 200 loss comes off the non-discount 300 first (100 left); no losses carried;
 * discount 50 % of 400 = 200; net capital gain 100 + 200 = 300; 18H = 300 + 400 = 700; 18V 0.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

async function fy2025(k = key, overrides: Json = {}) {
  const portfolioId = await newPortfolio(t, k, { name: "Investor", ...overrides });
  const aaa = await newRoundTrip(t, k, portfolioId, "AAA", ["2023-05-02", 100, 10], ["2024-09-10", 100, 14]);
  const bbb = await newRoundTrip(t, k, portfolioId, "BBB", ["2024-08-01", 50, 20], ["2025-02-03", 50, 26]);
  const ccc = await newRoundTrip(t, k, portfolioId, "CCC", ["2024-07-15", 10, 50], ["2025-03-03", 10, 30]);
  return { portfolioId, aaa, bbb, ccc };
}

const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm
  carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
const GQL = `query($p: ID!, $fy: Int) { capitalGainsReport(portfolioId: $p, financialYear: $fy) {
  portfolioId financialYear from to entityType discountPercent summary { ${SUMMARY} }
  disposals { holdingId symbol exchange eventType saleTradeId acquisitionTradeId acquisitionDate disposalDate quantity costBase proceeds capitalGain isDiscountable method }
} }`;

const transports: {
  name: string;
  report(k: string, p: number | string, fy?: number | string): Promise<Outcome<Json>>;
}[] = [
  {
    name: "REST",
    report: (k, p, fy) =>
      restCall(
        t.http
          .get(`/v1/portfolios/${p}/reports/capital-gains`)
          .query(fy === undefined ? {} : { financialYear: fy })
          .set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
  },
  {
    name: "GraphQL",
    report: async (k, p, fy) =>
      gqlOutcome(await t.gql(k, GQL, { p: String(p), fy }), "capitalGainsReport", (b) => canonicalAnswer(b) as Json),
  },
];

describe.each(transports)("capital gains over $name", (tr) => {
  it("FY2025: the year's CGT events parcel by parcel and the s100-50 summary", async () => {
    const s = await fy2025();
    const r = expectOk(await tr.report(key, s.portfolioId, 2025));
    expect(r).toMatchObject({
      portfolioId: s.portfolioId,
      financialYear: 2025,
      from: "2024-07-01",
      to: "2025-06-30",
      entityType: "Individual",
      discountPercent: "50",
    });
    expect(r.summary).toEqual({
      shortTermGains: "300",
      longTermGains: "400",
      trustCapitalGains: "0",
      capitalLosses: "200",
      lossesAppliedToShortTerm: "200",
      lossesAppliedToLongTerm: "0",
      carriedForwardLossesAvailable: "0",
      carriedForwardLossesApplied: "0",
      discount: "200",
      totalCapitalGains: "700",
      netCapitalGain: "300",
      netCapitalLossesCarriedForward: "0",
    });
    expect(r.disposals).toEqual([
      {
        holdingId: s.aaa.holdingId,
        symbol: "AAA",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: s.aaa.sellId,
        acquisitionTradeId: s.aaa.buyId,
        acquisitionDate: "2023-05-02",
        disposalDate: "2024-09-10",
        quantity: "100",
        costBase: "1000",
        proceeds: "1400",
        capitalGain: "400",
        isDiscountable: true,
        method: "FIFO",
      },
      {
        holdingId: s.bbb.holdingId,
        symbol: "BBB",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: s.bbb.sellId,
        acquisitionTradeId: s.bbb.buyId,
        acquisitionDate: "2024-08-01",
        disposalDate: "2025-02-03",
        quantity: "50",
        costBase: "1000",
        proceeds: "1300",
        capitalGain: "300",
        isDiscountable: false,
        method: "FIFO",
      },
      {
        holdingId: s.ccc.holdingId,
        symbol: "CCC",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: s.ccc.sellId,
        acquisitionTradeId: s.ccc.buyId,
        acquisitionDate: "2024-07-15",
        disposalDate: "2025-03-03",
        quantity: "10",
        costBase: "500",
        proceeds: "300",
        capitalGain: "-200",
        isDiscountable: false,
        method: "FIFO",
      },
    ]);
  });

  it("a year without events answers zeros, and FY2024 holds none of FY2025's sales", async () => {
    const s = await fy2025();
    const r = expectOk(await tr.report(key, s.portfolioId, 2024));
    expect(r.disposals).toEqual([]);
    expect(Object.values(r.summary as Json).every((v) => v === "0")).toBe(true);
  });

  it("a loss carries forward by itself across a year with no events, and the tax settings' entries add to their year", async () => {
    const s = await fy2025();
    // FY2023: DDD buy 100 @ 10 (1,000), sell 100 @ 7 (700) → a 300 loss, 18V 300.
    const ddd = await newRoundTrip(t, key, s.portfolioId, "DDD", ["2022-08-01", 100, 10], ["2023-03-01", 100, 7]);
    const y2023 = expectOk(await tr.report(key, s.portfolioId, 2023));
    expect(y2023.summary).toMatchObject({
      capitalLosses: "300",
      netCapitalGain: "0",
      netCapitalLossesCarriedForward: "300",
    });
    // FY2024: no events; the 300 comes in and goes on.
    expect(expectOk(await tr.report(key, s.portfolioId, 2024)).summary).toMatchObject({
      carriedForwardLossesAvailable: "300",
      carriedForwardLossesApplied: "0",
      netCapitalLossesCarriedForward: "300",
    });
    // FY2025: the year's 200 loss takes 200 of the 300 short-term gains (100 left); the 300
    // carried takes that 100, then 200 of the 400 discount gains; discount 50 % of 200 = 100;
    // net 100; nothing left to carry.
    expect(expectOk(await tr.report(key, s.portfolioId, 2025)).summary).toMatchObject({
      carriedForwardLossesAvailable: "300",
      carriedForwardLossesApplied: "300",
      discount: "100",
      netCapitalGain: "100",
      netCapitalLossesCarriedForward: "0",
    });

    // An opening loss of 50 entered for FY2024 joins what FY2023 left: 350 into FY2025 →
    // 100 off short-term, 250 off the 400 discount gains (150 left), discount 75, net 75.
    expect(
      (
        await t.http
          .put(`/v1/portfolios/${s.portfolioId}/tax-settings`)
          .set("authorization", key)
          .send({ carriedForwardLosses: [{ financialYear: 2024, amount: 50 }] })
      ).status,
    ).toBe(200);
    expect(expectOk(await tr.report(key, s.portfolioId, 2024)).summary).toMatchObject({
      carriedForwardLossesAvailable: "350",
      netCapitalLossesCarriedForward: "350",
    });
    expect(expectOk(await tr.report(key, s.portfolioId, 2025)).summary).toMatchObject({
      carriedForwardLossesAvailable: "350",
      carriedForwardLossesApplied: "350",
      discount: "75",
      netCapitalGain: "75",
    });

    // Editing the 2023 sale (7 → 4: a 600 loss) changes 18V of every later year: 650 into FY2025
    // takes all 700 gains but 50: 100 short-term, then 550 of the 400 discount gains… all 400;
    // 150 of it is left over. Net 0, 18V 150.
    expect(
      (
        await t.http.put(`/v1/trades/${ddd.sellId}`).set("authorization", key).send({
          portfolioId: s.portfolioId,
          symbol: "DDD",
          exchange: "ASX",
          tradeType: "Sell",
          tradeDate: "2023-03-01",
          quantity: 100,
          price: 4,
        })
      ).status,
    ).toBe(200);
    expect(expectOk(await tr.report(key, s.portfolioId, 2023)).summary).toMatchObject({
      netCapitalLossesCarriedForward: "600",
    });
    expect(expectOk(await tr.report(key, s.portfolioId, 2025)).summary).toMatchObject({
      carriedForwardLossesAvailable: "650",
      carriedForwardLossesApplied: "500",
      netCapitalGain: "0",
      netCapitalLossesCarriedForward: "150",
    });
  });

  it("an SMSF takes a third off its discount gains; a company nothing", async () => {
    const smsf = await fy2025(key, { name: "Super", entityType: "SMSF" });
    // 400 × ⅓ = 133.3333 (4 dp); net = 100 + 400 − 133.3333 = 366.6667.
    expect(expectOk(await tr.report(key, smsf.portfolioId, 2025)).summary).toMatchObject({
      discount: "133.3333",
      netCapitalGain: "366.6667",
    });
    const company = await fy2025(key, { name: "Pty Ltd", entityType: "Company" });
    const r = expectOk(await tr.report(key, company.portfolioId, 2025));
    // No discount: every gain is non-discountable; 700 − 200 = 500.
    expect(r).toMatchObject({ discountPercent: "0" });
    expect(r.summary).toMatchObject({
      shortTermGains: "700",
      longTermGains: "0",
      discount: "0",
      netCapitalGain: "500",
    });
  });

  it("refuses what it cannot answer: another account's portfolio, a non-AUD one, a bad year", async () => {
    const s = await fy2025();
    const intruder = await t.newAccount("intruder");
    expectError(await tr.report(intruder, s.portfolioId, 2025), "NOT_FOUND");
    const usd = await newPortfolio(t, key, { name: "US", baseCurrencyCode: "USD" });
    expectError(await tr.report(key, usd, 2025), "BUSINESS_RULE");
    const nz = await newPortfolio(t, key, { name: "NZ resident", taxResidency: "NZ" });
    expectError(await tr.report(key, nz, 2025), "BUSINESS_RULE");
    expectInvalid(await tr.report(key, s.portfolioId, 1900), "financialYear");
    if (tr.name === "REST") {
      expectInvalid(await tr.report(key, s.portfolioId, "20x5"), "financialYear");
      expectInvalid(await tr.report(key, s.portfolioId, "2025-06-30"), "financialYear");
    }
  });

  it("a Read client key may read it", async () => {
    const s = await fy2025();
    const reader = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect(expectOk(await tr.report(reader, s.portfolioId, 2025)).summary).toMatchObject({ netCapitalGain: "300" });
  });
});

it("the same answer twice is byte-identical, and the default year is the current one", async () => {
  const s = await fy2025();
  const a = await t.http
    .get(`/v1/portfolios/${s.portfolioId}/reports/capital-gains?financialYear=2025`)
    .set("authorization", key);
  const b = await t.http
    .get(`/v1/portfolios/${s.portfolioId}/reports/capital-gains?financialYear=2025`)
    .set("authorization", key);
  expect(a.text).toBe(b.text);
  const current = await t.http.get(`/v1/portfolios/${s.portfolioId}/reports/capital-gains`).set("authorization", key);
  const today = new Date().toISOString().slice(0, 10);
  const fy = Number(today.slice(0, 4)) + (today.slice(5) > "06-30" ? 1 : 0);
  expect(current.body.financialYear).toBe(fy);
});

it("an unknown query field is refused, naming it", async () => {
  const s = await fy2025();
  const res = await t.http
    .get(`/v1/portfolios/${s.portfolioId}/reports/capital-gains?year=2025`)
    .set("authorization", key);
  expect(res.status).toBe(400);
  expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("year");
});

it("costs the same statements for 3 holdings as for 30 (no N+1)", async () => {
  const small = await fy2025();
  const large = await fy2025(key, { name: "Larger" });
  for (let i = 0; i < 27; i++)
    await newRoundTrip(t, key, large.portfolioId, `Z${i}`, ["2023-01-03", 10, 5], ["2024-10-01", 10, 6]);
  const cost = async (p: number, path: string) =>
    (await measured(t.db, () => t.http.get(`/v1/portfolios/${p}/reports/${path}`).set("authorization", key)))
      .statements;
  for (const path of [
    "capital-gains?financialYear=2025",
    "taxable-income?financialYear=2025",
    "ato-mytax?financialYear=2025",
    "unrealised-capital-gains?date=2025-03-01",
  ]) {
    expect({ path, statements: await cost(large.portfolioId, path) }).toEqual({
      path,
      statements: await cost(small.portfolioId, path),
    });
  }
});
