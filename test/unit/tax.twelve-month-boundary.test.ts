import { discountEligibleFrom, foldParcels, isDiscountEligible, type LedgerEvent } from "../../src/modules/ledger";
import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, HALF } from "./tax.helpers";

/**
 * Story: the 12-month boundary of the CGT discount.
 *
 * Source: ITAA 1997 s115-25(1): the asset must have been acquired at least 12 months before the
 * CGT event, the day of acquisition and the day of the event both excluded (docs/rules.md §4.1). A period
 * of months runs to the day before the corresponding day, or to the end of the month when there is
 * no corresponding day (Acts Interpretation Act 1901 s2G). So for an acquisition on day A the
 * excluded-days count starts A + 1, and 12 months from A + 1 end the day before A + 1's anniversary:
 * the event must be on or after the anniversary of A + 1.
 */

function run(events: LedgerEvent[]) {
  const r = foldParcels(events);
  const gains = gainsOf(r.disposals, HALF);
  const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });
  return { disposals: r.disposals, gains, summary };
}

describe("bought 2024-07-01", () => {
  test("eligible from 2025-07-02: 2025-07-01 is not (only 364 days between), 2025-07-02 is (365: 2024-07-02..2025-07-01)", () => {
    expect(discountEligibleFrom("2024-07-01")).toBe("2025-07-02");
    expect(isDiscountEligible("2024-07-01", "2025-06-30")).toBe(false);
    expect(isDiscountEligible("2024-07-01", "2025-07-01")).toBe(false);
    expect(isDiscountEligible("2024-07-01", "2025-07-02")).toBe(true);
  });

  // Buy 100 @ $10 + $9.95 brokerage: cost base 1,009.95. Sell 100 @ $12 − $9.95: proceeds 1,190.05.
  // Gain 1,190.05 − 1,009.95 = 180.10.
  test("sold on 2025-07-01: not discountable, 18A = the whole 180.10", () => {
    const { disposals, gains, summary } = run([
      t(1, "Buy", "2024-07-01", 100, 10, { brokerage: "9.95" }),
      t(2, "Sell", "2025-07-01", 100, 12, { brokerage: "9.95" }),
    ]);
    expect(
      disposals.map((x) => [s(x.costBaseInBaseCurrency), s(x.proceedsInBaseCurrency), s(x.gainInBaseCurrency)]),
    ).toEqual([["1009.95", "1190.05", "180.1"]]);
    expect(gains.map((g) => g.isDiscountable)).toEqual([false]);
    expect([
      s(summary.shortTermGains),
      s(summary.longTermGains),
      s(summary.discount),
      s(summary.netCapitalGain),
    ]).toEqual(["180.1", "0", "0", "180.1"]);
  });

  test("sold on 2025-07-02: discountable, discount 90.05, 18A 90.05", () => {
    const { gains, summary } = run([
      t(1, "Buy", "2024-07-01", 100, 10, { brokerage: "9.95" }),
      t(2, "Sell", "2025-07-02", 100, 12, { brokerage: "9.95" }),
    ]);
    expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([["180.1", true]]);
    // 50 % × 180.10 = 90.05.
    expect([
      s(summary.shortTermGains),
      s(summary.longTermGains),
      s(summary.discount),
      s(summary.totalCapitalGains),
      s(summary.netCapitalGain),
    ]).toEqual(["0", "180.1", "90.05", "180.1", "90.05"]);
  });

  test("half sold each day (both FY2026): 100 short-term + 100 long-term → discount 50, 18A 150, 18H 200", () => {
    // Buy 100 @ $10 = 1,000; each sell of 50 @ $12 = 600 against a cost of 500: gain 100.
    const { gains, summary } = run([
      t(1, "Buy", "2024-07-01", 100, 10),
      t(2, "Sell", "2025-07-01", 50, 12),
      t(3, "Sell", "2025-07-02", 50, 12),
    ]);
    expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([
      ["100", false],
      ["100", true],
    ]);
    expect([
      s(summary.shortTermGains),
      s(summary.longTermGains),
      s(summary.discount),
      s(summary.totalCapitalGains),
      s(summary.netCapitalGain),
    ]).toEqual(["100", "100", "50", "200", "150"]);
  });
});

describe("acquired on 29 February 2024", () => {
  // Excluded days: 2024-02-29 and the event. 12 months from 2024-03-01 end on 2025-02-28, so the
  // first eligible event date is 2025-03-01 (there is no 29 February 2025).
  test("eligible from 2025-03-01: 2025-02-28 is not", () => {
    expect(discountEligibleFrom("2024-02-29")).toBe("2025-03-01");
    expect(isDiscountEligible("2024-02-29", "2025-02-28")).toBe(false);
    expect(isDiscountEligible("2024-02-29", "2025-03-01")).toBe(true);
  });

  test("through the fold: sold 2025-02-28 → 18A 500; sold 2025-03-01 → 18A 250", () => {
    // Buy 50 @ $20 = 1,000; sell 50 @ $30 = 1,500; gain 500.
    const before = run([t(1, "Buy", "2024-02-29", 50, 20), t(2, "Sell", "2025-02-28", 50, 30)]);
    expect([s(before.summary.shortTermGains), s(before.summary.discount), s(before.summary.netCapitalGain)]).toEqual([
      "500",
      "0",
      "500",
    ]);
    const after = run([t(1, "Buy", "2024-02-29", 50, 20), t(2, "Sell", "2025-03-01", 50, 30)]);
    expect([s(after.summary.longTermGains), s(after.summary.discount), s(after.summary.netCapitalGain)]).toEqual([
      "500",
      "250",
      "250",
    ]);
  });

  test("bonus units of a parcel acquired on 29 February count from that date", () => {
    // docs/rules.md §2 (ITAA 1997 s130-20): an unpriced bonus keeps its parcel's acquisition date and
    // spreads its cost base: 10 @ 5 (50) + 10 bonus units → 20 units at 50, acquired 2024-02-29.
    const events = [
      t(1, "Buy", "2024-02-29", 10, 5),
      t(2, "Bonus", "2024-06-03", 10),
      t(3, "Sell", "2025-03-01", 20, 6),
    ];
    const { gains, summary } = run(events);
    // One parcel: 20 units, cost 50, proceeds 120, gain 70; eligible on 2025-03-01.
    expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([["70", true]]);
    expect([s(summary.longTermGains), s(summary.discount), s(summary.netCapitalGain)]).toEqual(["70", "35", "35"]);
  });
});

describe("acquired on 28 February of the year before a leap year", () => {
  test("bought 2024-02-28 (leap year): 12 months from 2024-02-29 end on 2025-02-28 → eligible from 2025-03-01", () => {
    expect(discountEligibleFrom("2024-02-28")).toBe("2025-03-01");
  });

  // Bought 2023-02-28: the count starts 2023-03-01; 12 months from 2023-03-01 end on 2024-02-29
  // (2024 is a leap year), so a sale on 2024-02-29 has only 2023-03-01..2024-02-28 between
  // (365 days, one short of the 366-day 12 months): not eligible; the first eligible date is
  // 2024-03-01. discountEligibleFrom takes the anniversary of the acquisition day (2024-02-28)
  // plus one day, 2024-02-29, one day early.
  it("bought 2023-02-28: a sale on 2024-02-29 is not yet eligible; 2024-03-01 is", () => {
    expect(isDiscountEligible("2023-02-28", "2024-02-29")).toBe(false);
    expect(discountEligibleFrom("2023-02-28")).toBe("2024-03-01");
  });
});
