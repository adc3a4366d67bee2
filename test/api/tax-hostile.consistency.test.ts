import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { expectOk, type Json } from "../support/outcomes";
import { gqlSimInput, taxReportsApi } from "./tax-hostile.transports";

/**
 * The tax reports agree with each other and across transports (docs/reports.md §5): myTax equals the
 * capital gains summary and the taxable income totals, totals are the sums of their rows, and the
 * same request gives byte-identical JSON.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, trade, taxSettings, confirmedIncome } = taxReportsApi(t, () => key);

/** A year with everything: gains of both kinds, a loss, a delisting, G1, a franked dividend, a trust distribution and interest. */
async function fullYear() {
  const p = await newPortfolio(t, key, { name: "Everything" });
  await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
  await trade(p, "AAA", "Sell", "2024-09-10", 100, 14.33);
  await trade(p, "BBB", "Buy", "2024-08-01", 30, 20.07);
  await trade(p, "BBB", "Sell", "2025-02-03", 30, 26.11, { brokerage: 9.95 });
  const zzz = await trade(p, "ZZZ", "Buy", "2023-01-10", 7, 3.33);
  await trade(p, "ZZZ", "Cancellation", "2025-01-15");
  await trade(p, "RRR", "Buy", "2023-01-10", 3, 1);
  await trade(p, "RRR", "ReturnOfCapital", "2024-10-01", 3, 1.3333);
  await confirmedIncome({
    holdingId: zzz.holdingId,
    exDividendDate: "2024-08-20",
    paidDate: "2024-09-15",
    frankedAmount: 700,
    unfrankedAmount: 33.33,
  });
  const trust = await trade(p, "TRU", "Buy", "2023-05-02", 10, 10);
  await confirmedIncome({
    holdingId: trust.holdingId,
    exDividendDate: "2025-06-30",
    paidDate: "2025-07-20",
    unfrankedAmount: 100,
    frankedAmount: 50,
    isTrustIncome: true,
  });
  // An unconfirmed one counts nowhere.
  await postCreated(t, key, "/v1/income", {
    holdingId: trust.holdingId,
    exDividendDate: "2025-03-30",
    paidDate: "2025-04-20",
    unfrankedAmount: 999,
  });
  const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId: p,
    name: "Savings",
    currencyCode: "AUD",
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "Deposit",
    date: "2024-07-02",
    amount: 1000,
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "InterestPayment",
    date: "2024-12-31",
    amount: "12.3456",
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "InterestPayment",
    date: "2025-06-30",
    amount: "0.005",
  });
  await taxSettings(p, { carriedForwardLosses: [{ financialYear: 2025, amount: "17.77" }] });
  return p;
}

