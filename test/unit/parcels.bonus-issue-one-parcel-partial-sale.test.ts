import { foldParcels } from "../../src/modules/ledger";
import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, HALF } from "./tax.helpers";

/**
 * Story: a 1-for-4 bonus issue that is not a dividend, then a partial sale (docs/rules.md §2, the
 * corrected bonus rule; ITAA 1997 s130-20: the original shares' cost base is spread over the
 * original and bonus shares, which are taken to be acquired when the originals were).
 *
 * By hand:
 * - Buy 400 @ 5 on 2019-03-01: one parcel, cost base 400 × 5 = 2,000.
 * - Bonus 100 (no price) on 2024-05-01: the parcel becomes 400 + 100 = 500 units, cost base still
 *   2,000 (2,000 / 500 = 4 a unit), acquired 2019-03-01. One parcel: it takes every bonus unit.
 * - Sell 100 @ 6 on 2025-01-10: proceeds 100 × 6 = 600; cost base 2,000 × 100 / 500 = 400; gain
 *   600 − 400 = 200. Held from 2019-03-01, more than 12 months (s115-25): discountable. An
 *   individual's discount is 50 %: 200 × 0.5 = 100 off, net capital gain 100.
 * - Left: 400 units, cost base 2,000 − 400 = 1,600, still acquired 2019-03-01.
 * (The old rule, a bonus parcel of 100 at 0 dated 2024-05-01, gave this FIFO sale a gain of
 * 600 − 100 × 5 = 100 and left 100 units at no cost for later sales.)
 */
test("a 1-for-4 bonus without a price spreads the cost base over 500 units dated 2019-03-01; selling 100 gains 200, discountable", () => {
  const r = foldParcels([
    t(1, "Buy", "2019-03-01", 400, 5),
    t(2, "Bonus", "2024-05-01", 100),
    t(3, "Sell", "2025-01-10", 100, 6),
  ]);

  const position = (date: string) => {
    const p = r.timeline.on(date);
    return [s(p.units), s(p.costBaseInBaseCurrency)];
  };
  expect(position("2024-04-30")).toEqual(["400", "2000"]);
  expect(position("2024-05-01")).toEqual(["500", "2000"]);

  expect(
    r.disposals.map((x) => [
      x.tradeId,
      x.parcelTradeId,
      x.acquisitionDate,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]),
  ).toEqual([[3, 1, "2019-03-01", "100", "400", "600", "200"]]);

  // The bonus made no parcel of its own.
  expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    [1, "2019-03-01", "400", "1600"],
  ]);
  expect([s(r.units), s(r.costBaseInBaseCurrency)]).toEqual(["400", "1600"]);

  const gains = gainsOf(r.disposals, HALF);
  expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([["200", true]]);
  const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });
  expect([s(summary.longTermGains), s(summary.shortTermGains), s(summary.discount), s(summary.netCapitalGain)]).toEqual(
    ["200", "0", "100", "100"],
  );
});
