/**
 * The six tax operations (capital gains, unrealised, taxable income, myTax, its PDF, simulate sell)
 * over REST and GraphQL in one canonical form, and the REST setup the tax-hostile.*.test.ts stories
 * share. Importing it registers no hook: a suite hands its app over, `taxReportsApi(t, () => key)`.
 */
import { newPortfolio, newTrade, postCreated } from "../factories";
import { canonicalAnswer, gqlOutcome, restCall, type Json } from "../support/outcomes";
import type { TestApp } from "../support/app";

// ---------------------------------------------------------------------------------------------
// Transports
// ---------------------------------------------------------------------------------------------

export const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm
  carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
export const DISPOSAL = `holdingId symbol exchange eventType saleTradeId acquisitionTradeId acquisitionDate disposalDate quantity costBase proceeds capitalGain isDiscountable method`;
export const PARCEL = `acquisitionTradeId acquisitionDate quantity costBase proceeds capitalGain isDiscountable`;
export const CG_GQL = `query($p: ID!, $fy: Int) { capitalGainsReport(portfolioId: $p, financialYear: $fy) {
  portfolioId financialYear from to entityType discountPercent summary { ${SUMMARY} } disposals { ${DISPOSAL} } unconfirmedIncome { count grossAmount } } }`;
export const UNREALISED_GQL = `query($p: ID!, $d: Date, $cf: Boolean) { unrealisedCapitalGainsReport(portfolioId: $p, date: $d, includeCarriedForward: $cf) {
  portfolioId date financialYear entityType discountPercent summary { ${SUMMARY} }
  holdings { holdingId symbol exchange quantity marketValue costBase unrealisedGain shortTermGain longTermGain capitalLoss nextDiscountDate parcels { ${PARCEL} disposalDate } } unpricedHoldings { holdingId symbol exchange quantity costBase } } }`;
export const INCOME_GQL = `query($p: ID!, $fy: Int) { taxableIncomeReport(portfolioId: $p, financialYear: $fy) {
  portfolioId financialYear from to rows { incomeId holdingId symbol exchange exDividendDate paidDate labels }
  holdings { holdingId symbol exchange labels } interest { cashAccountId name labels } totals unconfirmedIncome { count grossAmount } } }`;
export const MYTAX_GQL = `query($p: ID!, $fy: Int) { myTaxReport(portfolioId: $p, financialYear: $fy) {
  portfolioId portfolioName financialYear entityType labels { label section description amount } capitalGains { ${SUMMARY} } taxableIncome unconfirmedIncome { count grossAmount } } }`;
export const SIMULATE_GQL = `query($p: ID!, $input: SimulateSellInput!) { simulateSell(portfolioId: $p, input: $input) {
  holdingId symbol date quantity method proceeds costBase capitalGain shortTermGain longTermGain capitalLoss discount assessableCapitalGain
  parcels { ${PARCEL} } yearToDate { financialYear netCapitalGainBefore netCapitalGainAfter } } }`;

export const canon = (b: unknown) => canonicalAnswer(b) as Json;

export const gqlSimInput = (input: Json) => ({
  ...input,
  holdingId: input.holdingId === undefined ? undefined : String(input.holdingId),
  parcels: (input.parcels as Json[] | undefined)?.map((x) => ({ ...x, tradeId: String(x.tradeId) })),
});

export const summaryOf = (over: Json): Json => ({
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

/** The operations and the setup over the suite's app (read inside tests only). */
export function taxReportsApi(t: TestApp, key: () => string) {
  const rest = {
    capitalGains: (k: string, p: number | string, query: Json = {}) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/reports/capital-gains`).query(query).set("authorization", k),
        200,
        canon,
      ),
    unrealised: (k: string, p: number | string, query: Json = {}) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/reports/unrealised-capital-gains`).query(query).set("authorization", k),
        200,
        canon,
      ),
    income: (k: string, p: number | string, query: Json = {}) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/reports/taxable-income`).query(query).set("authorization", k),
        200,
        canon,
      ),
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
  // Setup (REST)
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
    newTrade(t, key(), {
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
    const res = await t.http.put(`/v1/portfolios/${p}/tax-settings`).set("authorization", key()).send(body);
    if (res.status !== 200) throw new Error(`tax settings: ${res.status} ${res.text}`);
  };

  const confirmedIncome = async (body: Json) => {
    const income = await postCreated<{ id: number }>(t, key(), "/v1/income", body);
    const res = await t.http.put(`/v1/income/${income.id}/confirm`).set("authorization", key());
    if (res.status !== 200) throw new Error(`confirm: ${res.status} ${res.text}`);
    return income.id;
  };

  /** A portfolio with one holding and a sale, so every report has something to say. */
  async function basic(k = key()) {
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
  return { rest, gql, trade, taxSettings, confirmedIncome, basic };
}
