import { ledgerFingerprint, startTestApp, type TestApp } from "../support/app";
import { newCustomHolding, newPortfolio, newTrade, postCreated } from "../support/kit";
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
 * A hostile user's and an attacker's view of the Australian tax reports (REPORTS.md §0, §5;
 * DOMAIN.md §1–2): scenarios the story suites do not cover, each figure derived by hand from the
 * rules; bad input on every field of every operation (a 4xx naming the field, never a 500, nothing
 * written); tenancy on all six operations; and the reports agreeing with each other.
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

// ---------------------------------------------------------------------------------------------
// Transports
// ---------------------------------------------------------------------------------------------

const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm
  carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
const DISPOSAL = `holdingId symbol exchange eventType saleTradeId acquisitionTradeId acquisitionDate disposalDate quantity costBase proceeds capitalGain isDiscountable method`;
const PARCEL = `acquisitionTradeId acquisitionDate quantity costBase proceeds capitalGain isDiscountable`;
const CG_GQL = `query($p: ID!, $fy: Int) { capitalGainsReport(portfolioId: $p, financialYear: $fy) {
  portfolioId financialYear from to entityType discountPercent summary { ${SUMMARY} } disposals { ${DISPOSAL} } } }`;
const UNREALISED_GQL = `query($p: ID!, $d: Date, $cf: Boolean) { unrealisedCapitalGainsReport(portfolioId: $p, date: $d, includeCarriedForward: $cf) {
  portfolioId date financialYear entityType discountPercent summary { ${SUMMARY} }
  holdings { holdingId symbol exchange quantity marketValue costBase unrealisedGain shortTermGain longTermGain capitalLoss nextDiscountDate parcels { ${PARCEL} disposalDate } } unpricedHoldings { holdingId symbol exchange quantity costBase } } }`;
const INCOME_GQL = `query($p: ID!, $fy: Int) { taxableIncomeReport(portfolioId: $p, financialYear: $fy) {
  portfolioId financialYear from to rows { incomeId holdingId symbol exchange exDividendDate paidDate labels }
  holdings { holdingId symbol exchange labels } interest { cashAccountId name labels } totals } }`;
const MYTAX_GQL = `query($p: ID!, $fy: Int) { myTaxReport(portfolioId: $p, financialYear: $fy) {
  portfolioId portfolioName financialYear entityType labels { label section description amount } capitalGains { ${SUMMARY} } taxableIncome } }`;
const SIMULATE_GQL = `query($p: ID!, $input: SimulateSellInput!) { simulateSell(portfolioId: $p, input: $input) {
  holdingId symbol date quantity method proceeds costBase capitalGain shortTermGain longTermGain capitalLoss discount assessableCapitalGain
  parcels { ${PARCEL} } yearToDate { financialYear netCapitalGainBefore netCapitalGainAfter } } }`;

const canon = (b: unknown) => canonicalAnswer(b) as Json;

const rest = {
  capitalGains: (k: string, p: number | string, query: Json = {}) =>
    restCall(t.http.get(`/v1/portfolios/${p}/reports/capital-gains`).query(query).set("authorization", k), 200, canon),
  unrealised: (k: string, p: number | string, query: Json = {}) =>
    restCall(
      t.http.get(`/v1/portfolios/${p}/reports/unrealised-capital-gains`).query(query).set("authorization", k),
      200,
      canon,
    ),
  income: (k: string, p: number | string, query: Json = {}) =>
    restCall(t.http.get(`/v1/portfolios/${p}/reports/taxable-income`).query(query).set("authorization", k), 200, canon),
  myTax: (k: string, p: number | string, query: Json = {}) =>
    restCall(t.http.get(`/v1/portfolios/${p}/reports/ato-mytax`).query(query).set("authorization", k), 200, canon),
  simulate: (k: string, p: number | string, body: unknown) =>
    restCall(
      t.http
        .post(`/v1/portfolios/${p}/simulate-sell`)
        .set("authorization", k)
        .send(body as object),
      200,
      canon,
    ),
};

const gqlSimInput = (input: Json) => ({
  ...input,
  holdingId: input.holdingId === undefined ? undefined : String(input.holdingId),
  parcels: (input.parcels as Json[] | undefined)?.map((x) => ({ ...x, tradeId: String(x.tradeId) })),
});
const gql = {
  capitalGains: async (k: string, p: number | string, fy?: unknown) =>
    gqlOutcome(await t.gql(k, CG_GQL, { p: String(p), fy }), "capitalGainsReport", canon),
  unrealised: async (k: string, p: number | string, d?: unknown, cf?: unknown) =>
    gqlOutcome(await t.gql(k, UNREALISED_GQL, { p: String(p), d, cf }), "unrealisedCapitalGainsReport", canon),
  income: async (k: string, p: number | string, fy?: unknown) =>
    gqlOutcome(await t.gql(k, INCOME_GQL, { p: String(p), fy }), "taxableIncomeReport", canon),
  myTax: async (k: string, p: number | string, fy?: unknown) =>
    gqlOutcome(await t.gql(k, MYTAX_GQL, { p: String(p), fy }), "myTaxReport", canon),
  simulate: async (k: string, p: number | string, input: unknown) =>
    gqlOutcome(await t.gql(k, SIMULATE_GQL, { p: String(p), input }), "simulateSell", canon),
};

// ---------------------------------------------------------------------------------------------
// Setup helpers (REST)
// ---------------------------------------------------------------------------------------------

const trade = (
  p: number,
  symbol: string,
  tradeType: string,
  tradeDate: string,
  quantity?: number,
  price?: number,
  extra: Json = {},
) =>
  newTrade(t, key, {
    portfolioId: p,
    symbol,
    exchange: "ASX",
    tradeType,
    tradeDate,
    ...(quantity === undefined ? {} : { quantity }),
    ...(price === undefined ? {} : { price }),
    ...extra,
  });

const taxSettings = async (p: number, body: Json) => {
  const res = await t.http.put(`/v1/portfolios/${p}/tax-settings`).set("authorization", key).send(body);
  if (res.status !== 200) throw new Error(`tax settings: ${res.status} ${res.text}`);
};

const confirmedIncome = async (body: Json) => {
  const income = await postCreated<{ id: number }>(t, key, "/v1/income", body);
  const res = await t.http.put(`/v1/income/${income.id}/confirm`).set("authorization", key);
  if (res.status !== 200) throw new Error(`confirm: ${res.status} ${res.text}`);
  return income.id;
};

const marketPrice = async (symbol: string, date: string, close: number) => {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", key)
    .send([{ symbol, exchange: "ASX", date, close }]);
  if (res.status !== 200) throw new Error(`market price: ${res.status} ${res.text}`);
};

