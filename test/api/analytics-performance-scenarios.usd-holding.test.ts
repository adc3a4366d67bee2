import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk } from "../support/outcomes";
import { expectComponentsAddUp, expectIdentity } from "./analytics.transports";
import { num, expectRate, twr, md, mwr, npv, performanceScenarioSetup } from "./analytics-performance-scenarios.setup";

/**
 * Performance of a USD holding in an AUD portfolio: capital at the closing rate, dividend at its
 * ex-date rate, currency the rest; showLocalCurrency (docs/reports.md §2; notation and identity in
 * ./analytics-performance-scenarios.setup.ts).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { transports, marketPrices, usdAud, buy, income } = performanceScenarioSetup(t, () => key);

describe.each(transports)("performance scenarios over $name", (tr) => {
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
});
