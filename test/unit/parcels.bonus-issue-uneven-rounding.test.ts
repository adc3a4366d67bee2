import { foldParcels } from "../../src/modules/ledger";
import { d, s, t } from "./parcels.helpers";

/**
 * Story: a bonus that does not divide evenly over the parcels. The bonus units are apportioned
 * exactly as a split's (docs/rules.md §1 rounding): the units after the bonus are spread over the
 * open parcels by units, each part rounded to 8 decimals half-up, the last taking the remainder,
 * so the bonus units add up to the trade's quantity exactly and no unit is lost or made.
 *
 * By hand: three parcels of 10 units (cost 10, 20, 30), a 1-for-3 bonus of 10 units: 40 units
 * after, 40 × 10 / 30 = 13.333333333… → 13.33333333 for the first two, the last
 * 40 − 26.66666666 = 13.33333334. Bonus units per parcel 3.33333333 + 3.33333333 + 3.33333334 = 10.
 * Cost bases stay 10, 20, 30 (total 60). Selling all 40 @ 3: proceeds 120 by units,
 * 120 × 13.33333333 / 40 = 39.99999999 → 40.0000 for the first two, 120 − 80 = 40 the last; gains
 * 40 − 10 + 40 − 20 + 40 − 30 = 60 = 120 − 60.
 */
test("a 1-for-3 bonus of 10 over three parcels of 10 gives 3.33333333, 3.33333333 and 3.33333334", () => {
  const events = [
    t(1, "Buy", "2020-01-02", 10, 1),
    t(2, "Buy", "2020-02-03", 10, 2),
    t(3, "Buy", "2020-03-02", 10, 3),
    t(4, "Bonus", "2024-05-01", 10),
  ];
  const r = foldParcels(events);
  expect(r.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    ["2020-01-02", "13.33333333", "10"],
    ["2020-02-03", "13.33333333", "20"],
    ["2020-03-02", "13.33333334", "30"],
  ]);
  const bonusUnits = r.parcels.map((p) => p.units.minus(p.originalUnits));
  expect(bonusUnits.map(s)).toEqual(["3.33333333", "3.33333333", "3.33333334"]);
  expect(s(bonusUnits.reduce((a, b) => a.plus(b), d(0)))).toBe("10");
  expect([s(r.units), s(r.costBaseInBaseCurrency)]).toEqual(["40", "60"]);

  const sold = foldParcels([...events, t(5, "Sell", "2025-01-10", 40, 3)]);
  expect(sold.disposals.map((x) => [s(x.units), s(x.costBaseInBaseCurrency), s(x.proceedsInBaseCurrency)])).toEqual([
    ["13.33333333", "10", "40"],
    ["13.33333333", "20", "40"],
    ["13.33333334", "30", "40"],
  ]);
  expect(s(sold.disposals.reduce((sum, x) => sum.plus(x.gainInBaseCurrency), d(0)))).toBe("60");
  expect(s(sold.units)).toBe("0");
});

test("an unpriced bonus after a partial sale spreads only over the units still held", () => {
  // Buy 100 @ 2 (200) and 100 @ 3 (300); FIFO sell 150 leaves 50 of the second (cost 150);
  // a bonus of 10 goes to that parcel alone: 60 units, cost 150, acquired 2023-02-01.
  const r = foldParcels([
    t(1, "Buy", "2023-01-02", 100, 2),
    t(2, "Buy", "2023-02-01", 100, 3),
    t(3, "Sell", "2023-06-01", 150, 4),
    t(4, "Bonus", "2024-05-01", 10),
  ]);
  expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    [1, "2023-01-02", "0", "0"],
    [2, "2023-02-01", "60", "150"],
  ]);
});
