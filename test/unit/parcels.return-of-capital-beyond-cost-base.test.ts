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
