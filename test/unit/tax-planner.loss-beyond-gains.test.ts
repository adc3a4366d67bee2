import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s } from "./parcels.helpers";
import { HALF, long, short } from "./tax.helpers";
import { parcel, plan, sn } from "./tax-planner.helpers";

/**
 * Story: a loss larger than the year's gains. An individual has realised a 100 short-term and a
 * 400 long-term gain in FY2026 (net 100 + 400 − 200 = 300), no losses carried in.
 *
 * Source: docs/reports.md §6.1: a loss first absorbs non-discount gains one for one, then discount
 * gains (each dollar reduces the net gain by one minus the discount), and what it cannot absorb
 * carries forward (0 reduction); ITAA 1997 s100-50, s102-15 (unused net capital losses carry forward).
 *
 * - A loss of 1,000: 100 off the short gain (−100), 400 off the long gain (−200): the net gain falls
 *   to 0, a reduction of 300; the other 500 carry forward (18V 500) and reduce nothing this year.
 * - A loss of 300: 100 off the short gain (−100), 200 off the long (−100): reduction 200.
 * - A loss of 2,000 reduces no more than the 1,000 one: 300.
 */
const realised = [short(100), long(400)];

test("the reduction stops at the year's net capital gain; the rest carries forward", () => {
  const p = plan({
    gains: realised,
    parcels: [parcel(1, 11, "2024-01-10", 100, 1500, 500), parcel(2, 21, "2024-01-10", 100, 700, 400)],
    marginalTaxRate: d(45),
  });
  expect(s(p.realisedToDate.netCapitalGain)).toBe("300");
  expect(
    p.harvest.map((h) => [h.holdingId, s(h.unrealisedLoss), s(h.netCapitalGainReduction), sn(h.taxSaved)]),
  ).toEqual([
    // 300 × 45 % = 135; 200 × 45 % = 90.
    [1, "1000", "300", "135"],
    [2, "300", "200", "90"],
  ]);
  // The same sale through the s100-50 engine: net 0, 500 carried forward.
  const after = netCapitalGain({
    gains: [...realised, short(-1000)],
    trustGains: [],
    carriedForwardLossesAvailable: d(0),
    discountRate: HALF,
  });
  expect([s(after.netCapitalGain), s(after.netCapitalLossesCarriedForward)]).toEqual(["0", "500"]);
});

test("twice the loss, the same reduction", () => {
  const p = plan({ gains: realised, parcels: [parcel(1, 11, "2024-01-10", 100, 2500, 500)] });
  expect(p.harvest.map((h) => [s(h.unrealisedLoss), s(h.netCapitalGainReduction), sn(h.taxSaved)])).toEqual([
    ["2000", "300", null],
  ]);
});

test("a year without gains: every loss only carries forward, reduction 0", () => {
  const p = plan({ gains: [], parcels: [parcel(1, 11, "2024-01-10", 100, 1500, 500)], marginalTaxRate: d(37) });
  expect(p.harvest.map((h) => [s(h.netCapitalGainReduction), sn(h.taxSaved)])).toEqual([["0", "0"]]);
  expect([s(p.projectedNetCapitalGain), sn(p.estimatedTax)]).toEqual(["0", "0"]);
});
