import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk } from "../support/outcomes";
import { expectIdentity } from "./analytics.transports";
import { num, expectRate, twr, md, mwr, npv, performanceScenarioSetup } from "./analytics-performance-scenarios.setup";

/**
 * Performance on a full exit and re-entry, and on a day trade: the days with nothing held earn 0 and
 * the flows of one day still earn their gain (docs/reports.md §2; notation and identity in
 * ./analytics-performance-scenarios.setup.ts).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { transports, marketPrices, buy, sell } = performanceScenarioSetup(t, () => key);

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
    // docs/rules.md §10: inflows happen at the start of their day, outflows at its end. A buy and a sale of
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
});
