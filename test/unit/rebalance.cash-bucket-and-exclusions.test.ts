import { Decimal } from "../../src/lib/money";
import { bucket, driftOf, holding, legsOf, plan } from "./rebalance.helpers";

describe("a Cash bucket and excluded holdings", () => {
  it("a Cash bucket brings the cash accounts in: the cash above its target is invested", () => {
    // Growth 8,000 and 2,000 in the cash accounts against Growth 90 / Cash 10: total 10,000,
    // Growth 80 % (−10), Cash 20 % (+10). 1,000 of the cash buys Growth; 1,000 stays as the target.
    const r = plan({
      buckets: [bucket("Growth", 90, 2, 1), bucket("Cash", 10, 2, 2)],
      holdings: [holding(1, "Growth", 8000)],
      cashBalance: new Decimal(2000),
    });
    expect([r.totalValue.toFixed(), r.cashAvailable.toFixed()]).toEqual(["10000", "2000"]);
    expect(driftOf(r.driftReport)).toEqual([
      ["Growth", 80, -10, "Under"],
      ["Cash", 20, 10, "Over"],
    ]);
    expect(legsOf(r)).toEqual(["Buy 1000 H1 = 1000"]);
    expect(r.cashRemaining.toFixed()).toBe("1000");
    expect(driftOf(r.postTradeDrift)).toEqual([
      ["Growth", 90, 0, "InBand"],
      ["Cash", 10, 0, "InBand"],
    ]);
  });

  it("without a Cash bucket the cash accounts are not counted", () => {
    const r = plan({
      buckets: [bucket("Growth", 100, 0, 1)],
      holdings: [holding(1, "Growth", 8000)],
      cashBalance: new Decimal(2000),
    });
    expect([r.totalValue.toFixed(), r.cashAvailable.toFixed(), legsOf(r)]).toEqual(["8000", "0", []]);
  });

  it("an excluded holding is out of scope: not valued, not traded", () => {
    // Without holding 3 (Growth, 4,000): 6,000 / 4,000 against 50/50 → sell 1,000 of 1, buy 1,000 of 2.
    const r = plan({
      buckets: [bucket("Growth", 50, 0, 1), bucket("Defensive", 50, 0, 2)],
      holdings: [holding(1, "Growth", 6000), holding(2, "Defensive", 4000), holding(3, "Growth", 4000)],
      excludeHoldingIds: [3],
      band: "ExactTarget",
    });
    expect(r.totalValue.toFixed()).toBe("10000");
    expect(legsOf(r)).toEqual(["Sell 1000 H1 = 1000", "Buy 1000 H2 = 1000"]);
  });

  it("a bucket's sell is split across its holdings by value", () => {
    // Growth 6,000 + 3,000 against 50 % of 12,000: sell 3,000, two thirds from holding 1.
    const r = plan({
      buckets: [bucket("Growth", 50, 0, 1), bucket("Defensive", 50, 0, 2)],
      holdings: [holding(1, "Growth", 6000), holding(2, "Growth", 3000), holding(3, "Defensive", 3000)],
      band: "ExactTarget",
    });
    expect(legsOf(r)).toEqual(["Sell 2000 H1 = 2000", "Sell 1000 H2 = 1000", "Buy 3000 H3 = 3000"]);
  });
});