const summaryOf = (over: Json): Json => ({
  shortTermGains: "0",
  longTermGains: "0",
  trustCapitalGains: "0",
  capitalLosses: "0",
  lossesAppliedToShortTerm: "0",
  lossesAppliedToLongTerm: "0",
  carriedForwardLossesAvailable: "0",
  carriedForwardLossesApplied: "0",
  discount: "0",
  totalCapitalGains: "0",
  netCapitalGain: "0",
  netCapitalLossesCarriedForward: "0",
  ...over,
});

// =============================================================================================
// 1. Wrong numbers
// =============================================================================================

describe("figures derived by hand from the rules", () => {
  it("a Cancellation (delisting) is a capital loss of the whole cost base, eventType Cancellation, method null", async () => {
    // AAA: 100 @ 10 on 2023-05-02 (1,000), sold 100 @ 14 on 2024-09-10: a 400 discount gain.
    // ZZZ: 100 @ 5 on 2023-01-10 (500), delisted 2025-01-15: proceeds 0, a 500 loss.
    // s100-50: no non-discount gains; the 500 loss takes all 400 discount gains, 100 left over.
    // Discount 0, net 0, 18H 400, 18V 100. FY2026 then receives the 100.
    const p = await newPortfolio(t, key, { name: "Delisted" });
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await trade(p, "AAA", "Sell", "2024-09-10", 100, 14);
    const zBuy = await trade(p, "ZZZ", "Buy", "2023-01-10", 100, 5);
    const cancel = await trade(p, "ZZZ", "Cancellation", "2025-01-15");
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.summary).toEqual(
      summaryOf({
        longTermGains: "400",
        capitalLosses: "500",
        lossesAppliedToLongTerm: "400",
        totalCapitalGains: "400",
        netCapitalLossesCarriedForward: "100",
      }),
    );
    const row = (r.disposals as Json[]).find((d) => d.symbol === "ZZZ");
    expect(row).toMatchObject({
      eventType: "Cancellation",
      saleTradeId: cancel.id,
      acquisitionTradeId: zBuy.id,
      acquisitionDate: "2023-01-10",
      disposalDate: "2025-01-15",
      quantity: "100",
      costBase: "500",
      proceeds: "0",
      capitalGain: "-500",
      method: null,
    });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2026 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "100",
      netCapitalLossesCarriedForward: "100",
    });
    // Nothing left to value.
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    expect((u.holdings as Json[]).map((h) => h.symbol)).toEqual([]);
  });

  it("a ReturnOfCapital beyond the cost base is a G1 gain (CapitalReturnExcess) and the later sell starts from a zero cost base", async () => {
    // 100 @ 1 on 2023-01-10 (cost 100). ReturnOfCapital 1.50 a unit on 2024-10-01 = 150: the
    // cost base goes to 0 and the 50 beyond it is a capital gain (G1), held > 12 months:
    // discountable. Sell 100 @ 2 on 2025-03-01: proceeds 200, cost 0, gain 200, discountable.
    // FY2025: long-term 250, discount 125, net 125, 18H 250.
    const p = await newPortfolio(t, key, { name: "G1" });
    const buy = await trade(p, "RRR", "Buy", "2023-01-10", 100, 1);
    const roc = await trade(p, "RRR", "ReturnOfCapital", "2024-10-01", 100, 1.5);
    const sell = await trade(p, "RRR", "Sell", "2025-03-01", 100, 2);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "RRR",
        exchange: "ASX",
        eventType: "CapitalReturnExcess",
        saleTradeId: roc.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-10-01",
        quantity: "0",
        costBase: "0",
        proceeds: "50",
        capitalGain: "50",
        isDiscountable: true,
        method: null,
      },
      {
        holdingId: buy.holdingId,
        symbol: "RRR",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2025-03-01",
        quantity: "100",
        costBase: "0",
        proceeds: "200",
        capitalGain: "200",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toEqual(
      summaryOf({ longTermGains: "250", discount: "125", totalCapitalGains: "250", netCapitalGain: "125" }),
    );
  });

  it("a Split changes units, not cost base or acquisition date: sell after it", async () => {
    // 100 @ 10 on 2023-01-10 (1,000); Split +100 units on 2024-01-01 (200 units, cost 1,000);
    // sell 150 @ 8 on 2024-11-01: cost 1,000 × 150/200 = 750, proceeds 1,200, gain 450, from 2023-01-10.
    const p = await newPortfolio(t, key, { name: "Split" });
    const buy = await trade(p, "SSS", "Buy", "2023-01-10", 100, 10);
    await trade(p, "SSS", "Split", "2024-01-01", 100);
    const sell = await trade(p, "SSS", "Sell", "2024-11-01", 150, 8);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "SSS",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "150",
        costBase: "750",
        proceeds: "1200",
        capitalGain: "450",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({ longTermGains: "450", discount: "225", netCapitalGain: "225" });
  });

  it("DRP units sold: their parcel has acquisitionTradeId null, the paid date, drpQuantity × drpPrice as cost", async () => {
    // 100 @ 10 on 2023-01-10 (1,000); a reinvested dividend paid 2023-06-30 allots 10 @ 11 (110).
    // Sell 110 @ 12 on 2024-11-01: proceeds 1,320, by units 1,200 and 120. Buy parcel gain 200,
    // DRP parcel gain 10; both discountable. Net (210 / 2) = 105.
    const p = await newPortfolio(t, key, { name: "DRP" });
    const buy = await trade(p, "DDD", "Buy", "2023-01-10", 100, 10);
    await confirmedIncome({
      holdingId: buy.holdingId,
      exDividendDate: "2023-06-01",
      paidDate: "2023-06-30",
      unfrankedAmount: 110,
      isReinvested: true,
      drpQuantity: 10,
      drpPrice: 11,
    });
    const sell = await trade(p, "DDD", "Sell", "2024-11-01", 110, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "DDD",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "100",
        costBase: "1000",
        proceeds: "1200",
        capitalGain: "200",
        isDiscountable: true,
        method: "FIFO",
      },
      {
        holdingId: buy.holdingId,
        symbol: "DDD",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: null,
        acquisitionDate: "2023-06-30",
        disposalDate: "2024-11-01",
        quantity: "10",
        costBase: "110",
        proceeds: "120",
        capitalGain: "10",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({ longTermGains: "210", discount: "105", netCapitalGain: "105" });
    // Over GraphQL the null acquisition trade stays null.
    const g = expectOk(await gql.capitalGains(key, p, 2025));
    expect(g).toEqual(r);
  });

  it("a TransferOut is not a CGT event: no row, no gain; the later sell takes the units left", async () => {
    // 100 @ 10 on 2023-01-10; TransferOut 40 on 2024-10-01; sell 60 @ 12 on 2024-11-01: cost 600,
    // proceeds 720, gain 120 (discountable). Net 60.
    const p = await newPortfolio(t, key, { name: "Transfer" });
    const buy = await trade(p, "TTT", "Buy", "2023-01-10", 100, 10);
    await trade(p, "TTT", "TransferOut", "2024-10-01", 40);
    const sell = await trade(p, "TTT", "Sell", "2024-11-01", 60, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "TTT",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "60",
        costBase: "600",
        proceeds: "720",
        capitalGain: "120",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({
      longTermGains: "120",
      capitalLosses: "0",
      netCapitalGain: "60",
      totalCapitalGains: "120",
    });
  });

  it("foreign-currency trades enter at each trade's own AUD rate", async () => {
    // AAPL (USD): buy 10 @ 100 + 10 brokerage at 1.5 on 2023-01-10 → (1,000 + 10) × 1.5 = 1,515.
    // Sell 10 @ 120 − 10 brokerage at 1.4 on 2024-11-01 → (1,200 − 10) × 1.4 = 1,666. Gain 151.
    const p = await newPortfolio(t, key, { name: "Foreign" });
    const buy = await newTrade(t, key, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2023-01-10",
      quantity: 10,
      price: 100,
      brokerage: 10,
      exchangeRate: 1.5,
    });
    const sell = await newTrade(t, key, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Sell",
      tradeDate: "2024-11-01",
      quantity: 10,
      price: 120,
      brokerage: 10,
      exchangeRate: 1.4,
    });
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "AAPL",
        exchange: "NASDAQ",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "10",
        costBase: "1515",
        proceeds: "1666",
        capitalGain: "151",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    // Simulate the same sale on the same day with an explicit rate of 2: (1,200 − 10) × 2 = 2,380.
    const s = expectOk(
      await rest.simulate(key, p, {
        holdingId: buy.holdingId,
        quantity: 5,
        price: 120,
        brokerage: 10,
        exchangeRate: 2,
        date: "2024-10-01",
      }),
    );
    // 5 of the 10 units: cost 757.5, proceeds (600 − 10) × 2 = 1,180, gain 422.5.
    expect(s).toMatchObject({
      proceeds: "1180",
      costBase: "757.5",
      capitalGain: "422.5",
      longTermGain: "422.5",
      discount: "211.25",
      assessableCapitalGain: "211.25",
    });
  });

  it("a non-June year end: FY2025 of a 31 December portfolio is calendar 2025", async () => {
    // financialYearEnd 12-31: a sale on 2024-12-31 is FY2024, one on 2025-01-01 FY2025.
    const p = await newPortfolio(t, key, { name: "Calendar", financialYearEnd: "12-31" });
    await trade(p, "CAL", "Buy", "2023-01-10", 100, 10);
    const s1 = await trade(p, "CAL", "Sell", "2024-12-31", 10, 12);
    const s2 = await trade(p, "CAL", "Sell", "2025-01-01", 10, 13);
    const y24 = expectOk(await rest.capitalGains(key, p, { financialYear: 2024 }));
    expect(y24).toMatchObject({ from: "2024-01-01", to: "2024-12-31" });
    expect((y24.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([s1.id]);
    expect(y24.summary).toMatchObject({ longTermGains: "20", netCapitalGain: "10" });
    const y25 = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(y25).toMatchObject({ from: "2025-01-01", to: "2025-12-31" });
    expect((y25.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([s2.id]);
    expect(y25.summary).toMatchObject({ longTermGains: "30", netCapitalGain: "15" });
    const m = expectOk(await rest.myTax(key, p, { financialYear: 2025 }));
    expect((m.labels as Json[]).find((l) => l.label === "18H")?.amount).toBe("30");
    // Simulated on 2025-01-01 (FY2025): the year before holds s2 only (net 15).
    const sim = expectOk(
      await rest.simulate(key, p, {
        holdingId: (await t.http.get(`/v1/trades/${s2.id}`).set("authorization", key)).body.holdingId,
        quantity: 10,
        price: 14,
        date: "2025-01-01",
      }),
    );
    expect(sim.yearToDate).toEqual({ financialYear: 2025, netCapitalGainBefore: "15", netCapitalGainAfter: "35" });
  });

  it("a sale on 30 June is in the year ending that day; one on 1 July in the next", async () => {
    const p = await newPortfolio(t, key, { name: "June" });
    await trade(p, "JUN", "Buy", "2024-07-10", 100, 10);
    const june = await trade(p, "JUN", "Sell", "2025-06-30", 10, 12);
    const july = await trade(p, "JUN", "Sell", "2025-07-01", 10, 13);
    const y25 = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect((y25.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([june.id]);
    // Acquired 2024-07-10: not 12 months by 2025-06-30 or 2025-07-01 → non-discount gains.
    expect(y25.summary).toMatchObject({ shortTermGains: "20", netCapitalGain: "20" });
    const y26 = expectOk(await rest.capitalGains(key, p, { financialYear: 2026 }));
    expect((y26.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([july.id]);
    expect(y26.summary).toMatchObject({ shortTermGains: "30", netCapitalGain: "30" });
  });

  it("the parcel method per year and per holding (tax settings) and manual parcels show in each row's method", async () => {
    // Each holding: buy 10 @ 1 on 2023-01-10 (b1), buy 10 @ 2 on 2023-02-10 (b2); sell 7 @ 3.
    // Settings: default LIFO; FY2025 FIFO; holding M2 in FY2025 MinimiseGain.
    //   M1 sell 2024-03-01 (FY2024): default LIFO → b2, cost 14, proceeds 21, gain 7.
    //   M1 sell 2024-10-01 (FY2025): year FIFO → b1, cost 7, gain 14.
    //   M2 sell 2024-10-01 (FY2025): override MinimiseGain → b2 (highest cost), gain 7.
    //   M3 sell 2024-10-01 with parcels [b1: 7] → Manual, gain 14.
    const p = await newPortfolio(t, key, { name: "Methods" });
    const mk = async (symbol: string) => ({
      b1: await trade(p, symbol, "Buy", "2023-01-10", 10, 1),
      b2: await trade(p, symbol, "Buy", "2023-02-10", 10, 2),
    });
    const m1 = await mk("MMA");
    const m2 = await mk("MMB");
    const m3 = await mk("MMC");
    await taxSettings(p, {
      defaultMethod: "LIFO",
      yearMethods: [{ financialYear: 2025, method: "FIFO" }],
      holdingOverrides: [{ holdingId: m2.b1.holdingId, financialYear: 2025, method: "MinimiseGain" }],
    });
    const s1 = await trade(p, "MMA", "Sell", "2024-03-01", 7, 3);
    const s2 = await trade(p, "MMA", "Sell", "2024-10-01", 7, 3);
    const s3 = await trade(p, "MMB", "Sell", "2024-10-01", 7, 3);
    const s4 = await trade(p, "MMC", "Sell", "2024-10-01", 7, 3, { parcels: [{ tradeId: m3.b1.id, quantity: 7 }] });
    const pick = (r: Json) =>
      (r.disposals as Json[]).map((d) => ({
        sale: d.saleTradeId,
        parcel: d.acquisitionTradeId,
        method: d.method,
        gain: d.capitalGain,
      }));
    expect(pick(expectOk(await rest.capitalGains(key, p, { financialYear: 2024 })))).toEqual([
      { sale: s1.id, parcel: m1.b2.id, method: "LIFO", gain: "7" },
    ]);
    expect(pick(expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })))).toEqual([
      { sale: s2.id, parcel: m1.b1.id, method: "FIFO", gain: "14" },
      { sale: s3.id, parcel: m2.b2.id, method: "MinimiseGain", gain: "7" },
      { sale: s4.id, parcel: m3.b1.id, method: "Manual", gain: "14" },
    ]);
    // Simulate on MMB in FY2025 with no method: the override applies and is named.
    const sim = expectOk(
      await rest.simulate(key, p, { holdingId: m2.b1.holdingId, quantity: 3, price: 3, date: "2024-10-02" }),
    );
    expect(sim).toMatchObject({ method: "MinimiseGain", capitalGain: "3" });
    // Manual parcels in a simulation: "Manual".
    const manual = expectOk(
      await rest.simulate(key, p, {
        holdingId: m2.b1.holdingId,
        quantity: 3,
        price: 3,
        date: "2024-10-02",
        parcels: [{ tradeId: m2.b1.id, quantity: 3 }],
      }),
    );
    expect(manual).toMatchObject({ method: "Manual", capitalGain: "6" });
  });

  it("simulate sell on a day with an existing sell: it comes after that sell, and the year includes it", async () => {
    // 100 @ 10 on 2023-05-02; a real sell of 30 @ 12 on 2025-03-01 (gain 60, discountable).
    // Simulating 71 that day: only 70 are left → 422. Simulating 70 @ 15: cost 700, proceeds 1,050,
    // gain 350 (discountable); alone: discount 175, assessable 175. Year: before 60/2 = 30,
    // after (60 + 350)/2 = 205.
    const p = await newPortfolio(t, key, { name: "Same day" });
    const buy = await trade(p, "SDS", "Buy", "2023-05-02", 100, 10);
    await trade(p, "SDS", "Sell", "2025-03-01", 30, 12);
    const before = await ledgerFingerprint(t.db);
    expectError(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 71, price: 15, date: "2025-03-01" }),
      "BUSINESS_RULE",
    );
    const s = expectOk(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 70, price: 15, date: "2025-03-01" }),
    );
    expect(s).toEqual({
      holdingId: buy.holdingId,
      symbol: "SDS",
      date: "2025-03-01",
      quantity: "70",
      method: "FIFO",
      proceeds: "1050",
      costBase: "700",
      capitalGain: "350",
      shortTermGain: "0",
      longTermGain: "350",
      capitalLoss: "0",
      discount: "175",
      assessableCapitalGain: "175",
      parcels: [
        {
          acquisitionTradeId: buy.id,
          acquisitionDate: "2023-05-02",
          quantity: "70",
          costBase: "700",
          proceeds: "1050",
          capitalGain: "350",
          isDiscountable: true,
        },
      ],
      yearToDate: { financialYear: 2025, netCapitalGainBefore: "30", netCapitalGainAfter: "205" },
    });
    expect(
      expectOk(
        await gql.simulate(
          key,
          p,
          gqlSimInput({ holdingId: buy.holdingId, quantity: "70", price: "15", date: "2025-03-01" }),
        ),
      ),
    ).toEqual(s);
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell before a later real sell: the units sold later are not double counted as held", async () => {
    // 100 @ 10 on 2023-05-02; a real sell of all 100 on 2025-05-01. On 2025-03-01 the 100 are
    // still held, so simulating 100 then is possible (the later real sell is after the date).
    const p = await newPortfolio(t, key, { name: "Later sell" });
    const buy = await trade(p, "LSS", "Buy", "2023-05-02", 100, 10);
    await trade(p, "LSS", "Sell", "2025-05-01", 100, 12);
    const s = expectOk(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 100, price: 11, date: "2025-03-01" }),
    );
    // Year to date (to 2025-03-01): nothing before; after, 100/2 = 50.
    expect(s).toMatchObject({
      capitalGain: "100",
      yearToDate: { financialYear: 2025, netCapitalGainBefore: "0", netCapitalGainAfter: "50" },
    });
  });

  it("unrealised: a custom-priced holding is valued at its custom price", async () => {
    // HOUSE bought 1 @ 500,000 on 2023-01-10; custom price 600,000 on 2025-01-31. On 2025-03-01:
    // market value 600,000, gain 100,000 (discountable), discount 50,000, net 50,000.
    const p = await newPortfolio(t, key, { name: "Custom" });
    const house = await newCustomHolding(t, key, p, { symbol: "HOUSE", name: "Beach house" });
    const buy = await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "Buy",
      tradeDate: "2023-01-10",
      quantity: 1,
      price: 500000,
    });
    await postCreated(t, key, `/v1/holdings/${house}/prices`, { date: "2025-01-31", price: 600000 });
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    expect(u.holdings).toEqual([
      {
        holdingId: house,
        symbol: "HOUSE",
        exchange: expect.any(String),
        quantity: "1",
        marketValue: "600000",
        costBase: "500000",
        unrealisedGain: "100000",
        shortTermGain: "0",
        longTermGain: "100000",
        capitalLoss: "0",
        nextDiscountDate: null,
        parcels: [
          {
            acquisitionTradeId: buy.id,
            acquisitionDate: "2023-01-10",
            disposalDate: "2025-03-01",
            quantity: "1",
            costBase: "500000",
            proceeds: "600000",
            capitalGain: "100000",
            isDiscountable: true,
          },
        ],
      },
    ]);
    expect(u.summary).toEqual(
      summaryOf({ longTermGains: "100000", discount: "50000", totalCapitalGains: "100000", netCapitalGain: "50000" }),
    );
  });

  it("unrealised: a holding with no price at all is not shown as a loss of its whole cost base", async () => {
    // A custom investment transferred in without a price, its cost base raised by 5,000, never
    // priced: there is nothing to sell it at, so it stays out of the figures and is named in
    // unpricedHoldings with its units and cost base. AAA beside it is priced by its last trade.
    const p = await newPortfolio(t, key, { name: "Unpriced" });
    const house = await newCustomHolding(t, key, p, { symbol: "LAND", name: "Land" });
    await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "TransferIn",
      tradeDate: "2023-01-10",
      quantity: 1,
    });
    await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "CostBaseIncrease",
      tradeDate: "2023-02-10",
      quantity: 1,
      price: 5000,
    });
    await trade(p, "AAA", "Buy", "2023-01-10", 100, 10);
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    for (const h of u.holdings as Json[])
      expect({ symbol: h.symbol, loss: h.capitalLoss }).not.toEqual({ symbol: "LAND", loss: "5000" });
    expect(u.summary).toEqual(summaryOf({}));
    expect(u.unpricedHoldings).toEqual([
      { holdingId: house, symbol: "LAND", exchange: expect.any(String), quantity: "1", costBase: "5000" },
    ]);
  });

  it("a ReturnOfCapital spread over two parcels by units: only the parcel it exceeds makes a G1 gain", async () => {
    // A: 100 @ 1 (cost 100), B: 100 @ 5 (cost 500), both 2023. ReturnOfCapital 2 a unit on
    // 2024-10-01 = 400, 200 per parcel by units: A goes to 0 with 100 beyond it (G1, quantity 0);
    // B to 300. Sell all 200 @ 4 on 2025-03-01: A proceeds 400 − 0 = 400, B 400 − 300 = 100.
    // FY2025: 100 + 400 + 100 = 600 discount gains, net 300.
    const p = await newPortfolio(t, key, { name: "G1 pro rata" });
    const a = await trade(p, "PPP", "Buy", "2023-01-10", 100, 1);
    const b = await trade(p, "PPP", "Buy", "2023-02-10", 100, 5);
    const roc = await trade(p, "PPP", "ReturnOfCapital", "2024-10-01", 200, 2);
    const sell = await trade(p, "PPP", "Sell", "2025-03-01", 200, 4);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(
      (r.disposals as Json[]).map((d) => [
        d.eventType,
        d.saleTradeId,
        d.acquisitionTradeId,
        d.quantity,
        d.costBase,
        d.proceeds,
        d.capitalGain,
      ]),
    ).toEqual([
      ["CapitalReturnExcess", roc.id, a.id, "0", "0", "100", "100"],
      ["Sell", sell.id, a.id, "100", "0", "400", "400"],
      ["Sell", sell.id, b.id, "100", "300", "400", "100"],
    ]);
    expect(r.summary).toMatchObject({
      longTermGains: "600",
      discount: "300",
      netCapitalGain: "300",
      totalCapitalGains: "600",
    });
  });

  it("a loss entered for a year long before any trade still reaches the year asked for", async () => {
    // 250 entered for FY2019; no events until AAA's 400 discount gain in FY2025: 250 off it,
    // 150 left, discount 75, net 75; FY2019..FY2024 each carry the 250.
    const p = await newPortfolio(t, key, { name: "Old loss" });
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await trade(p, "AAA", "Sell", "2024-09-10", 100, 14);
    await taxSettings(p, { carriedForwardLosses: [{ financialYear: 2019, amount: 250 }] });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2022 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "250",
      netCapitalLossesCarriedForward: "250",
    });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "250",
      carriedForwardLossesApplied: "250",
      discount: "75",
      netCapitalGain: "75",
      netCapitalLossesCarriedForward: "0",
    });
  });

  it("an SMSF's simulated sell takes a third off; a company's nothing", async () => {
    // 100 @ 10 on 2023-05-02; simulate 100 @ 13 on 2025-03-01: gain 300, discountable.
    for (const [entityType, discount, assessable] of [
      ["SMSF", "100", "200"],
      ["Company", "0", "300"],
    ]) {
      const p = await newPortfolio(t, key, { name: entityType, entityType });
      const buy = await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
      const s = expectOk(
        await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 100, price: 13, date: "2025-03-01" }),
      );
      expect({ entityType, discount: s.discount, assessable: s.assessableCapitalGain }).toEqual({
        entityType,
        discount,
        assessable,
      });
    }
  });

  it("a sell's brokerage comes off its proceeds, split over its parcels by units; a parcel's loss offsets the other's gain", async () => {
    // b1 100 @ 10 on 2023-01-10 (1,000), b2 50 @ 12 on 2024-08-01 (600). Sell 150 @ 11 less 30
    // brokerage on 2025-03-01: proceeds 1,620 → 1,080 and 540. b1 +80 (discountable), b2 −60.
    // s100-50: no non-discount gains, so the 60 loss comes off the 80: 20 left, discount 10, net 10.
    const p = await newPortfolio(t, key, { name: "Brokerage" });
    const b1 = await trade(p, "BRK", "Buy", "2023-01-10", 100, 10);
    const b2 = await trade(p, "BRK", "Buy", "2024-08-01", 50, 12);
    await trade(p, "BRK", "Sell", "2025-03-01", 150, 11, { brokerage: 30 });
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(
      (r.disposals as Json[]).map((d) => [
        d.acquisitionTradeId,
        d.quantity,
        d.costBase,
        d.proceeds,
        d.capitalGain,
        d.isDiscountable,
      ]),
    ).toEqual([
      [b1.id, "100", "1000", "1080", "80", true],
      [b2.id, "50", "600", "540", "-60", false],
    ]);
    expect(r.summary).toEqual(
      summaryOf({
        longTermGains: "80",
        capitalLosses: "60",
        lossesAppliedToLongTerm: "60",
        discount: "10",
        totalCapitalGains: "80",
        netCapitalGain: "10",
      }),
    );
  });

  it("a Bonus parcel is discountable from its stated acquisition date, else from the issue date", async () => {
    // Each: 100 @ 10 on 2023-01-10; Bonus 10 on 2024-10-01; sell 110 @ 12 on 2025-01-15 (1,320:
    // 1,200 and 120). The bonus units cost 0: gain 120. With acquisitionDate 2023-01-10 they are
    // discountable; without, acquired 2024-10-01, they are not.
    const p = await newPortfolio(t, key, { name: "Bonus" });
    await trade(p, "BON", "Buy", "2023-01-10", 100, 10);
    const kept = await trade(p, "BON", "Bonus", "2024-10-01", 10, undefined, { acquisitionDate: "2023-01-10" });
    await trade(p, "BON", "Sell", "2025-01-15", 110, 12);
    await trade(p, "BOX", "Buy", "2023-01-10", 100, 10);
    const issued = await trade(p, "BOX", "Bonus", "2024-10-01", 10);
    await trade(p, "BOX", "Sell", "2025-01-15", 110, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    const bonusRows = (r.disposals as Json[]).filter(
      (d) => d.acquisitionTradeId === kept.id || d.acquisitionTradeId === issued.id,
    );
    expect(
      bonusRows.map((d) => [d.symbol, d.acquisitionDate, d.costBase, d.proceeds, d.capitalGain, d.isDiscountable]),
    ).toEqual([
      ["BON", "2023-01-10", "0", "120", "120", true],
      ["BOX", "2024-10-01", "0", "120", "120", false],
    ]);
    // 200 + 120 + 200 discountable, 120 not: net 120 + 520 / 2 = 380.
    expect(r.summary).toMatchObject({
      shortTermGains: "120",
      longTermGains: "520",
      discount: "260",
      netCapitalGain: "380",
    });
  });

  it("unrealised with includeCarriedForward=true applies the losses carried into that year, false does not", async () => {
    // FY2024: LLL 100 @ 10 on 2023-01-10, sold @ 7 on 2023-10-01 → a 300 loss carried into FY2025.
    // AAA 100 @ 10 on 2023-05-02, closing 16 on 2025-02-28 → unrealised 600 (discountable) on 2025-03-01.
    // false: discount 300, net 300. true: 300 carried off the 600 → 300, discount 150, net 150.
    const p = await newPortfolio(t, key, { name: "Carried" });
    await trade(p, "LLL", "Buy", "2023-01-10", 100, 10);
    await trade(p, "LLL", "Sell", "2023-10-01", 100, 7);
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await marketPrice("AAA", "2025-02-28", 16);
    const off = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: false }));
    expect(off.summary).toEqual(
      summaryOf({ longTermGains: "600", discount: "300", totalCapitalGains: "600", netCapitalGain: "300" }),
    );
    const on = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: true }));
    expect(on.summary).toEqual(
      summaryOf({
        longTermGains: "600",
        carriedForwardLossesAvailable: "300",
        carriedForwardLossesApplied: "300",
        discount: "150",
        totalCapitalGains: "600",
        netCapitalGain: "150",
      }),
    );
    expect(expectOk(await gql.unrealised(key, p, "2025-03-01", true))).toEqual(on);
    // An entered loss for FY2025 joins it: 300 + 500 = 800 against 600 → net 0, 200 left over.
    await taxSettings(p, { carriedForwardLosses: [{ financialYear: 2025, amount: 500 }] });
    const more = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: "true" }));
    expect(more.summary).toMatchObject({
      carriedForwardLossesAvailable: "800",
      carriedForwardLossesApplied: "600",
      netCapitalGain: "0",
      netCapitalLossesCarriedForward: "200",
    });
  });
});

