import { discountRateOf } from "../../src/modules/ledger";
import { d, s } from "./parcels.helpers";
import { COMPANY, long, short, SMSF } from "./tax.helpers";
import { parcel, plan, sn } from "./tax-planner.helpers";

/**
 * Story: the planner for a complying super fund (one-third discount) and a company (none).
 *
 * Source: ITAA 1997 s115-100 (SMSF 33⅓ %), s115-10 (no discount for a company), docs/rules.md §4.1;
 * docs/reports.md §6.1 (an entity without a discount has nothing to wait for: an empty list).
 * Discounts are rounded to 4 decimals once (cgt.ts).
 */
test("SMSF: a loss costs two thirds of a dollar of discount gain; waiting saves a third", () => {
  // Realised: a 900 discount gain → discount 300, net 600. A 300 loss comes off it: 600 left,
  // discount 200, net 400: reduction 200. The young 1,000 gain (bought 2025-09-01) waits to
  // 2026-09-02: 1,000 / 3 = 333.3333 off, 666.6667 left; at 15 % 333.3333 × 0.15 = 50.000
  // (49.999995 → 50 at 4 decimals).
  const p = plan({
    discountRate: SMSF,
    gains: [long(900)],
    parcels: [parcel(1, 11, "2024-01-10", 100, 1300, 1000), parcel(2, 21, "2025-09-01", 100, 1000, 2000)],
    marginalTaxRate: d(15),
  });
  expect([s(p.realisedToDate.discount), s(p.realisedToDate.netCapitalGain), sn(p.estimatedTax)]).toEqual([
    "300",
    "600",
    "90",
  ]);
  expect(p.harvest.map((h) => [s(h.netCapitalGainReduction), sn(h.taxSaved)])).toEqual([["200", "30"]]);
  expect(
    p.waitForDiscount.map((w) => [
      w.discountEligibleFrom,
      s(w.gainIfSoldNow),
      s(w.gainIfSoldWhenEligible),
      sn(w.taxSaved),
    ]),
  ).toEqual([["2026-09-02", "1000", "666.6667", "50"]]);
});

test("company: no discount, a loss saves dollar for dollar, nothing to wait for", () => {
  expect(s(discountRateOf("Company"))).toBe("0");
  // A company's gains are never discountable (disposal-rows.ts disposalRow): 900 short, net 900.
  // A 300 loss: net 600, reduction 300; at 25 % 75.
  const p = plan({
    discountRate: COMPANY,
    gains: [short(900)],
    parcels: [parcel(1, 11, "2024-01-10", 100, 1300, 1000), parcel(2, 21, "2025-09-01", 100, 1000, 2000)],
    marginalTaxRate: d(25),
  });
  expect([s(p.realisedToDate.netCapitalGain), sn(p.estimatedTax)]).toEqual(["900", "225"]);
  expect(p.harvest.map((h) => [s(h.netCapitalGainReduction), sn(h.taxSaved)])).toEqual([["300", "75"]]);
  expect(p.waitForDiscount).toEqual([]);
  expect([s(p.unrealised.gains), s(p.unrealised.losses)]).toEqual(["1000", "300"]);
});
