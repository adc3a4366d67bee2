import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../support/kit";
import { expectError, expectOk, type Json } from "../support/outcomes";
import { expectComponentsAddUp, expectIdentity, performanceTransports, type Report } from "./analytics.shared";

/**
 * GET /v1/portfolios/{p}/performance and GraphQL `performance` (REPORTS.md §2) on the stories the
 * worked example does not tell: a full exit and re-entry, a day trade, a foreign holding with its
 * currency gain, income accrued from its ex-date, flows with and without a cash account, every
 * groupBy, includeClosed, and tenancy. Every figure is derived by hand from DOMAIN.md §3 in the
 * comment above its assertion; every report is checked against the identity
 * totalReturnValue = totalValue − openingValue − netFlows = capital + dividend + currency.
 *
 * Notation: V_d is the portfolio's value at the close of day d; T = to − from + 1 days; Modified
 * Dietz weighs an inflow on day d (to − d + 1)/T and an outflow (to − d)/T; the TWR chains
 * (V_d + Out_d) / (V_{d−1} + In_d), and is 0 for a day whose denominator is 0.
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

const transports = performanceTransports(() => t);
const num = (v: unknown) => Number(v);

/** A rate that agrees with its exact value to 1e-9 relative (REPORTS.md §0 rates). */
function expectRate(actual: unknown, expected: number, relative = 1e-9) {
  expect(typeof actual === "number" || typeof actual === "string").toBe(true);
  expect(Math.abs(num(actual) - expected)).toBeLessThanOrEqual(Math.abs(expected) * relative + 1e-12);
}

const twr = (r: Report) => r.timeWeightedReturn as { cumulativePercent: string; annualisedPercent: string | null };
const md = (r: Report) => r.modifiedDietz as { cumulativePercent: string | null; annualisedPercent: string | null };
const mwr = (r: Report) => (r.moneyWeightedReturn as { annualisedPercent: string | null }).annualisedPercent;
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
/** Σ Pᵢ / (1 + r)^((dᵢ − d₀)/365) at a percent rate: the XIRR equation of DOMAIN §3, ≈ 0 at its root. */
const npv = (percent: number, payments: [string, number][]) =>
  payments.reduce((s, [d, a]) => s + a / Math.pow(1 + percent / 100, (dayOf(d) - dayOf(payments[0][0])) / 365), 0);

/** Setup over REST (never the transport under test), failing with the response when refused. */
async function send(method: "put" | "post", path: string, body: unknown, status = 200, k = key): Promise<Json> {
  const res = await t.http[method](path)
    .set("authorization", k)
    .send(body as object);
  if (res.status !== status)
    throw new Error(`setup ${method.toUpperCase()} ${path} failed: expected ${status}, got ${res.status} ${res.text}`);
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
) => newTrade(t, key, { portfolioId, symbol, exchange, tradeType: "Buy", tradeDate, quantity, price, ...extra });
const sell = (
  portfolioId: number,
  symbol: string,
  exchange: string,
  tradeDate: string,
  quantity: number,
  price: number,
  extra: Json = {},
) => newTrade(t, key, { portfolioId, symbol, exchange, tradeType: "Sell", tradeDate, quantity, price, ...extra });
const income = (holdingId: number, exDividendDate: string, paidDate: string, netAmount: number) =>
  postCreated(t, key, "/v1/income", { holdingId, exDividendDate, paidDate, netAmount });

