import { foldParcels } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

// docs/rules.md §3, Navexa's own example: buy 10 @ $1, buy 10 @ $2, sell 7 @ $3.
const trades = () => [
  t(1, "Buy", "2024-01-10", 10, 1),
  t(2, "Buy", "2024-02-10", 10, 2),
  t(3, "Sell", "2024-03-10", 7, 3),
];

test("FIFO sells the oldest parcel first: gain $14", () => {
  const r = foldParcels(trades(), { methodFor: () => "FIFO" });
  expect(
    r.disposals.map((x) => [
      x.parcelTradeId,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]),
  ).toEqual([[1, "7", "7", "21", "14"]]);
  expect(s(r.units)).toBe("13");
  expect(s(r.costBaseInBaseCurrency)).toBe("23"); // 3 × $1 + 10 × $2
});

test("LIFO sells the newest parcel first: gain $7", () => {
  const r = foldParcels(trades(), { methodFor: () => "LIFO" });
  expect(
    r.disposals.map((x) => [x.parcelTradeId, s(x.units), s(x.costBaseInBaseCurrency), s(x.gainInBaseCurrency)]),
  ).toEqual([[2, "7", "14", "7"]]);
  expect(s(r.costBaseInBaseCurrency)).toBe("16"); // 10 × $1 + 3 × $2
});

test("MaximiseGain takes the cheapest units, MinimiseGain the dearest", () => {
  expect(s(foldParcels(trades(), { methodFor: () => "MaximiseGain" }).disposals[0].gainInBaseCurrency)).toBe("14");
  expect(s(foldParcels(trades(), { methodFor: () => "MinimiseGain" }).disposals[0].gainInBaseCurrency)).toBe("7");
});
