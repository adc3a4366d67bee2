import { foldParcels, ParcelError } from "../../src/modules/ledger";
import { d, s, t } from "./parcels.helpers";

const buys = () => [
  t(1, "Buy", "2024-01-10", 10, 1),
  t(2, "Buy", "2024-02-10", 10, 2),
  t(3, "Buy", "2024-03-10", 10, 3),
];

test("manual parcels override the method and may span parcels", () => {
  const sell = t(4, "Sell", "2024-04-10", 12, 4, {
    parcels: [
      { tradeId: 3, units: d(10) },
      { tradeId: 1, units: d(2) },
    ],
  });
  const r = foldParcels([...buys(), sell], { methodFor: () => "FIFO" });
  expect(
    r.disposals.map((x) => [x.parcelTradeId, s(x.units), s(x.costBaseInBaseCurrency), s(x.gainInBaseCurrency)]),
  ).toEqual([
    [3, "10", "30", "10"],
    [1, "2", "2", "6"],
  ]);
  expect(r.parcels.map((p) => s(p.units))).toEqual(["8", "10", "0"]);
});

test("manual parcels must add up to the units sold and exist with enough units", () => {
  const run = (parcels: { tradeId: number; units: number }[], units = 5) =>
    foldParcels([
      ...buys(),
      t(4, "Sell", "2024-04-10", units, 4, {
        parcels: parcels.map((p) => ({ tradeId: p.tradeId, units: d(p.units) })),
      }),
    ]);
  expect(() => run([{ tradeId: 1, units: 4 }])).toThrow(/hold 4 units; the trade disposes of 5/);
  expect(() => run([{ tradeId: 9, units: 5 }])).toThrow(/trade 9 is not a parcel/);
  expect(() => run([{ tradeId: 1, units: 11 }], 11)).toThrow(ParcelError);
  expect(() =>
    run(
      [
        { tradeId: 1, units: 6 },
        { tradeId: 1, units: 5 },
      ],
      11,
    ),
  ).toThrow(/holds 4 units/);
});

test("a parcel acquired after the sell cannot be selected", () => {
  const events = [
    t(1, "Buy", "2024-01-10", 10, 1),
    t(2, "Sell", "2024-02-10", 5, 2, { parcels: [{ tradeId: 3, units: d(5) }] }),
    t(3, "Buy", "2024-03-10", 10, 3),
  ];
  expect(() => foldParcels(events)).toThrow(/trade 3 is not a parcel of this holding acquired before 2024-02-10/);
});
