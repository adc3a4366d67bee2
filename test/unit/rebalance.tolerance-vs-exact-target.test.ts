import { bucket, driftOf, holding, legsOf, plan } from "./rebalance.helpers";

/** 6,200 / 3,800 against 60/40 ± 5: drifts +2 / −2, in band. Tolerance trades nothing; ExactTarget moves 200. */
describe("in band: Tolerance trades nothing, ExactTarget trades to target", () => {
  const input = {
    buckets: [bucket("Growth", 60, 5, 1), bucket("Defensive", 40, 5, 2)],
    holdings: [holding(1, "Growth", 6200), holding(2, "Defensive", 3800)],
  };

  it("Tolerance", () => {
    const r = plan({ ...input, band: "Tolerance" });
    expect(driftOf(r.driftReport)).toEqual([
      ["Growth", 62, 2, "InBand"],
      ["Defensive", 38, -2, "InBand"],
    ]);
    expect(legsOf(r)).toEqual([]);
  });

  it("ExactTarget", () => {
    const r = plan({ ...input, band: "ExactTarget" });
    expect(legsOf(r)).toEqual(["Sell 200 H1 = 200", "Buy 200 H2 = 200"]);
    expect(driftOf(r.postTradeDrift).map((e) => e[2])).toEqual([0, 0]);
  });
});
