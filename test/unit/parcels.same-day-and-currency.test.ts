import { foldParcels, ParcelError } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

test("same-day events fold in the order they were entered", () => {
  // Entered buy then sell on one day: fine. Entered sell then buy: the sell comes first and is short.
  expect(s(foldParcels([t(1, "Buy", "2024-05-01", 10, 1), t(2, "Sell", "2024-05-01", 10, 2)]).units)).toBe("0");
  const sell = t(2, "Sell", "2024-05-01", 10, 2);
  const buy = t(1, "Buy", "2024-05-01", 10, 1);
  expect(() => foldParcels([sell, buy])).toThrow(ParcelError);
});

test("events are folded by date whatever order they arrive in", () => {
  const r = foldParcels([t(2, "Sell", "2024-06-01", 5, 3), t(1, "Buy", "2024-01-01", 10, 1)]);
  expect(s(r.units)).toBe("5");
});

test("foreign-currency trades are costed in the base currency at their own exchange rate", () => {
  // USD trades in an AUD portfolio; exchangeRate = AUD per USD.
  const r = foldParcels([
    t(1, "Buy", "2024-01-02", 10, 100, { brokerage: 5, exchangeRate: "1.5" }), // (1000 + 5) × 1.5 = 1507.5 AUD
    t(2, "Sell", "2024-08-02", 4, 120, { brokerage: 5, exchangeRate: "1.6" }), // (480 − 5) × 1.6 = 760 AUD
  ]);
  expect(
    r.disposals.map((x) => [s(x.costBaseInBaseCurrency), s(x.proceedsInBaseCurrency), s(x.gainInBaseCurrency)]),
  ).toEqual([["603", "760", "157"]]);
  expect(s(r.costBaseInBaseCurrency)).toBe("904.5");
});

test("amounts are kept to 4 decimals, with the remainder on the last part, so parts add up exactly", () => {
  const r = foldParcels([
    t(1, "Buy", "2024-01-02", 3, "1"),
    t(2, "Sell", "2024-02-02", 1, 1),
    t(3, "Sell", "2024-03-02", 1, 1),
    t(4, "Sell", "2024-04-02", 1, 1),
  ]);
  // cost 3 over three single-unit sells: 1 each, exactly; try an awkward one too
  expect(r.disposals.map((x) => s(x.costBaseInBaseCurrency))).toEqual(["1", "1", "1"]);
  const awkward = foldParcels([
    t(1, "Buy", "2024-01-02", 3, "0.3333"),
    t(2, "Sell", "2024-02-02", 1, 1),
    t(3, "Sell", "2024-03-02", 2, 1),
  ]);
  const costs = awkward.disposals.map((x) => x.costBaseInBaseCurrency);
  expect(costs.map(s)).toEqual(["0.3333", "0.6666"]);
});
