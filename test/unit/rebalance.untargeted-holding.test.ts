import { bucket, driftOf, holding, legsOf, plan } from "./rebalance.helpers";

/**
 * A holding in no bucket: an entry of its own label, target 0, status Untargeted, counted in
 * outOfBandCount and maxDriftPct, sold to zero under BuyAndSell (docs/reports.md §4.3). Growth 5,400 /
 * Defensive 3,600 / an untargeted Resources holding 1,000: 54 % (−6, out of 5 % band), 36 % (−4,
 * in band), 10 % untargeted. Sell the 1,000; Growth is bought back to 6,000 (600); Defensive is in
 * band and, under Tolerance, not traded: 400 stays in cash.
 */
describe("an untargeted holding", () => {
  const r = plan({
    buckets: [bucket("Growth", 60, 5, 1), bucket("Defensive", 40, 5, 2)],
    holdings: [holding(1, "Growth", 5400), holding(2, "Defensive", 3600), holding(3, "Resources", 1000)],
  });

  it("is reported with target 0 and counts in the band figures", () => {
    expect(driftOf(r.driftReport)).toEqual([
      ["Growth", 54, -6, "Under"],
      ["Defensive", 36, -4, "InBand"],
      ["Resources", 10, 10, "Untargeted"],
    ]);
    expect([r.driftReport.maxDriftPct, r.driftReport.outOfBandCount]).toEqual([10, 2]);
  });

  it("is sold to zero and the cash goes to the out-of-band bucket", () => {
    expect(legsOf(r)).toEqual(["Sell 1000 H3 = 1000", "Buy 600 H1 = 600"]);
    expect(r.cashRemaining.toFixed()).toBe("400");
    expect(driftOf(r.postTradeDrift)).toEqual([
      ["Growth", 60, 0, "InBand"],
      ["Defensive", 36, -4, "InBand"],
      ["Resources", 0, 0, "Untargeted"],
    ]);
    expect(r.postTradeDrift.outOfBandCount).toBe(0);
  });
});
