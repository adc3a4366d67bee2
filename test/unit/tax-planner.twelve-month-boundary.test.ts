import { discountEligibleFrom } from "../../src/modules/ledger";
import { s } from "./parcels.helpers";
import { parcel, plan } from "./tax-planner.helpers";

/**
 * Story: a parcel bought on 1 July 2025 waits for its discount across the year end.
 *
 * Source: ITAA 1997 s115-25(1), docs/rules.md §4.1 (DOMAIN.md §2): acquired at least 12 months
 * before the CGT event, the day of acquisition and the day of the event both excluded. Bought
 * 2025-07-01, the count starts 2025-07-02; 12 months from then end on 2026-07-01, so the first
 * discountable sale date is 2026-07-02.
 */
const bought = [parcel(1, 11, "2025-07-01", 100, 1000, 1500)];

test("first discountable on 2026-07-02", () => {
  expect(discountEligibleFrom("2025-07-01")).toBe("2026-07-02");
});

test("on 30 June 2026 (FY2026's last day) it waits 2 days: 500 now, 250 from 2026-07-02", () => {
  const p = plan({ asOf: "2026-06-30", parcels: bought });
  expect(
    p.waitForDiscount.map((w) => [
      w.discountEligibleFrom,
      w.daysToWait,
      s(w.gainIfSoldNow),
      s(w.gainIfSoldWhenEligible),
    ]),
  ).toEqual([["2026-07-02", 2, "500", "250"]]);
});

test("on 1 July 2026 (FY2027) it is still not discountable: 1 day to wait", () => {
  const p = plan({ asOf: "2026-07-01", parcels: bought });
  expect(p.waitForDiscount.map((w) => [w.discountEligibleFrom, w.daysToWait])).toEqual([["2026-07-02", 1]]);
});

test("on 2 July 2026 it is discountable: nothing to wait for", () => {
  const p = plan({ asOf: "2026-07-02", parcels: bought });
  expect(p.waitForDiscount).toEqual([]);
  expect(s(p.unrealised.gains)).toBe("500");
});
