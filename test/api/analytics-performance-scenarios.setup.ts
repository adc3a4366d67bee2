/**
 * The setup and the rate checks of the analytics-performance-scenarios.*.test.ts stories (GET
 * /v1/portfolios/{p}/performance and GraphQL `performance`, docs/reports.md §2). Every figure in them is
 * derived by hand from docs/rules.md §10–11 in the comment above its assertion; every report is checked
 * against the identity totalReturnValue = totalValue − openingValue − netFlows = capital + dividend +
 * currency.
 *
 * Notation: V_d is the portfolio's value at the close of day d; T = to − from + 1 days; Modified
 * Dietz weighs an inflow on day d (to − d + 1)/T and an outflow (to − d)/T; the TWR chains
 * (V_d + Out_d) / (V_{d−1} + In_d), and is 0 for a day whose denominator is 0.
 *
 * Importing it registers no hook: a suite hands its app over, `performanceScenarioSetup(t, () => key)`.
 */
import { newTrade, postCreated } from "../factories";
import { type Json } from "../support/outcomes";
import { performanceTransports, type Report } from "./analytics.transports";
import type { TestApp } from "../support/app";

export const num = (v: unknown) => Number(v);

/** A rate that agrees with its exact value to 1e-9 relative (docs/reports.md §0). */
export function expectRate(actual: unknown, expected: number, relative = 1e-9) {
  expect(typeof actual === "number" || typeof actual === "string").toBe(true);
  expect(Math.abs(num(actual) - expected)).toBeLessThanOrEqual(Math.abs(expected) * relative + 1e-12);
}

export const twr = (r: Report) =>
  r.timeWeightedReturn as { cumulativePercent: string; annualisedPercent: string | null };
export const md = (r: Report) =>
  r.modifiedDietz as { cumulativePercent: string | null; annualisedPercent: string | null };
export const mwr = (r: Report) => (r.moneyWeightedReturn as { annualisedPercent: string | null }).annualisedPercent;
export const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
/** Σ Pᵢ / (1 + r)^((dᵢ − d₀)/365) at a percent rate: the XIRR of docs/rules.md §11.3, ≈ 0 at its root. */
export const npv = (percent: number, payments: [string, number][]) =>
  payments.reduce((s, [d, a]) => s + a / Math.pow(1 + percent / 100, (dayOf(d) - dayOf(payments[0][0])) / 365), 0);

/** The transports and the REST setup over the suite's app (read inside tests only). */
export function performanceScenarioSetup(t: TestApp, key: () => string) {
  const transports = performanceTransports(() => t);

  /** Setup over REST (never the transport under test), failing with the response when refused. */
  async function send(method: "put" | "post", path: string, body: unknown, status = 200, k = key()): Promise<Json> {
    const res = await t.http[method](path)
      .set("authorization", k)
      .send(body as object);
    if (res.status !== status)
      throw new Error(
        `setup ${method.toUpperCase()} ${path} failed: expected ${status}, got ${res.status} ${res.text}`,
      );
    return res.body as Json;
  }
  const marketPrices = (symbol: string, exchange: string, closes: [string, number][]) =>
    send(
      "post",
      "/v1/market-prices/bulk",
      closes.map(([date, close]) => ({ symbol, exchange, date, close })),
    );
  const usdAud = (rates: [string, number][]) =>
    send(
      "post",
      "/v1/fx-rates/bulk",
      rates.map(([date, rate]) => ({ base: "USD", quote: "AUD", date, rate })),
    );
  const buy = (
    portfolioId: number,
    symbol: string,
    exchange: string,
    tradeDate: string,
    quantity: number,
    price: number,
    extra: Json = {},
  ) => newTrade(t, key(), { portfolioId, symbol, exchange, tradeType: "Buy", tradeDate, quantity, price, ...extra });
  const sell = (
    portfolioId: number,
    symbol: string,
    exchange: string,
    tradeDate: string,
    quantity: number,
    price: number,
    extra: Json = {},
  ) => newTrade(t, key(), { portfolioId, symbol, exchange, tradeType: "Sell", tradeDate, quantity, price, ...extra });
  const income = (holdingId: number, exDividendDate: string, paidDate: string, netAmount: number) =>
    postCreated(t, key(), "/v1/income", { holdingId, exDividendDate, paidDate, netAmount });
  return { transports, send, marketPrices, usdAud, buy, sell, income };
}