describe("consistency between reports and transports", () => {
  it("REST and GraphQL give the same numbers on all five reports", async () => {
    const p = await fullYear();
    const listed = (await t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", key)).body as Json[];
    const aaa = listed.find((h) => h.symbol === "TRU");
    expect(aaa).toBeDefined();
    expect(expectOk(await gql.capitalGains(key, p, 2025))).toEqual(
      expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })),
    );
    expect(expectOk(await gql.unrealised(key, p, "2025-03-01", true))).toEqual(
      expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: true })),
    );
    expect(expectOk(await gql.income(key, p, 2025))).toEqual(
      expectOk(await rest.income(key, p, { financialYear: 2025 })),
    );
    expect(expectOk(await gql.myTax(key, p, 2025))).toEqual(
      expectOk(await rest.myTax(key, p, { financialYear: 2025 })),
    );
    const input = { holdingId: aaa!.id as number, quantity: "10", price: "30", date: "2025-01-20" };
    expect(expectOk(await gql.simulate(key, p, gqlSimInput(input)))).toEqual(
      expectOk(await rest.simulate(key, p, input)),
    );
  });

  it("myTax 18H/18A/18V equal the capital gains summary to the cent; the income labels equal the taxable income totals", async () => {
    const p = await fullYear();
    const cg = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    const inc = expectOk(await rest.income(key, p, { financialYear: 2025 }));
    const m = expectOk(await rest.myTax(key, p, { financialYear: 2025 }));
    const summary = cg.summary as Record<string, string>;
    const cents = (v: string) => (Math.round(Number(v) * 100) / 100).toString();
    const label = (l: string) => (m.labels as Json[]).find((x) => x.label === l)?.amount;
    expect({ H: label("18H"), A: label("18A"), V: label("18V") }).toEqual({
      H: cents(summary.totalCapitalGains),
      A: cents(summary.netCapitalGain),
      V: cents(summary.netCapitalLossesCarriedForward),
    });
    expect(m.capitalGains).toEqual(cg.summary);
    // myTax's income totals are its labels to the cent; 18H is the total capital gains there, so the
    // taxable income report's 18H (trusts' gains only) is not repeated under that name (§5.4).
    const { "18H": trusts, ...incomeLabels } = inc.totals as Record<string, string>;
    expect(m.taxableIncome).toEqual(Object.fromEntries(Object.entries(incomeLabels).map(([l, v]) => [l, cents(v)])));
    expect(trusts).toBe(summary.trustCapitalGains);
    expect((m.labels as Json[]).map((l) => l.label)).toEqual([
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
    const totals = inc.totals as Record<string, string>;
    for (const l of ["10L", "10M", "11S", "11T", "11U", "11V", "13U", "13C", "13Q", "13R", "20E", "20M", "20O"])
      expect({ l, amount: label(l) }).toEqual({ l, amount: cents(totals[l]) });
  });

  it("taxable income: totals are the sum of the rows plus the interest; holdings sum the rows", async () => {
    const p = await fullYear();
    const inc = expectOk(await rest.income(key, p, { financialYear: 2025 }));
    const { Decimal } = await import("../../src/lib/money");
    const add = (into: Map<string, InstanceType<typeof Decimal>>, labels: Record<string, string>) => {
      for (const [l, v] of Object.entries(labels)) into.set(l, (into.get(l) ?? new Decimal(0)).plus(v));
    };
    const fromRows = new Map<string, InstanceType<typeof Decimal>>();
    for (const r of inc.rows as Json[]) add(fromRows, r.labels as Record<string, string>);
    const fromHoldings = new Map<string, InstanceType<typeof Decimal>>();
    for (const h of inc.holdings as Json[]) add(fromHoldings, h.labels as Record<string, string>);
    expect(Object.fromEntries([...fromHoldings].map(([l, v]) => [l, v.toFixed()]))).toEqual(
      Object.fromEntries([...fromRows].map(([l, v]) => [l, v.toFixed()])),
    );
    for (const i of inc.interest as Json[]) add(fromRows, i.labels as Record<string, string>);
    const totals = inc.totals as Record<string, string>;
    for (const [l, v] of Object.entries(totals))
      if (l !== "18H") expect({ l, v }).toEqual({ l, v: (fromRows.get(l) ?? new Decimal(0)).toFixed() });
    // By hand: 700 franked → 11T 700, 11U 300; 33.33 unfranked → 11S; the trust's 30 June
    // entitlement (paid in July) is FY2025: 13U 100, 13C 50, 13Q 50 × 0.3/0.7 = 21.4286; the
    // unconfirmed 999 nowhere; interest 12.3456 + 0.005 = 12.3506.
    expect(totals).toMatchObject({
      "11T": "700",
      "11U": "300",
      "11S": "33.33",
      "13U": "100",
      "13C": "50",
      "10L": "12.3506",
    });
    expect(inc.rows as Json[]).toHaveLength(2);
  });

  it("the same request twice gives byte-identical JSON on every operation", async () => {
    const p = await fullYear();
    const list = (await t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", key)).body as Json[];
    const bbb = list.find((h) => h.symbol === "TRU")!;
    for (const path of [
      "capital-gains?financialYear=2025",
      "unrealised-capital-gains?date=2025-03-01&includeCarriedForward=true",
      "taxable-income?financialYear=2025",
      "ato-mytax?financialYear=2025",
    ]) {
      const a = await t.http.get(`/v1/portfolios/${p}/reports/${path}`).set("authorization", key);
      const b = await t.http.get(`/v1/portfolios/${p}/reports/${path}`).set("authorization", key);
      expect({ path, status: a.status }).toEqual({ path, status: 200 });
      expect({ path, text: b.text }).toEqual({ path, text: a.text });
    }
    const body = { holdingId: bbb.id, quantity: 5, price: 12, date: "2025-03-01" };
    const a = await t.http.post(`/v1/portfolios/${p}/simulate-sell`).set("authorization", key).send(body);
    const b = await t.http.post(`/v1/portfolios/${p}/simulate-sell`).set("authorization", key).send(body);
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
  });
});
