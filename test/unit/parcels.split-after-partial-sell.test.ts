import { foldParcels } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

test("a 2-for-1 split after a partial sell doubles only the units still held; a later sell uses the split units", () => {
  const r = foldParcels([
    t(1, "Buy", "2022-01-10", 100, 10),
    t(2, "Buy", "2022-06-10", 100, 12),
    t(3, "Sell", "2022-09-01", 150, 15), // FIFO: all of parcel 1, half of parcel 2
    t(4, "Split", "2023-01-01", 50), // 50 held → 100
    t(5, "Sell", "2023-03-01", 60, 8),
  ]);
  expect(
    r.disposals.map((x) => [
      x.tradeId,
      x.parcelTradeId,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]),
  ).toEqual([
    [3, 1, "100", "1000", "1500", "500"],
    [3, 2, "50", "600", "750", "150"],
    [5, 2, "60", "360", "480", "120"], // 600 cost for 100 post-split units → 6 a unit
  ]);
  expect(
    r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.originalUnits), s(p.units), s(p.costBaseInBaseCurrency)]),
  ).toEqual([
    [1, "2022-01-10", "100", "0", "0"],
    [2, "2022-06-10", "100", "40", "240"],
  ]);
});
