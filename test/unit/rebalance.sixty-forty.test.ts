import { bucket, driftOf, holding, legsOf, plan } from "./rebalance.helpers";

/**
 * docs/reports.md §4.3's example: targets 60/40 with 5% tolerance, holdings worth 7,000 and 3,000 →
 * drifts +10 and −10, both out of band; moving 1,000 from the first to the second fixes both.
 */
describe("the 60/40 example", () => {
  const r = plan({
    buckets: [bucket("Growth", 60, 5, 1), bucket("Defensive", 40, 5, 2)],
    holdings: [holding(1, "Growth", 7000), holding(2, "Defensive", 3000)],
  });

  it("drift: +10 and −10, both out of band", () => {
    expect(r.totalValue.toFixed()).toBe("10000");
    expect(driftOf(r.driftReport)).toEqual([
      ["Growth", 70, 10, "Over"],
      ["Defensive", 30, -10, "Under"],
    ]);
    expect([r.driftReport.maxDriftPct, r.driftReport.outOfBandCount]).toEqual([10, 2]);
  });

  it("sells 1,000 of the first and buys 1,000 of the second; both in band after, no cash left", () => {
    expect(legsOf(r)).toEqual(["Sell 1000 H1 = 1000", "Buy 1000 H2 = 1000"]);
    expect(driftOf(r.postTradeDrift)).toEqual([
      ["Growth", 60, 0, "InBand"],
      ["Defensive", 40, 0, "InBand"],
    ]);
    expect([r.postTradeDrift.outOfBandCount, r.cashRemaining.toFixed(), r.warnings]).toEqual([0, "0", []]);
  });

  it("the same input twice gives byte-identical JSON", () => {
    const again = plan({
      buckets: [bucket("Growth", 60, 5, 1), bucket("Defensive", 40, 5, 2)],
      holdings: [holding(1, "Growth", 7000), holding(2, "Defensive", 3000)],
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(r));
  });
});