describe.each(transports)("performance scenarios over $name", (tr) => {
  it("a full exit and re-entry: the days with nothing held earn 0 and the TWR chain carries on", async () => {
    const p = await newPortfolio(t, key, { name: "In and out" });
    await marketPrices("CBA", "ASX", [
      ["2024-01-01", 10.5],
      ["2024-01-02", 10.8],
      ["2024-01-03", 11.2], // the sale day: nothing is held at its close, so this close never counts
      ["2024-01-06", 12.4],
      ["2024-01-08", 13],
    ]);
    await buy(p, "CBA", "ASX", "2024-01-01", 100, 10);
    await sell(p, "CBA", "ASX", "2024-01-03", 100, 11);
    await buy(p, "CBA", "ASX", "2024-01-06", 50, 12);

    // 2024-01-01..2024-01-10, T = 10, no cash account: the trades are the flows.
    //   V: 01-01 100 × 10.5 = 1,050; 01-02 1,080; 01-03..01-05 0; 01-06 50 × 12.4 = 620; 01-07 620;
    //   01-08..01-10 50 × 13 = 650. Flows: +1,000 (01-01), −1,100 (01-03), +600 (01-06).
    //   BMV 0, EMV 650, net flows 1,000 − 1,100 + 600 = 500, total 650 − 0 − 500 = 150, all capital
    //   (the first round trip made 100, the second 50).
    const r = expectOk(await tr.performance(key, p, { from: "2024-01-01", to: "2024-01-10" }));
    expect(r).toMatchObject({ hasHoldings: true, openingValue: "0", totalValue: "650", netFlows: "500" });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "150",
      capitalGainValue: "150",
      dividendReturnValue: "0",
      currencyGainValue: "0",
      isAnnualized: false,
    });
    // TWR: 1,050/(0 + 1,000) × 1,080/1,050 × (0 + 1,100)/1,080 × 1 × 1 (01-04, 01-05: denominator 0)
    //   × 620/(0 + 600) × 620/620 × 650/620 × 1 × 1 = 1,100/1,000 × 650/600 = 1.1916666… → 19.1666… %.
    expectRate(twr(r).cumulativePercent, (1.1 * (650 / 600) - 1) * 100);
    expect(twr(r).annualisedPercent).toBeNull();
    // Modified Dietz: denominator 0 + 1,000 × 10/10 − 1,100 × 7/10 + 600 × 5/10 = 530; 150/530 = 28.3018… %
    // (cumulative: T < 365), the denominator every totalReturn percent shares.
    expectRate(md(r).cumulativePercent, (150 / 530) * 100);
    expect(md(r).annualisedPercent).toBeNull();
    expectRate(r.totalReturn.totalReturnPercent, (150 / 530) * 100);
    expectRate(r.totalReturn.capitalGainPercent, (150 / 530) * 100);
    // XIRR: −1,000 (01-01), +1,100 (01-03), −600 (01-06), +650 (01-10) (the zero opening value drops
    // out); the root of the equation, found by bisection: 248,508.055017736 (a 150 gain in ten days).
    const payments: [string, number][] = [
      ["2024-01-01", -1000],
      ["2024-01-03", 1100],
      ["2024-01-06", -600],
      ["2024-01-10", 650],
    ];
    expectRate(mwr(r), 24_850_805.501773587, 1e-7);
    expect(Math.abs(npv(num(mwr(r)), payments))).toBeLessThan(1e-6);
    expect(r.holdings).toHaveLength(1);
    expect(r.holdings[0]).toMatchObject({
      symbol: "CBA",
      quantity: "50",
      currentPrice: "13",
      marketValue: "650",
      holdingWeight: "100",
      groupedByValue: "CBA.ASX",
    });
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expectIdentity(r);

    // Opening on an empty portfolio (the close of 01-03 holds nothing): 2024-01-04..2024-01-10, T = 7.
    //   BMV 0, flows +600, EMV 650: total 50. TWR 1 × 1 × 620/600 × 1 × 650/620 × 1 × 1 = 650/600 → 8.3333… %.
    //   Dietz: 600 × (7 − 3 + 1)/7 = 428.571…; 50 / 428.571… = 11.6666… %.
    const reentry = expectOk(await tr.performance(key, p, { from: "2024-01-04", to: "2024-01-10" }));
    expect(reentry).toMatchObject({ openingValue: "0", totalValue: "650", netFlows: "600" });
    expect(reentry.totalReturn).toMatchObject({ totalReturnValue: "50", capitalGainValue: "50" });
    expectRate(twr(reentry).cumulativePercent, (650 / 600 - 1) * 100);
    expectRate(md(reentry).cumulativePercent, (50 / ((600 * 5) / 7)) * 100);
    expectIdentity(reentry);

    // Closing on an empty portfolio: 2024-01-02..2024-01-05, T = 4. BMV 1,050 (the close of 01-01),
    //   flow −1,100 on 01-03, EMV 0: total 0 − 1,050 + 1,100 = 50. TWR 1,080/1,050 × 1,100/1,080 × 1 × 1
    //   = 1,100/1,050 → 4.7619… %. Dietz: 1,050 − 1,100 × (4 − 2)/4 = 500; 50/500 = 10 %.
    const exit = expectOk(await tr.performance(key, p, { from: "2024-01-02", to: "2024-01-05" }));
    expect(exit).toMatchObject({ openingValue: "1050", totalValue: "0", netFlows: "-1100" });
    expect(exit.totalReturn).toMatchObject({ totalReturnValue: "50", capitalGainValue: "50" });
    expectRate(twr(exit).cumulativePercent, (1100 / 1050 - 1) * 100);
    expectRate(md(exit).cumulativePercent, 10);
    expect(exit.holdings[0]).toMatchObject({ quantity: "0", marketValue: "0" });
    expectIdentity(exit);
  });

  it("a day trade: flows in and out on one day that opens and closes with no value still earn their gain", async () => {
    // DOMAIN §3: inflows happen at the start of their day, outflows at its end. A buy and a sale of
    // the same units on one day leave V_{d−1} = V_d = 0, yet the day's return is
    // (V_d + Out_d)/(V_{d−1} + In_d) − 1 = proceeds/cost − 1, not 0 and not a division by zero; the
    // days around it have a zero denominator and earn nothing.
    const p = await newPortfolio(t, key, { name: "Day trade" });
    await buy(p, "BHP", "ASX", "2024-03-03", 200, 5, { brokerage: 10 });
    await sell(p, "BHP", "ASX", "2024-03-03", 200, 5.5, { brokerage: 10 });

    // 2024-03-01..2024-03-05, T = 5. Buy in 200 × 5 + 10 = 1,010; sale out 200 × 5.5 − 10 = 1,090.
    //   BMV 0, EMV 0, net flows 1,010 − 1,090 = −80, total 0 − 0 + 80 = 80, capital.
    const r = expectOk(await tr.performance(key, p, { from: "2024-03-01", to: "2024-03-05" }));
    expect(r).toMatchObject({ hasHoldings: true, openingValue: "0", totalValue: "0", netFlows: "-80" });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "80",
      capitalGainValue: "80",
      dividendReturnValue: "0",
      currencyGainValue: "0",
    });
    // TWR: 03-03 (0 + 1,090)/(0 + 1,010) − 1 = 7.9207920792 %; the other four days 0.
    expectRate(twr(r).cumulativePercent, (1090 / 1010 - 1) * 100);
    // Dietz: 1,010 × (5 − 3 + 1)/5 − 1,090 × (5 − 3)/5 = 606 − 436 = 170; 80/170 = 47.0588235294 %.
    expectRate(md(r).cumulativePercent, (80 / 170) * 100);
    expectRate(r.totalReturn.totalReturnPercent, (80 / 170) * 100);
    // XIRR: −1,010 and +1,090 on the same day (BMV and EMV 0): the sum is 80 at every rate, no sign
    // change, so null, never a wrong number.
    expect(mwr(r)).toBeNull();
    // The last trade's price is the holding's price (no market price); nothing is held.
    expect(r.holdings).toEqual([
      expect.objectContaining({
        symbol: "BHP",
        quantity: "0",
        currentPrice: "5.5",
        marketValue: "0",
        holdingWeight: "0",
      }),
    ]);
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expectIdentity(r);
  });

  describe("a USD holding in an AUD portfolio", () => {
    /**
     * USD/AUD imported: 2023-12-29 1.50, 2024-01-10 1.55, 2024-01-20 1.60, 2024-01-22 1.65,
     * 2024-01-31 1.45. AAPL (NASDAQ, USD) closes: 2023-12-29 100, 2023-12-31 105, 2024-01-15 110,
     * 2024-01-31 120. Buy 10 @ 100 on 2023-12-29 (rate 1.50), buy 10 @ 108 on 2024-01-12 (rate
     * 1.55; valued at the market's 105 that day: the market price wins over the trade's), a
     * dividend of 20 USD net, ex 2024-01-20 (rate 1.60), paid 2024-01-25 (rate 1.65). No cash
     * account: the trades and the paid dividend are the flows.
     */
    async function usdPortfolio() {
      const p = await newPortfolio(t, key, { name: "US shares" });
      await usdAud([
        ["2023-12-29", 1.5],
        ["2024-01-10", 1.55],
        ["2024-01-20", 1.6],
        ["2024-01-22", 1.65],
        ["2024-01-31", 1.45],
      ]);
      await marketPrices("AAPL", "NASDAQ", [
        ["2023-12-29", 100],
        ["2023-12-31", 105],
        ["2024-01-15", 110],
        ["2024-01-31", 120],
      ]);
      const { holdingId } = await buy(p, "AAPL", "NASDAQ", "2023-12-29", 10, 100);
      await buy(p, "AAPL", "NASDAQ", "2024-01-12", 10, 108);
      await income(holdingId, "2024-01-20", "2024-01-25", 20);
      return p;
    }
    const period = { from: "2024-01-01", to: "2024-01-31" };
    // 2024-01-01..2024-01-31, T = 31; the Dietz weights: the buy (01-12) 20/31, the dividend paid (01-25) 6/31.

    it("capital at the closing rate, dividend at its ex-date rate, currency the rest", async () => {
      const p = await usdPortfolio();
      // BMV (2023-12-31): 10 × 105 × 1.50 = 1,575 AUD (1,050 USD). EMV (01-31): 20 × 120 × 1.45 =
      //   3,480 AUD (2,400 USD); nothing receivable (paid 01-25).
      // Flows: buy 1,080 USD × 1.55 = 1,674 in; dividend 20 USD × 1.65 = 33 out: net 1,641.
      // Total 3,480 − 1,575 − 1,641 = 264.
      // Dividend: 20 USD at its ex-date rate 1.60 = 32.
      // Capital: (2,400 − 1,050 − (1,080 − 20) − 20) = 270 USD at the closing rate 1.45 = 391.50.
      // Currency: 264 − 391.50 − 32 = −159.50 (the opening 1,050 USD lost 0.05 = −52.50, the buy's
      //   1,080 USD lost 0.10 = −108, the dividend paid at 1.65 against its 1.60 at ex-date +1).
      const r = expectOk(await tr.performance(key, p, period));
      expect(r).toMatchObject({ baseCurrencyCode: "AUD", openingValue: "1575", totalValue: "3480", netFlows: "1641" });
      expect(r.totalReturn).toMatchObject({
        totalReturnValue: "264",
        capitalGainValue: "391.5",
        dividendReturnValue: "32",
        currencyGainValue: "-159.5",
        isAnnualized: false,
      });
      // Dietz denominator: 1,575 + 1,674 × 20/31 − 33 × 6/31 = 1,575 + 33,282/31 = 2,648.6129…
      const D = 1575 + 33282 / 31;
      expectRate(r.totalReturn.totalReturnPercent, (264 / D) * 100); // 9.9674814571 %
      expectRate(r.totalReturn.capitalGainPercent, (391.5 / D) * 100); // 14.7813219336 %
      expectRate(r.totalReturn.dividendReturnPercent, (32 / D) * 100); // 1.2081795706 %
      expectRate(r.totalReturn.currencyGainPercent, (-159.5 / D) * 100); // −6.0220200470 %
      expectRate(md(r).cumulativePercent, (264 / D) * 100);
      // TWR, the day's price × the day's rate (+ the receivable from 01-20 to 01-24):
      //   V 12-31 1,575; 01-11 10 × 105 × 1.55 = 1,627.50; 01-12 (in 1,674) 20 × 105 × 1.55 = 3,255;
      //   01-24 20 × 110 × 1.65 + 20 × 1.65 = 3,663; 01-25 (out 33) 3,630; 01-31 3,480. Between flows
      //   the daily ratios telescope: 1,627.5/1,575 × 3,255/(1,627.5 + 1,674) × 3,663/3,255
      //   × (3,630 + 33)/3,663 × 3,480/3,630 − 1 = 9.9103713188 %.
      expectRate(
        twr(r).cumulativePercent,
        ((1627.5 / 1575) * (3255 / 3301.5) * (3663 / 3255) * (3663 / 3663) * (3480 / 3630) - 1) * 100,
      );
      // XIRR: −1,575 (12-31), −1,674 (01-12), +33 (01-25), +3,480 (01-31); root 2.1550752653 (bisection).
      expectRate(mwr(r), 215.50752652943928, 1e-7);
      expect(
        Math.abs(
          npv(num(mwr(r)), [
            ["2023-12-31", -1575],
            ["2024-01-12", -1674],
            ["2024-01-25", 33],
            ["2024-01-31", 3480],
          ]),
        ),
      ).toBeLessThan(1e-6);
      expect(r.holdings).toHaveLength(1);
      expect(r.holdings[0]).toMatchObject({
        symbol: "AAPL",
        exchange: "NASDAQ",
        currencyCode: "USD",
        quantity: "20",
        currentPrice: "120",
        marketValue: "3480",
        holdingWeight: "100",
      });
      expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
      expectIdentity(r);
    });

    it("showLocalCurrency=true: the holding in USD with no currency gain; the portfolio's totals still AUD", async () => {
      const p = await usdPortfolio();
      const base = expectOk(await tr.performance(key, p, period));
      const r = expectOk(await tr.performance(key, p, { ...period, showLocalCurrency: true }));
      // The portfolio's figures do not move.
      expect(r).toMatchObject({ baseCurrencyCode: "AUD", openingValue: "1575", totalValue: "3480", netFlows: "1641" });
      expect(r.totalReturn).toEqual(base.totalReturn);
      expect([r.timeWeightedReturn, r.moneyWeightedReturn, r.modifiedDietz]).toEqual([
        base.timeWeightedReturn,
        base.moneyWeightedReturn,
        base.modifiedDietz,
      ]);
      // The holding in USD: market value 20 × 120 = 2,400; total 2,400 − 1,050 − (1,080 − 20) = 290;
      //   dividend 20; capital 290 − 20 = 270; currency 0. Its weight is still of the AUD total (100 %).
      // Dietz in USD: 1,050 + 1,080 × 20/31 − 20 × 6/31 = 1,050 + 21,480/31 = 1,742.9032…
      const h = r.holdings[0];
      expect(h).toMatchObject({
        currencyCode: "USD",
        quantity: "20",
        currentPrice: "120",
        marketValue: "2400",
        holdingWeight: "100",
      });
      expect(h.totalReturn).toMatchObject({
        totalReturnValue: "290",
        capitalGainValue: "270",
        dividendReturnValue: "20",
        currencyGainValue: "0",
      });
      const L = 1050 + 21480 / 31;
      expectRate(h.totalReturn.totalReturnPercent, (290 / L) * 100); // 16.6389043124 %
      expectRate(h.totalReturn.capitalGainPercent, (270 / L) * 100); // 15.4913936702 %
      expectRate(h.totalReturn.dividendReturnPercent, (20 / L) * 100); // 1.1475106422 %
      expect(num(h.totalReturn.currencyGainPercent)).toBe(0);
      expectComponentsAddUp(h.totalReturn);
      expectIdentity(r);
    });
  });

  it("income counts from its ex-date: receivable at `to` in totalValue and dividend return; paid in the period after an earlier ex-date, in openingValue only", async () => {
    const p = await newPortfolio(t, key, { name: "Income" });
    const { holdingId } = await buy(p, "CBA", "ASX", "2024-02-01", 100, 100); // valued at its trade price, 10,000 throughout
    await income(holdingId, "2024-02-20", "2024-03-10", 150); // A: ex before from, paid inside
    await income(holdingId, "2024-03-20", "2024-04-15", 200); // B: ex inside, paid after to

    // 2024-03-01..2024-03-31, T = 31. BMV (02-29): 10,000 + A receivable 150 = 10,150.
    //   A paid 03-10: out 150 (no cash account). EMV (03-31): 10,000 + B receivable 200 = 10,200.
    //   Net flows −150; total 10,200 − 10,150 + 150 = 200. Dividend: B (ex-date in the period) 200;
    //   A's ex-date is before from: not a return of this period. Capital 200 − 200 = 0.
    const r = expectOk(await tr.performance(key, p, { from: "2024-03-01", to: "2024-03-31" }));
    expect(r).toMatchObject({ openingValue: "10150", totalValue: "10200", netFlows: "-150" });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "200",
      capitalGainValue: "0",
      dividendReturnValue: "200",
      currencyGainValue: "0",
    });
    // Dietz: 10,150 − 150 × 21/31 = 10,048.387…; 200 / 10,048.387… = 1.9903691814 %, all dividend.
    const D = 10150 - (150 * 21) / 31;
    expectRate(r.totalReturn.totalReturnPercent, (200 / D) * 100);
    expectRate(r.totalReturn.dividendReturnPercent, (200 / D) * 100);
    // TWR: 10,150 flat; 03-10 (10,000 + 150)/10,150 = 1; 10,000 flat; 03-20 10,200/10,000 → 2 %.
    expectRate(twr(r).cumulativePercent, 2);
    expect(r.holdings[0]).toMatchObject({ marketValue: "10000", quantity: "100" });
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expectIdentity(r);

    // Past B's paid date (to 2024-04-30): B is paid out (−200) instead of receivable; the return is the same.
    //   BMV 10,150, EMV 10,000, flows −150 − 200 = −350: total 10,000 − 10,150 + 350 = 200, dividend 200.
    const later = expectOk(await tr.performance(key, p, { from: "2024-03-01", to: "2024-04-30" }));
    expect(later).toMatchObject({ openingValue: "10150", totalValue: "10000", netFlows: "-350" });
    expect(later.totalReturn).toMatchObject({
      totalReturnValue: "200",
      capitalGainValue: "0",
      dividendReturnValue: "200",
    });
    expectIdentity(later);
  });

  it("no cash account (the trades are the flows) against a synced cash account with a deposit (the deposit is the flow): same capital gain", async () => {
    await marketPrices("BHP", "ASX", [
      ["2024-05-02", 40],
      ["2024-05-10", 45],
    ]);
    const bare = await newPortfolio(t, key, { name: "No cash" });
    await buy(bare, "BHP", "ASX", "2024-05-02", 100, 40, { brokerage: 10 });
    const withCash = await newPortfolio(t, key, { name: "With cash" });
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId: withCash,
      name: "Cash",
      currencyCode: "AUD",
      syncTrades: true,
      settlementDays: 0,
    });
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "Deposit",
      date: "2024-05-01",
      amount: 5000,
    });
    await buy(withCash, "BHP", "ASX", "2024-05-02", 100, 40, { brokerage: 10 });
    const period = { from: "2024-05-01", to: "2024-05-10" }; // T = 10

    // No cash: flow in 100 × 40 + 10 = 4,010 on 05-02; EMV 100 × 45 = 4,500; total 490, capital.
    //   Dietz 4,010 × 9/10 = 3,609; 490/3,609 = 13.5771681906 %. TWR 4,000/(0 + 4,010) × 4,500/4,000 − 1 = 12.2194513716 %.
    const a = expectOk(await tr.performance(key, bare, period));
    expect(a).toMatchObject({ openingValue: "0", totalValue: "4500", netFlows: "4010" });
    expect(a.totalReturn).toMatchObject({
      totalReturnValue: "490",
      capitalGainValue: "490",
      dividendReturnValue: "0",
      currencyGainValue: "0",
    });
    expectRate(a.totalReturn.totalReturnPercent, (490 / 3609) * 100);
    expectRate(twr(a).cumulativePercent, (4500 / 4010 - 1) * 100);
    expectIdentity(a);

    // Synced cash: the deposit 5,000 on 05-01 is the only flow; the buy moves 4,010 out of the account
    //   on its trade date. EMV 4,500 + 990 = 5,490; total 5,490 − 5,000 = 490: the holding's 490
    //   capital, the account's 990 − 0 − (5,000 − 4,010) = 0. Dietz 5,000 × 10/10: 490/5,000 = 9.8 %.
    //   TWR 5,000/5,000 × 4,990/5,000 × 5,490/4,990 − 1 = 9.8 %.
    const b = expectOk(await tr.performance(key, withCash, period));
    expect(b).toMatchObject({ openingValue: "0", totalValue: "5490", netFlows: "5000" });
    expect(b.totalReturn).toMatchObject({
      totalReturnValue: "490",
      capitalGainValue: "490",
      dividendReturnValue: "0",
      currencyGainValue: "0",
    });
    expectRate(b.totalReturn.totalReturnPercent, 9.8);
    expectRate(twr(b).cumulativePercent, 9.8);
    expectIdentity(b);

    // The holding's own figures do not depend on where its cash came from; only its weight does
    // (4,500 of 4,500 against 4,500 of 5,490).
    const { holdingWeight: wa, ...ha } = a.holdings[0];
    const { holdingWeight: wb, ...hb } = b.holdings[0];
    expect({ ...ha, id: 0 }).toEqual({ ...hb, id: 0 });
    expect(ha.totalReturn).toMatchObject({ totalReturnValue: "490", capitalGainValue: "490" });
    expectRate(ha.totalReturn.totalReturnPercent, (490 / 3609) * 100);
    expect(num(wa)).toBe(100);
    expectRate(wb, (4500 / 5490) * 100);
  });

  describe("groupBy", () => {
    /**
     * 2024-06-01..2024-06-30 (T = 30). An unsynced AUD cash account: deposit 1,000 on 06-01, interest
     * 5 on 06-30 (closing 1,005; return 5, dividend). On 06-03 buys (flows, nothing synced):
     *   CBA (ASX, AUD, Stock; Financials / Banks): 10 @ 100 = 1,000 → 10 × 110 = 1,100: +100
     *   VAS (ASX, AUD, Etf; no sector or industry): 20 @ 50 = 1,000 → 20 × 48 = 960: −40
     *   AAPL (NASDAQ, USD, Stock; Information Technology / Technology Hardware): 10 @ 200 USD at
     *     1.5 = 3,000 → 10 × 210 × 1.5 = 3,150: +150 (the rate does not move: no currency gain)
     * totalValue 1,100 + 960 + 3,150 + 1,005 = 6,215; net flows 1,000 + 1,000 + 1,000 + 3,000 = 6,000;
     * total 215 = 100 − 40 + 150 + 5.
     */
    async function classified() {
      const p = await newPortfolio(t, key, { name: "Grouped" });
      await usdAud([["2024-06-01", 1.5]]);
      await marketPrices("CBA", "ASX", [["2024-06-30", 110]]);
      await marketPrices("VAS", "ASX", [["2024-06-30", 48]]);
      await marketPrices("AAPL", "NASDAQ", [["2024-06-30", 210]]);
      const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
        portfolioId: p,
        name: "Cash",
        currencyCode: "AUD",
        syncTrades: false,
      });
      await postCreated(t, key, "/v1/cash-transactions", {
        cashAccountId: cash.id,
        type: "Deposit",
        date: "2024-06-01",
        amount: 1000,
      });
      await postCreated(t, key, "/v1/cash-transactions", {
        cashAccountId: cash.id,
        type: "InterestPayment",
        date: "2024-06-30",
        amount: 5,
      });
      const cba = (await buy(p, "CBA", "ASX", "2024-06-03", 10, 100)).holdingId;
      const vas = (await buy(p, "VAS", "ASX", "2024-06-03", 20, 50)).holdingId;
      const aapl = (await buy(p, "AAPL", "NASDAQ", "2024-06-03", 10, 200)).holdingId;
      await send("put", `/v1/holdings/${cba}`, { classification: { sector: "Financials", industry: "Banks" } });
      await send("put", `/v1/holdings/${aapl}`, {
        classification: { sector: "Information Technology", industry: "Technology Hardware" },
      });
      return { p, cba, vas, aapl };
    }
    const period = { from: "2024-06-01", to: "2024-06-30" };
    const rows = (r: Report) => r.groups!.map((g) => [g.label, g.marketValue, g.totalReturn.totalReturnValue]);
    /** The groups' returns add up to the portfolio's, their weights are their share of totalValue, each adds up itself. */
    function expectGroupsAddUp(r: Report) {
      const sum = r.groups!.reduce((s, g) => s + num(g.totalReturn.totalReturnValue), 0);
      expect(sum).toBeCloseTo(num(r.totalReturn.totalReturnValue), 8);
      expect(sum).toBeCloseTo(215, 8);
      for (const g of r.groups!) {
        expectRate(g.weight, (num(g.marketValue) / 6215) * 100);
        expectComponentsAddUp(g.totalReturn);
      }
      expect(r.groups!.reduce((s, g) => s + num(g.weight), 0)).toBeCloseTo(100, 9);
      expect(r).toMatchObject({ openingValue: "0", totalValue: "6215", netFlows: "6000" });
      expect(r.totalReturn).toMatchObject({
        totalReturnValue: "215",
        capitalGainValue: "210",
        dividendReturnValue: "5",
        currencyGainValue: "0",
      });
      expectIdentity(r);
    }
    const grouped = (r: Report) => Object.fromEntries(r.holdings.map((h) => [h.symbol, h.groupedByValue]));

    it("sector and industry: a holding without one is Unclassified, the cash account is Cash; groups sorted by label", async () => {
      const { p } = await classified();
      const bySector = expectOk(await tr.performance(key, p, { ...period, groupBy: "sector" }));
      expect(grouped(bySector)).toEqual({ CBA: "Financials", VAS: "Unclassified", AAPL: "Information Technology" });
      expect(rows(bySector)).toEqual([
        ["Cash", "1005", "5"],
        ["Financials", "1100", "100"],
        ["Information Technology", "3150", "150"],
        ["Unclassified", "960", "-40"],
      ]);
      // Financials: 1,000 in on 06-03 weighs 28/30: 100 / 933.33… = 10.7142857143 %, capital.
      // Cash: 1,000 in on 06-01 weighs 30/30: 5 / 1,000 = 0.5 %, dividend (interest).
      const [cashGroup, financials] = bySector.groups!;
      expect(financials.totalReturn).toMatchObject({
        capitalGainValue: "100",
        dividendReturnValue: "0",
        currencyGainValue: "0",
      });
      expectRate(financials.totalReturn.totalReturnPercent, (100 / ((1000 * 28) / 30)) * 100);
      expect(cashGroup.totalReturn).toMatchObject({
        capitalGainValue: "0",
        dividendReturnValue: "5",
        currencyGainValue: "0",
      });
      expectRate(cashGroup.totalReturn.totalReturnPercent, 0.5);
      expectRate(cashGroup.weight, (1005 / 6215) * 100); // 16.1705551086 %
      expectGroupsAddUp(bySector);
      // The portfolio: Dietz 1,000 × 30/30 + 5,000 × 28/30 = 5,666.66…; 215 / 5,666.66… = 3.7941176471 %.
      expectRate(bySector.totalReturn.totalReturnPercent, (215 / (1000 + (5000 * 28) / 30)) * 100);

      const byIndustry = expectOk(await tr.performance(key, p, { ...period, groupBy: "industry" }));
      expect(grouped(byIndustry)).toEqual({ CBA: "Banks", VAS: "Unclassified", AAPL: "Technology Hardware" });
      expect(rows(byIndustry)).toEqual([
        ["Banks", "1100", "100"],
        ["Cash", "1005", "5"],
        ["Technology Hardware", "3150", "150"],
        ["Unclassified", "960", "-40"],
      ]);
      expectGroupsAddUp(byIndustry);
    });

    it("currency (the cash account under its currency code), exchange and holdingType", async () => {
      const { p } = await classified();
      // currency: AUD = CBA + VAS + the AUD cash account: 1,100 + 960 + 1,005 = 3,065, 100 − 40 + 5 = 65.
      const byCurrency = expectOk(await tr.performance(key, p, { ...period, groupBy: "currency" }));
      expect(grouped(byCurrency)).toEqual({ CBA: "AUD", VAS: "AUD", AAPL: "USD" });
      expect(rows(byCurrency)).toEqual([
        ["AUD", "3065", "65"],
        ["USD", "3150", "150"],
      ]);
      expect(byCurrency.groups![0].totalReturn).toMatchObject({ capitalGainValue: "60", dividendReturnValue: "5" });
      expectGroupsAddUp(byCurrency);

      // exchange: ASX = CBA + VAS: 2,060, +60; the cash account is Cash.
      const byExchange = expectOk(await tr.performance(key, p, { ...period, groupBy: "exchange" }));
      expect(grouped(byExchange)).toEqual({ CBA: "ASX", VAS: "ASX", AAPL: "NASDAQ" });
      expect(rows(byExchange)).toEqual([
        ["ASX", "2060", "60"],
        ["Cash", "1005", "5"],
        ["NASDAQ", "3150", "150"],
      ]);
      expectGroupsAddUp(byExchange);

      // holdingType (the master list's): Stock = CBA + AAPL: 4,250, +250; Etf = VAS.
      const byType = expectOk(await tr.performance(key, p, { ...period, groupBy: "holdingType" }));
      expect(grouped(byType)).toEqual({ CBA: "Stock", VAS: "Etf", AAPL: "Stock" });
      expect(rows(byType)).toEqual([
        ["Cash", "1005", "5"],
        ["Etf", "960", "-40"],
        ["Stock", "4250", "250"],
      ]);
      expectGroupsAddUp(byType);
    });

    it("customGroup:{id}: the labels assigned through the API; a holding without one is Unclassified", async () => {
      const { p, cba, aapl } = await classified();
      const group = await postCreated<{ id: number }>(t, key, "/v1/custom-groups", {
        name: "Style",
        labels: ["Growth", "Income"],
      });
      await send("put", `/v1/custom-groups/${group.id}/assignments`, [
        { holdingId: cba, label: "Income" },
        { holdingId: aapl, label: "Growth" },
      ]);
      const r = expectOk(await tr.performance(key, p, { ...period, groupBy: `customGroup:${group.id}` }));
      expect(grouped(r)).toEqual({ CBA: "Income", VAS: "Unclassified", AAPL: "Growth" });
      expect(rows(r)).toEqual([
        ["Cash", "1005", "5"],
        ["Growth", "3150", "150"],
        ["Income", "1100", "100"],
        ["Unclassified", "960", "-40"],
      ]);
      expectRate(r.groups![1].weight, (3150 / 6215) * 100); // 50.6838294449 %
      expectGroupsAddUp(r);
    });
  });

  it("includeClosed=false lists only the holdings held at `to`; the portfolio's return is the same either way", async () => {
    const p = await newPortfolio(t, key, { name: "Closed" });
    await marketPrices("CBA", "ASX", [["2024-05-10", 104]]);
    // WBC: bought and sold out before the period: nothing of it is in the period, never listed.
    await buy(p, "WBC", "ASX", "2024-04-01", 10, 25);
    await sell(p, "WBC", "ASX", "2024-04-10", 10, 26);
    await buy(p, "CBA", "ASX", "2024-05-01", 10, 100);
    await buy(p, "NAB", "ASX", "2024-05-01", 20, 30);
    await sell(p, "NAB", "ASX", "2024-05-05", 20, 33);

    // 2024-05-01..2024-05-10: CBA in 1,000, EMV 10 × 104 = 1,040: +40; NAB in 600, out 660: +60.
    //   BMV 0, EMV 1,040, net flows 1,000 + 600 − 660 = 940, total 100.
    const period = { from: "2024-05-01", to: "2024-05-10" };
    const all = expectOk(await tr.performance(key, p, period));
    expect(all).toMatchObject({ openingValue: "0", totalValue: "1040", netFlows: "940" });
    expect(all.totalReturn).toMatchObject({ totalReturnValue: "100", capitalGainValue: "100" });
    expect(all.holdings.map((h) => [h.symbol, h.quantity, h.marketValue, h.totalReturn.totalReturnValue])).toEqual([
      ["CBA", "10", "1040", "40"],
      ["NAB", "0", "0", "60"],
    ]);
    expectIdentity(all);
    expect(expectOk(await tr.performance(key, p, { ...period, includeClosed: true }))).toEqual(all);

    const open = expectOk(await tr.performance(key, p, { ...period, includeClosed: false }));
    expect(open.holdings.map((h) => h.symbol)).toEqual(["CBA"]);
    expect(open.holdings[0]).toEqual(all.holdings[0]);
    const { holdings: _o, ...openRest } = open;
    const { holdings: _a, ...allRest } = all;
    expect(openRest).toEqual(allRest);
    expectIdentity(open);
  });

  describe("tenancy", () => {
    it("another account gets NOT_FOUND for your portfolio, with or without its own custom group; your custom group is NOT_FOUND to it and its to you", async () => {
      const p = await newPortfolio(t, key, { name: "Mine" });
      const { holdingId } = await buy(p, "CBA", "ASX", "2024-01-02", 10, 100);
      const mine = await postCreated<{ id: number }>(t, key, "/v1/custom-groups", { name: "Mine", labels: ["A"] });
      await send("put", `/v1/custom-groups/${mine.id}/assignments`, [{ holdingId, label: "A" }]);

      const intruder = await t.newAccount("intruder");
      const theirs = await newPortfolio(t, intruder, { name: "Theirs" });
      await newTrade(t, intruder, {
        portfolioId: theirs,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 1,
        price: 100,
      });
      const theirGroup = await postCreated<{ id: number }>(t, intruder, "/v1/custom-groups", {
        name: "Theirs",
        labels: ["B"],
      });

      // Each side sees its own: the group works for its owner (sanity, so the refusals below mean tenancy).
      const own = expectOk(
        await tr.performance(key, p, { from: "2024-01-02", to: "2024-01-02", groupBy: `customGroup:${mine.id}` }),
      );
      expect(own.groups!.map((g) => g.label)).toEqual(["A"]);
      expectOk(
        await tr.performance(intruder, theirs, {
          from: "2024-01-02",
          to: "2024-01-02",
          groupBy: `customGroup:${theirGroup.id}`,
        }),
      );

      // Your portfolio, to them: NOT_FOUND whatever they ask with.
      expectError(await tr.performance(intruder, p, { from: "2024-01-02", to: "2024-01-02" }), "NOT_FOUND");
      expectError(await tr.performance(intruder, p, { groupBy: `customGroup:${theirGroup.id}` }), "NOT_FOUND");
      expectError(await tr.performance(intruder, p, { groupBy: `customGroup:${mine.id}` }), "NOT_FOUND");
      // Your custom group on their own portfolio: NOT_FOUND, as a group that does not exist.
      const foreignGroup = await tr.performance(intruder, theirs, { groupBy: `customGroup:${mine.id}` });
      expectError(foreignGroup, "NOT_FOUND");
      expect(foreignGroup.raw).not.toContain('"A"');
      // Their custom group on your portfolio: NOT_FOUND too.
      expectError(await tr.performance(key, p, { groupBy: `customGroup:${theirGroup.id}` }), "NOT_FOUND");
    });

    it("a client key of the account sees only its portfolios: another portfolio of the same account is NOT_FOUND", async () => {
      const p = await newPortfolio(t, key, { name: "Client's" });
      const other = await newPortfolio(t, key, { name: "Not the client's" });
      await buy(p, "CBA", "ASX", "2024-01-02", 10, 100);
      await buy(other, "CBA", "ASX", "2024-01-02", 10, 100);
      const client = await t.newClientKey(key, "Read", [p]);
      expectOk(await tr.performance(client, p, { from: "2024-01-02", to: "2024-01-02" }));
      expectError(await tr.performance(client, other, { from: "2024-01-02", to: "2024-01-02" }), "NOT_FOUND");
    });
  });
});
