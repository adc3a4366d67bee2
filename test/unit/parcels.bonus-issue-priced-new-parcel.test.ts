import { foldParcels } from "../../src/modules/ledger";
import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, HALF } from "./tax.helpers";

/**
 * Story: a bonus taxed as a dividend (or paid up) carries a price, and is a parcel of its own at
 * that cost, acquired on the issue date (docs/rules.md §2; ITAA 1997 s130-20(3)). A Bonus carries no
 * brokerage (the trade input refuses it), so its cost base is price × units.
 *
 * By hand:
 * - Buy 400 @ 5 on 2019-03-01: cost base 2,000.
 * - Bonus 100 @ 4.50 on 2024-05-01: a new parcel, cost base 100 × 4.50 = 450, acquired 2024-05-01;
 *   the first parcel stays 400 units at 2,000. Holding: 500 units, cost base 2,450.
 * - Sell 450 @ 6 on 2025-01-10, FIFO: proceeds 2,700, by units over 400 and 50:
 *   2,700 × 400 / 450 = 2,400 and 2,700 − 2,400 = 300.
 *   - 400 of the 2019 parcel: cost 2,000, gain 400; discountable.
 *   - 50 of the bonus parcel: cost 450 × 50 / 100 = 225, gain 300 − 225 = 75; acquired 2024-05-01,
 *     first eligible 2025-05-02: not discountable.
 * - Individual: long-term 400, short-term 75, discount 200, net 75 + 200 = 275.
 * - Left: 50 of the bonus parcel at 450 − 225 = 225.
 * - In another currency the cost converts at the trade's rate: 100 × USD 3 at 1.5 AUD/USD = 450.
 */
test("a priced bonus is a new parcel at price × units acquired on the issue date", () => {
  const r = foldParcels([
    t(1, "Buy", "2019-03-01", 400, 5),
    t(2, "Bonus", "2024-05-01", 100, "4.50"),
    t(3, "Sell", "2025-01-10", 450, 6),
  ]);
  expect(r.timeline.on("2024-05-01").costBaseInBaseCurrency.toFixed()).toBe("2450");
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
    [1, "2019-03-01", "400", "2000", "2400", "400"],
    [2, "2024-05-01", "50", "225", "300", "75"],
  ]);
  expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    [1, "2019-03-01", "0", "0"],
    [2, "2024-05-01", "50", "225"],
  ]);

  const gains = gainsOf(r.disposals, HALF);
  expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([
    ["400", true],
    ["75", false],
  ]);
  const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });
  expect([s(summary.longTermGains), s(summary.shortTermGains), s(summary.discount), s(summary.netCapitalGain)]).toEqual(
    ["400", "75", "200", "275"],
  );
});

test("a priced bonus in another currency costs price × units at the trade's rate", () => {
  const r = foldParcels([
    t(1, "Buy", "2019-03-01", 400, 5),
    t(2, "Bonus", "2024-05-01", 100, 3, { exchangeRate: "1.5" }),
  ]);
  expect(r.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
    ["2019-03-01", "400", "2000"],
    ["2024-05-01", "100", "450"],
  ]);
});
