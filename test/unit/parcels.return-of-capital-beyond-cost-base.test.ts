import { foldParcels } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

test("a return of capital beyond a parcel's cost base takes it to zero and the excess is a capital gain (CGT event G1)", () => {
  const r = foldParcels([
    t(1, "Buy", "2020-01-02", 100, 1), // cost 100
    t(2, "Buy", "2024-01-02", 100, 3), // cost 300
    t(3, "ReturnOfCapital", "2024-06-30", 200, "1.5"), // 150 per parcel
  ]);
  expect(r.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["0", "150"]);
  expect(
    r.disposals.map((x) => [
      x.kind,
      x.parcelTradeId,
      x.acquisitionDate,
      s(x.units),
      s(x.gainInBaseCurrency),
      x.isCgtEvent,
    ]),
  ).toEqual([["ReturnOfCapitalExcess", 1, "2020-01-02", "0", "50", true]]);
  // A later return of capital on the zero-cost parcel is all gain.
  const later = foldParcels([
    t(1, "Buy", "2020-01-02", 100, 1),
    t(3, "ReturnOfCapital", "2024-06-30", 100, "1.5"),
    t(4, "ReturnOfCapital", "2025-06-30", 100, "0.2"),
  ]);
  expect(later.disposals.map((x) => s(x.gainInBaseCurrency))).toEqual(["50", "20"]);
  expect(s(later.costBaseInBaseCurrency)).toBe("0");
});

test("a capital return, or a cost base change, for more units than are held is refused naming the event", () => {
  // 100 units held; a return of capital of $1 on 3,000 units would lower the cost base by $3,000
  // and make $2,900 of it a capital gain for units that do not exist.
  for (const type of ["ReturnOfCapital", "CostBaseDecrease", "CostBaseIncrease"] as const) {
    expect(() => foldParcels([t(1, "Buy", "2024-01-02", 100, 10), t(2, type, "2024-06-30", 3000, 1)])).toThrow(
      `${type} of 3000 units on 2024-06-30 exceeds the 100 units held.`,
    );
  }
  // On every unit held it is what it always was: 100 × $1 off the $1,000 cost base.
  const r = foldParcels([t(1, "Buy", "2024-01-02", 100, 10), t(2, "ReturnOfCapital", "2024-06-30", 100, 1)]);
  expect(s(r.costBaseInBaseCurrency)).toBe("900");
});
