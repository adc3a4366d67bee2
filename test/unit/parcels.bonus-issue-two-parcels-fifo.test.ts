import { foldParcels } from "../../src/modules/ledger";
import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, HALF } from "./tax.helpers";

/**
 * Story: a bonus issue over two parcels, then a FIFO sale across both (docs/rules.md §2; ITAA 1997
 * s130-20: each original parcel's cost base is spread over its own original and bonus units, which
 * keep that parcel's acquisition date).
 *
 * By hand:
 * - Buy 300 @ 5 on 2019-03-01: cost base 1,500. Buy 100 @ 7 on 2024-01-15: cost base 700.
 * - Bonus 100 (1 for 4, no price) on 2024-05-01: 400 held become 500, apportioned by units as a
 *   split is (rounding.ts apportion): 500 × 300 / 400 = 375 for the first parcel, the last takes
 *   500 − 375 = 125. So 375 @ 2019-03-01 cost 1,500 (4 a unit) and 125 @ 2024-01-15 cost 700
 *   (5.60 a unit); the bonus units are 75 + 25 = 100, exactly the trade's.
 * - Sell 400 @ 6 on 2025-01-10, FIFO: proceeds 2,400, apportioned by units over 375 and 25:
 *   2,400 × 375 / 400 = 2,250 and 2,400 − 2,250 = 150.
 *   - 375 of the first (all of it): cost base 1,500, gain 2,250 − 1,500 = 750; held since
 *     2019-03-01: discountable.
 *   - 25 of the second: cost base 700 × 25 / 125 = 140, gain 150 − 140 = 10; acquired 2024-01-15,
 *     first discount-eligible on 2025-01-16 (s115-25: both end days excluded), so NOT
 *     discountable on 2025-01-10.
 * - Individual: long-term 750, short-term 10; discount 750 × 0.5 = 375; net 10 + 375 = 385.
 * - Left: 100 of the second parcel, cost base 700 − 140 = 560, acquired 2024-01-15.
 */
test("a bonus over two parcels keeps each parcel's date and cost base; a FIFO sale of 400 takes 375 + 25", () => {
  const r = foldParcels([
    t(1, "Buy", "2019-03-01", 300, 5),
    t(2, "Buy", "2024-01-15", 100, 7),
    t(3, "Bonus", "2024-05-01", 100),
    t(4, "Sell", "2025-01-10", 400, 6),
  ]);

  expect(
    r.disposals.map((x) => [
      x.parcelTradeId,
      x.acquisitionDate,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]),
  ).toEqual([
    [1, "2019-03-01", "375", "1500", "2250", "750"],
    [2, "2024-01-15", "25", "140", "150", "10"],
  ]);
  expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    [1, "2019-03-01", "0", "0"],
    [2, "2024-01-15", "100", "560"],
  ]);

  const gains = gainsOf(r.disposals, HALF);
  expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([
    ["750", true],
    ["10", false],
  ]);
  const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });
  expect([s(summary.longTermGains), s(summary.shortTermGains), s(summary.discount), s(summary.netCapitalGain)]).toEqual(
    ["750", "10", "375", "385"],
  );
});

test("right after the bonus: 375 @ 2019-03-01 cost 1,500 and 125 @ 2024-01-15 cost 700, 500 units in all", () => {
  const r = foldParcels([
    t(1, "Buy", "2019-03-01", 300, 5),
    t(2, "Buy", "2024-01-15", 100, 7),
    t(3, "Bonus", "2024-05-01", 100),
  ]);
  expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    [1, "2019-03-01", "375", "1500"],
    [2, "2024-01-15", "125", "700"],
  ]);
  expect([s(r.units), s(r.costBaseInBaseCurrency)]).toEqual(["500", "2200"]);
});
