import { modifiedDietz } from "../../src/modules/analytics/modified-dietz";
import { timeWeightedReturn } from "../../src/modules/analytics/twr";

/**
 * A full exit and re-entry (docs/rules.md §11.1): an empty day earns nothing (its denominator is 0, so
 * r = 0) and does not break the chain. Buy 100 @ 10 (1,000 in at the start of day 1), worth 1,100
 * at its close; sold on day 2 for 1,100 (out at its end, value 0): r₂ = 1,100/1,100 − 1 = 0; day 3
 * empty; day 4 buy again for 500, worth 550 at the close: r₄ = 550/500 − 1 = 10 %. Cumulative
 * 1.1 × 1.1 − 1 = 21 %.
 */
test("TWR chains across the empty day: 21 %", () => {
  const r = timeWeightedReturn(0, [
    { value: 1100, inflow: 1000, outflow: 0 },
    { value: 0, inflow: 0, outflow: 1100 },
    { value: 0, inflow: 0, outflow: 0 },
    { value: 550, inflow: 500, outflow: 0 },
  ]);
  expect(r.cumulativePercent).toBeCloseTo(21, 10);
  expect(Array.from(r.daily).map((x) => Math.round(x * 1e6) / 1e6)).toEqual([10, 10, 10, 21]);
  expect(r.annualisedPercent).toBeNull();
});

test("a day with a flow and no value: bought and sold the same day for the same money earns nothing", () => {
  // 1,000 in at the start, 1,000 out at the end, value 0 at the close: (0 + 1,000)/(0 + 1,000) − 1 = 0.
  expect(timeWeightedReturn(0, [{ value: 0, inflow: 1000, outflow: 1000 }]).cumulativePercent).toBe(0);
});

test("Modified Dietz over the same days: gain 150 over the capital invested (1,000 × 4/4 − 1,100 × 2/4 + 500 × 1/4 = 575) = 26.0869565 %", () => {
  // Inflow day 1 weighs (4 − 1 + 1)/4 = 1; outflow day 2 weighs (4 − 2)/4 = 0.5; inflow day 4 weighs 1/4.
  const r = modifiedDietz({
    openingValue: 0,
    closingValue: 550,
    from: "2024-01-01",
    to: "2024-01-04",
    flows: [
      { date: "2024-01-01", amount: 1000 },
      { date: "2024-01-02", amount: -1100 },
      { date: "2024-01-04", amount: 500 },
    ],
  });
  expect(r.averageCapital).toBeCloseTo(575, 10);
  expect(r.cumulativePercent!).toBeCloseTo((150 / 575) * 100, 10);
  expect(r.annualisedPercent).toBeNull();
});

test("Modified Dietz with nothing invested has no return (null), not 0 or infinity", () => {
  expect(
    modifiedDietz({ openingValue: 0, closingValue: 0, from: "2024-01-01", to: "2024-12-31", flows: [] })
      .cumulativePercent,
  ).toBeNull();
});
