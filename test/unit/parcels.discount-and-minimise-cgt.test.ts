import { foldParcels, isDiscountEligible } from "../../src/modules/holdings/parcels";
import { d, s, t } from "./parcels.helpers";

describe("CGT discount eligibility (ITAA 1997 s115-25: both end days excluded)", () => {
  test("bought 2023-01-10: a sale on 2024-01-10 is not eligible, 2024-01-11 is", () => {
    expect(isDiscountEligible("2023-01-10", "2024-01-10")).toBe(false);
    expect(isDiscountEligible("2023-01-10", "2024-01-11")).toBe(true);
  });
  test("across a leap day", () => {
    expect(isDiscountEligible("2024-02-29", "2025-02-28")).toBe(false);
    expect(isDiscountEligible("2024-02-29", "2025-03-01")).toBe(true);
    expect(isDiscountEligible("2023-03-01", "2024-03-01")).toBe(false);
    expect(isDiscountEligible("2023-03-01", "2024-03-02")).toBe(true);
  });
});

test("MinimiseCGT sells loss parcels first, then discount-eligible gains, then other gains", () => {
  const events = [
    t(1, "Buy", "2024-05-01", 10, 5), // recent, gain 5/unit at 10 (not discountable)
    t(2, "Buy", "2022-01-01", 10, 4), // old, gain 6/unit → 3 after the discount
    t(3, "Buy", "2024-06-01", 10, 12), // loss 2/unit
    t(4, "Sell", "2024-09-01", 25, 10),
  ];
  const r = foldParcels(events, { methodFor: () => "MinimiseCGT", discountRate: d("0.5") });
  expect(r.disposals.map((x) => [x.parcelTradeId, s(x.units), s(x.gain)])).toEqual([
    [3, "10", "-20"],
    [2, "10", "60"],
    [1, "5", "25"],
  ]);
});

test("a 20,000-trade holding folds with FIFO, every sell served from the oldest parcels", () => {
  const events = [];
  for (let i = 0; i < 10_000; i++) {
    const day = new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);
    events.push(t(2 * i + 1, "Buy", day, 10, 1 + (i % 7)));
    events.push(t(2 * i + 2, "Sell", day, i % 2 === 0 ? 5 : 15, 5));
  }
  const r = foldParcels(events);
  expect(s(r.units)).toBe("0");
  expect(r.disposals.length).toBe(15_000);
  expect(r.parcels.every((p) => p.units.isZero())).toBe(true);
});