// =============================================================================================
// 2. Bad input
// =============================================================================================

/** A portfolio with one holding and a sale, so every report has something to say. */
async function basic(k = key) {
  const p = await newPortfolio(t, k, { name: "Basic" });
  const buy = await newTrade(t, k, {
    portfolioId: p,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-05-02",
    quantity: 100,
    price: 10,
  });
  const sell = await newTrade(t, k, {
    portfolioId: p,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: "2024-09-10",
    quantity: 50,
    price: 14,
  });
  return { p, holdingId: buy.holdingId, buyId: buy.id, sellId: sell.id };
}

const NUL = "\u0000";

describe("bad input: 400 problem+json naming the field, never a 500, nothing written", () => {
  const yearReports = [
    ["capital-gains", rest.capitalGains],
    ["taxable-income", rest.income],
    ["ato-mytax", rest.myTax],
  ] as const;

  it.each(yearReports)("%s: every malformed financialYear is a 400 at financialYear", async (_, call) => {
    const s = await basic();
    const before = await ledgerFingerprint(t.db);
    for (const fy of [
      "2025.0",
      " 2025",
      "2025 ",
      "02025",
      "-1",
      "0",
      "",
      "abc",
      `2025${NUL}`,
      "99999999999999999999",
      "1e3",
      "1985",
      "2201",
      "0x7E9",
      "२०२५",
    ]) {
      const o = await call(key, s.p, { financialYear: fy });
      expect({ fy, status: o.status }).toEqual({ fy, status: 400 });
      expectInvalid(o, "financialYear");
    }
    // Repeated: ?financialYear=2025&financialYear=2026.
    const repeated = await restCall(
      t.http.get(`/v1/portfolios/${s.p}/reports/${_}?financialYear=2025&financialYear=2026`).set("authorization", key),
    );
    expectInvalid(repeated, "financialYear");
    // An unknown field, and one with a NUL in its name.
    expectInvalid(await call(key, s.p, { financialYear: 2025, year: 2025 }), "year");
    const nulName = await restCall(
      t.http.get(`/v1/portfolios/${s.p}/reports/${_}?financialYear=2025&x%00y=1`).set("authorization", key),
    );
    expectError(nulName, "VALIDATION_FAILED");
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("the PDF refuses the same years the JSON does, as problem+json", async () => {
    const s = await basic();
    for (const fy of ["2025.0", " 2025", "02025", "-1", "1985"]) {
      const res = await t.http
        .get(`/v1/portfolios/${s.p}/reports/ato-mytax/pdf`)
        .query({ financialYear: fy })
        .set("authorization", key);
      expect({ fy, status: res.status, type: res.headers["content-type"] }).toEqual({
        fy,
        status: 400,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
  });

  it("unrealised: bad dates, future dates, bad flags are 400 at the field", async () => {
    const s = await basic();
    const before = await ledgerFingerprint(t.db);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (const date of [
      "2025-02-30",
      "2025-2-3",
      "2025-13-01",
      "",
      "25-03-01",
      `2025-03-01${NUL}`,
      "2025-03-01T00:00:00Z",
      "1899-12-31",
      future,
      "9999-12-31",
    ]) {
      const o = await rest.unrealised(key, s.p, { date });
      expect({ date, status: o.status }).toEqual({ date, status: 400 });
      expectInvalid(o, "date");
    }
    for (const flag of ["yes", "1", "TRUE", "", `true${NUL}`])
      expectInvalid(
        await rest.unrealised(key, s.p, { date: "2025-03-01", includeCarriedForward: flag }),
        "includeCarriedForward",
      );
    expectInvalid(await rest.unrealised(key, s.p, { date: "2025-03-01", financialYear: 2025 }), "financialYear");
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell: every bad field of the body is a 400 at that field, and nothing is written", async () => {
    const s = await basic();
    const ok = { holdingId: s.holdingId, quantity: 10, price: 15, date: "2025-03-01" };
    const cases: [string, Json, string][] = [
      ["holdingId text", { holdingId: "abc" }, "holdingId"],
      ["holdingId negative", { holdingId: -1 }, "holdingId"],
      ["holdingId zero", { holdingId: 0 }, "holdingId"],
      ["holdingId fraction", { holdingId: 1.5 }, "holdingId"],
      ["holdingId huge", { holdingId: 1e20 }, "holdingId"],
      ["holdingId null", { holdingId: null }, "holdingId"],
      ["holdingId missing", { holdingId: undefined }, "holdingId"],
      ["quantity negative", { quantity: -1 }, "quantity"],
      ["quantity zero", { quantity: 0 }, "quantity"],
      ["quantity text", { quantity: "ten" }, "quantity"],
      ["quantity huge", { quantity: 1e16 }, "quantity"],
      ["quantity too precise", { quantity: "1.123456789" }, "quantity"],
      ["quantity NUL", { quantity: `10${NUL}` }, "quantity"],
      ["quantity boolean", { quantity: true }, "quantity"],
      ["quantity array", { quantity: [10] }, "quantity"],
      ["price negative", { price: -1 }, "price"],
      ["price missing", { price: undefined }, "price"],
      ["price NaN text", { price: "NaN" }, "price"],
      ["price Infinity text", { price: "Infinity" }, "price"],
      ["date not a day", { date: "2025-02-30" }, "date"],
      ["date shape", { date: "01/03/2025" }, "date"],
      ["date NUL", { date: `2025-03-01${NUL}` }, "date"],
      ["date number", { date: 20250301 }, "date"],
      ["brokerage negative", { brokerage: -1 }, "brokerage"],
      ["brokerage huge", { brokerage: 1e16 }, "brokerage"],
      ["exchangeRate zero", { exchangeRate: 0 }, "exchangeRate"],
      ["exchangeRate negative", { exchangeRate: -2 }, "exchangeRate"],
      ["method unknown", { method: "Bogus" }, "method"],
      ["method NUL", { method: `FIFO${NUL}` }, "method"],
      ["parcels empty", { parcels: [] }, "parcels"],
      ["parcels not a list", { parcels: { tradeId: s.buyId, quantity: 1 } }, "parcels"],
      ["parcel without quantity", { parcels: [{ tradeId: s.buyId }] }, "parcels[0].quantity"],
      ["parcel with a bad tradeId", { parcels: [{ tradeId: "x", quantity: 1 }] }, "parcels[0].tradeId"],
      ["parcel with an extra field", { parcels: [{ tradeId: s.buyId, quantity: 1, note: "x" }] }, "parcels[0].note"],
      ["an extra field", { portfolioId: s.p }, "portfolioId"],
      ["a NUL-named field", { [`a${NUL}b`]: 1 }, `a${NUL}b`],
    ];
    const before = await ledgerFingerprint(t.db);
    for (const [name, change, path] of cases) {
      const o = await rest.simulate(key, s.p, { ...ok, ...change });
      expect({ name, status: o.status, code: o.code }).toEqual({ name, status: 400, code: "VALIDATION_FAILED" });
      expect({ name, paths: (o.errors ?? []).map((e) => e.path) }).toEqual({
        name,
        paths: expect.arrayContaining([path]),
      });
    }
    for (const body of [[ok], "text", 42]) {
      const res = await t.http
        .post(`/v1/portfolios/${s.p}/simulate-sell`)
        .set("authorization", key)
        .set("content-type", "application/json")
        .send(JSON.stringify(body));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const broken = await t.http
      .post(`/v1/portfolios/${s.p}/simulate-sell`)
      .set("authorization", key)
      .set("content-type", "application/json")
      .send('{"holdingId": 1,');
    expect(broken.status).toBe(400);
    expect(broken.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell: refusals of the rules are 4xx, never 500 (parcels of another holding or account, more than held, before any buy)", async () => {
    const s = await basic();
    const other = await newTrade(t, key, {
      portfolioId: s.p,
      symbol: "BBB",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-05-02",
      quantity: 10,
      price: 1,
    });
    const stranger = await t.newAccount("stranger");
    const foreign = await basic(stranger);
    const before = await ledgerFingerprint(t.db);
    const ok = { holdingId: s.holdingId, quantity: 10, price: 15, date: "2025-03-01" };
    for (const [name, body] of [
      ["a parcel of another holding", { ...ok, parcels: [{ tradeId: other.id, quantity: 10 }] }],
      ["a parcel of another account", { ...ok, parcels: [{ tradeId: foreign.buyId, quantity: 10 }] }],
      ["a parcel that does not exist", { ...ok, parcels: [{ tradeId: 987654321, quantity: 10 }] }],
      ["a parcel for fewer units than the quantity", { ...ok, parcels: [{ tradeId: s.buyId, quantity: 5 }] }],
      ["a parcel for more units than it has", { ...ok, quantity: 60, parcels: [{ tradeId: s.buyId, quantity: 60 }] }],
      ["more than held", { ...ok, quantity: 51 }],
      ["before any buy", { ...ok, date: "2020-01-01" }],
    ] as const) {
      const o = await rest.simulate(key, s.p, body);
      expect({ name, ok: o.ok, status: o.status >= 400 && o.status < 500 }).toEqual({ name, ok: false, status: true });
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  // A zod union of number | digit-string reports only zod's generic "Invalid input" when both
  // members fail unless the union carries its own message (tax.schemas.ts gives it one).
  it("a malformed financialYear or includeCarriedForward is refused with a message saying what is expected, not zod's 'Invalid input'", async () => {
    const s = await basic();
    for (const fy of ["abc", "2025.0", " 2025"]) {
      const o = await rest.capitalGains(key, s.p, { financialYear: fy });
      expectInvalid(o, "financialYear");
      expect({ fy, message: o.errors![0].message }).toEqual({ fy, message: expect.stringMatching(/year/) });
    }
    const flag = await rest.unrealised(key, s.p, { date: "2025-03-01", includeCarriedForward: "yes" });
    expectInvalid(flag, "includeCarriedForward");
    expect(flag.errors![0].message).toMatch(/true|false/);
  });

  it("interest in a foreign cash account with no rate to convert it: a 422 naming the rate, not a 500", async () => {
    const s = await basic();
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId: s.p,
      name: "US savings",
      currencyCode: "USD",
    });
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "InterestPayment",
      date: "2024-12-31",
      amount: 5,
    });
    for (const o of [
      await rest.income(key, s.p, { financialYear: 2025 }),
      await rest.myTax(key, s.p, { financialYear: 2025 }),
    ]) {
      expectError(o, "BUSINESS_RULE");
      expect(o.message).toMatch(/USD/);
    }
  });

  it("GraphQL: variables of the wrong type are coded errors, never INTERNAL", async () => {
    const s = await basic();
    const codeOf = (o: Outcome<Json>) => (o.ok ? "ok" : o.code);
    for (const fy of ["2025", 2025.5, -1, 1985, 2201, 2 ** 31, true]) {
      for (const call of [gql.capitalGains, gql.income, gql.myTax]) {
        const o = await call(key, s.p, fy);
        expect({ fy, code: codeOf(o) }).toEqual({
          fy,
          code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
        });
        if (!o.ok && o.code === "VALIDATION_FAILED") expect(o.errors?.map((e) => e.path)).toContain("financialYear");
      }
    }
    for (const [d, cf] of [
      ["2025-02-30", undefined],
      [20250301, undefined],
      ["2025-03-01", "yes"],
      [`2025-03-01${NUL}`, undefined],
    ] as const) {
      const o = await gql.unrealised(key, s.p, d, cf);
      expect({ d, code: codeOf(o) }).toEqual({
        d,
        code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
      });
    }
    const ok = gqlSimInput({ holdingId: s.holdingId, quantity: "10", price: "15", date: "2025-03-01" });
    for (const [name, input, field] of [
      ["quantity negative", { ...ok, quantity: "-1" }, "quantity"],
      ["quantity not a decimal", { ...ok, quantity: "ten" }, "quantity"],
      ["price negative", { ...ok, price: "-15" }, "price"],
      ["date not a day", { ...ok, date: "2025-02-30" }, "date"],
      ["method unknown", { ...ok, method: "Bogus" }, "method"],
      ["holdingId not an id", { ...ok, holdingId: "abc" }, "holdingId"],
      ["extra field", { ...ok, portfolioId: String(s.p) }, "portfolioId"],
      ["parcels empty", { ...ok, parcels: [] }, "parcels"],
    ] as const) {
      const o = await gql.simulate(key, s.p, input);
      expect({ name, code: codeOf(o) }).toEqual({
        name,
        code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
      });
      if (!o.ok)
        expect({ name, names: `${o.message} ${JSON.stringify(o.errors ?? [])}`.includes(field) }).toEqual({
          name,
          names: true,
        });
    }
  });
});

// =============================================================================================
// 3. Tenancy
// =============================================================================================

describe("tenancy", () => {
  const SIX = [
    "capital-gains",
    "unrealised-capital-gains",
    "taxable-income",
    "ato-mytax",
    "ato-mytax/pdf",
    "simulate-sell",
  ] as const;
  const call = (k: string, p: number | string, op: (typeof SIX)[number], holdingId: number) =>
    op === "simulate-sell"
      ? t.http
          .post(`/v1/portfolios/${p}/simulate-sell`)
          .set("authorization", k)
          .send({ holdingId, quantity: 10, price: 15, date: "2025-03-01" })
      : t.http
          .get(`/v1/portfolios/${p}/reports/${op}`)
          .query(op === "unrealised-capital-gains" ? { date: "2025-03-01" } : { financialYear: 2025 })
          .set("authorization", k);
  /** The problem with the portfolio's id written as "<id>", to compare a foreign one with a missing one. */
  const masked = (text: string, id: number) =>
    JSON.stringify({ ...JSON.parse(text), requestId: undefined })
      .split(String(id))
      .join("<id>");

  it("another account's portfolio answers 404 on all six operations, with the body a missing id gets", async () => {
    const mine = await basic();
    const intruder = await t.newAccount("intruder");
    const theirs = await basic(intruder);
    const missing = 987654;
    const before = await ledgerFingerprint(t.db);
    for (const op of SIX) {
      const foreign = await call(intruder, mine.p, op, mine.holdingId);
      const absent = await call(intruder, missing, op, theirs.holdingId);
      expect({ op, status: foreign.status, type: foreign.headers["content-type"] }).toEqual({
        op,
        status: 404,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect({ op, body: masked(foreign.text, mine.p) }).toEqual({ op, body: masked(absent.text, missing) });
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("GraphQL: another account's portfolio is NOT_FOUND on all five fields", async () => {
    const mine = await basic();
    const intruder = await t.newAccount("intruder");
    expectError(await gql.capitalGains(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(await gql.unrealised(intruder, mine.p, "2025-03-01"), "NOT_FOUND");
    expectError(await gql.income(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(await gql.myTax(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(
      await gql.simulate(
        intruder,
        mine.p,
        gqlSimInput({ holdingId: mine.holdingId, quantity: "1", price: "1", date: "2025-03-01" }),
      ),
      "NOT_FOUND",
    );
  });

  it("simulate sell in my portfolio naming another account's holding: 404, the same body as a missing holding", async () => {
    const mine = await basic();
    const stranger = await t.newAccount("stranger");
    const theirs = await basic(stranger);
    const missing = 987654;
    const foreign = await t.http
      .post(`/v1/portfolios/${mine.p}/simulate-sell`)
      .set("authorization", key)
      .send({ holdingId: theirs.holdingId, quantity: 1, price: 1, date: "2025-03-01" });
    const absent = await t.http
      .post(`/v1/portfolios/${mine.p}/simulate-sell`)
      .set("authorization", key)
      .send({ holdingId: missing, quantity: 1, price: 1, date: "2025-03-01" });
    expect(foreign.status).toBe(404);
    expect(masked(foreign.text, theirs.holdingId)).toBe(masked(absent.text, missing));
    // A holding of my other portfolio is not this portfolio's either.
    const other = await basic();
    expect(
      (
        await t.http
          .post(`/v1/portfolios/${mine.p}/simulate-sell`)
          .set("authorization", key)
          .send({ holdingId: other.holdingId, quantity: 1, price: 1, date: "2025-03-01" })
      ).status,
    ).toBe(404);
  });

  it("a client key for another client's portfolio: 404 on all six; a Read client key: all six allowed, nothing written", async () => {
    const a = await basic();
    const b = await basic();
    const keyA = await t.newClientKey(key, "Read", [a.p]);
    for (const op of SIX) {
      const res = await call(keyA, b.p, op, b.holdingId);
      expect({ op, status: res.status }).toEqual({ op, status: 404 });
    }
    const before = await ledgerFingerprint(t.db);
    for (const op of SIX) {
      const res = await call(keyA, a.p, op, a.holdingId);
      expect({ op, status: res.status, text: res.status === 200 ? "" : res.text }).toEqual({
        op,
        status: 200,
        text: "",
      });
    }
    expect(
      expectOk(
        await gql.simulate(
          keyA,
          a.p,
          gqlSimInput({ holdingId: a.holdingId, quantity: "10", price: "15", date: "2025-03-01" }),
        ),
      ),
    ).toMatchObject({ quantity: "10" });
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });
});

// =============================================================================================
// 4. Consistency
// =============================================================================================

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
    expect(m.taxableIncome).toEqual(inc.totals);
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
