import { foldParcels, isDiscountEligible } from "../../src/modules/ledger";
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
  expect(r.disposals.map((x) => [x.parcelTradeId, s(x.units), s(x.gainInBaseCurrency)])).toEqual([
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

test("MinimiseCGT for a company (no discount) takes the smallest gain, not the oldest parcel", () => {
  const events = [
    t(1, "Buy", "2020-01-02", 100, 1),
    t(2, "Buy", "2024-05-01", 100, "9.90"),
    t(3, "Sell", "2024-06-03", 100, 10),
  ];
  const company = foldParcels(events, { methodFor: () => "MinimiseCGT", discountRate: d(0) });
  expect(company.disposals.map((x) => [x.parcelTradeId, s(x.gainInBaseCurrency)])).toEqual([[2, "10"]]);
  // With a discount, the MinimiseCGT order (docs/rules.md §3) takes discount-eligible gains before other gains.
  const individual = foldParcels(events, { methodFor: () => "MinimiseCGT", discountRate: d("0.5") });
  expect(individual.disposals.map((x) => x.parcelTradeId)).toEqual([1]);
});

test("every method folds a long ledger with a back-dated parcel, and agrees on the units left", () => {
  const events = [t(0, "Bonus", "2001-01-01", 1, 0, { acquisitionDate: "1999-01-01" })];
  for (let i = 0; i < 2000; i++) {
    const day = new Date(Date.UTC(2001, 0, 2 + i)).toISOString().slice(0, 10);
    events.push(t(2 * i + 1, "Buy", day, 10, 10 + (i % 17) * 0.5));
    events.push(t(2 * i + 2, "Sell", day, 5, 14));
  }
  for (const method of ["FIFO", "LIFO", "MaximiseGain", "MinimiseGain", "MinimiseCGT"] as const) {
    const r = foldParcels(events, { methodFor: () => method });
    expect([method, s(r.units)]).toEqual([method, "10001"]);
    expect(r.parcels.reduce((sum, p) => sum.plus(p.units), d(0)).toFixed()).toBe("10001");
  }
});
