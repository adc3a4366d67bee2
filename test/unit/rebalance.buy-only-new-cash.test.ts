import { Decimal } from "../../src/lib/money";
import { bucket, driftOf, holding, legsOf, plan } from "./rebalance.helpers";

/**
 * Buy-only with new cash goes to the most underweight bucket first. Targets 50/30/20, values
 * 5,000 / 2,000 / 3,000 and 1,000 to invest: total 11,000, so targets are 5,500 / 3,300 / 2,200 and
 * drifts 45.4545−50 = −4.5455, 18.1818−30 = −11.8182, 27.2727−20 = +7.2727. B (−11.8) is the most
 * underweight: its gap 1,300 takes the whole 1,000; A gets nothing; C is never sold.
 */
describe("BuyOnly spends new cash on the most underweight bucket first", () => {
  const buckets = [bucket("A", 50, 0, 1), bucket("B", 30, 0, 2), bucket("C", 20, 0, 3)];
  const holdings = [holding(1, "A", 5000), holding(2, "B", 2000), holding(3, "C", 3000)];

  it("buys 1,000 of B and sells nothing", () => {
    const r = plan({ buckets, holdings, mode: "BuyOnly", band: "ExactTarget", cashToInvest: new Decimal(1000) });
    expect(r.totalValue.toFixed()).toBe("11000");
    expect(driftOf(r.driftReport).map((e) => e[3])).toEqual(["Under", "Under", "Over"]);
    expect(legsOf(r)).toEqual(["Buy 1000 H2 = 1000"]);
    expect(r.cashRemaining.toFixed()).toBe("0");
  });

  it("whole units leave the remainder in cashRemaining, with a warning", () => {
    // A: 100 units at 30 (3,000), B: 3,000 units at 1; 1,000 to invest → 7,000, targets 3,500 each,
    // both 500 short (a tie: A's sortOrder first). A: 500 / 30 = 16.7 → 16 units = 480; B: 500.
    // 1,000 − 480 − 500 = 20 stays.
    const r = plan({
      buckets: [bucket("A", 50, 0, 1), bucket("B", 50, 0, 2)],
      holdings: [holding(1, "A", 100, 30), holding(2, "B", 3000)],
      mode: "BuyOnly",
      band: "ExactTarget",
      cashToInvest: new Decimal(1000),
    });
    expect(legsOf(r)).toEqual(["Buy 16 H1 = 480", "Buy 500 H2 = 500"]);
    expect(r.cashRemaining.toFixed()).toBe("20");
    expect(r.warnings.map((w) => w.code)).toEqual(["WHOLE_UNITS_CASH"]);
  });
});
