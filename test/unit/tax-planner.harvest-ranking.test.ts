import { d, s } from "./parcels.helpers";
import { long, short } from "./tax.helpers";
import { parcel, plan, sn } from "./tax-planner.helpers";

/**
 * Story: which loss to harvest before 30 June. An individual (50 % discount) has realised, in
 * FY2026 to 15 May 2026, a 300 short-term gain and a 1,000 long-term gain, with 200 of net capital
 * losses carried in. Four open parcels are at a loss.
 *
 * Source: docs/reports.md §6.1 (netCapitalGainReduction = the year's net capital gain less the same
 * with that parcel alone also sold), ITAA 1997 s100-50 (docs/rules.md §4.3): current-year losses
 * first, non-discount gains first; then carried-forward losses, non-discount gains first; then the
 * discount on what remains of the discount gains.
 *
 * Before: the carried 200 comes off the 300 short gain → 100 + 1,000 − 500 discount = 600.
 * - A, loss 100: 300 − 100 = 200 short; carried 200 takes it → 0 + 1,000 − 500 = 500: reduction 100.
 * - B, loss 800: 300 off the short gain, 500 off the long → 500; carried 200 → 300; − 150 discount
 *   = 150: reduction 450.
 * - C, loss 1,200: 300 short, 900 long → 100 long left; the carried 200 absorbs it, 100 carried on:
 *   0: reduction 600.
 * - D, loss 1,500: 0 as well, reduction 600: the 300 more it loses than C only carries forward.
 * Ranked by reduction, then the larger loss: D, C, B, A. A bigger loss never saves less, but it
 * saves less per dollar lost: A 1.00, B 0.5625, C 0.50, D 0.40; the 1,500 loss is no better a
 * harvest than the 1,200 one. At 37 %: taxSaved 222, 222, 166.5, 37.
 */
const realised = [short(300), long(1000)];
const parcels = [
  parcel(1, 11, "2025-08-01", 10, 500, 400),
  parcel(2, 21, "2025-08-01", 10, 2000, 1200),
  parcel(3, 31, "2025-08-01", 10, 3000, 1800),
  parcel(4, 41, "2025-08-01", 10, 2500, 1000),
  // A gain (held under 12 months): in waitForDiscount and unrealised.gains, not in harvest.
  parcel(5, 51, "2025-09-01", 50, 1000, 1800),
];

test("before any harvest: 600 net, 200 carried in and applied", () => {
  const p = plan({ gains: realised, carried: 200, parcels });
  expect([
    s(p.realisedToDate.netCapitalGain),
    s(p.realisedToDate.carriedForwardLossesApplied),
    s(p.projectedNetCapitalGain),
  ]).toEqual(["600", "200", "600"]);
  expect([s(p.unrealised.gains), s(p.unrealised.losses)]).toEqual(["800", "3600"]);
  expect(sn(p.estimatedTax)).toBeNull();
});

test("harvest rows ranked by the reduction, the larger loss first on a tie", () => {
  const p = plan({ gains: realised, carried: 200, parcels, marginalTaxRate: d(37) });
  expect(
    p.harvest.map((h) => [h.holdingId, s(h.unrealisedLoss), s(h.netCapitalGainReduction), sn(h.taxSaved)]),
  ).toEqual([
    [4, "1500", "600", "222"],
    [3, "1200", "600", "222"],
    [2, "800", "450", "166.5"],
    [1, "100", "100", "37"],
  ]);
  // 600 × 37 % = 222.
  expect(sn(p.estimatedTax)).toBe("222");
  // Reduction per dollar of loss: the smallest loss is used in full, the largest only in part.
  expect(p.harvest.map((h) => h.netCapitalGainReduction.div(h.unrealisedLoss).toFixed(4))).toEqual([
    "0.4000",
    "0.5000",
    "0.5625",
    "1.0000",
  ]);
});

test("the gaining parcel waits for its discount: 800 → 400 from 2026-09-02, 110 days on", () => {
  const p = plan({ gains: realised, carried: 200, parcels, marginalTaxRate: d(37) });
  // Bought 2025-09-01: eligible from 2026-09-02 (both end days excluded); 16 + 30 + 31 + 31 + 2 = 110
  // days from 2026-05-15. 800 × 50 % = 400 saved from the net gain; × 37 % = 148.
  expect(
    p.waitForDiscount.map((w) => [
      w.holdingId,
      w.discountEligibleFrom,
      w.daysToWait,
      s(w.gainIfSoldNow),
      s(w.gainIfSoldWhenEligible),
      sn(w.taxSaved),
    ]),
  ).toEqual([[5, "2026-09-02", 110, "800", "400", "148"]]);
});
