import { foldParcels, ParcelError } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

describe("each trade type's effect on parcels (DOMAIN.md §1)", () => {
  test("Buy: cost base is price × units + brokerage", () => {
    const r = foldParcels([t(1, "Buy", "2024-01-02", 100, "12.34", { brokerage: "9.95" })]);
    expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      [1, "2024-01-02", "100", "1243.95"],
    ]);
  });

  test("Sell: proceeds are price × units − brokerage; partial parcel cost base pro rata", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 10, { brokerage: 10 }),
      t(2, "Sell", "2024-06-01", 40, 12, { brokerage: 8 }),
    ]);
    expect(
      r.disposals.map((x) => [
        s(x.units),
        s(x.costBaseInBaseCurrency),
        s(x.proceedsInBaseCurrency),
        s(x.gainInBaseCurrency),
        x.isCgtEvent,
      ]),
    ).toEqual([["40", "404", "472", "68", true]]);
    expect(r.parcels.map((p) => [s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([["60", "606"]]);
  });

  test("OpeningBalance and TransferIn create parcels like a Buy; TransferIn may keep an earlier acquisition date", () => {
    const r = foldParcels([
      t(1, "OpeningBalance", "2024-07-01", 50, 4),
      t(2, "TransferIn", "2024-08-01", 20, 5, { acquisitionDate: "2019-03-04" }),
    ]);
    expect(r.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["2024-07-01", "50", "200"],
      ["2019-03-04", "20", "100"],
    ]);
  });

  test("Bonus without a price joins the open parcels (cost base and date kept); with a price it is a new parcel", () => {
    // ITAA 1997 s130-20 (docs/rules.md §2): 100 @ 2 (200) + 10 bonus units → 110 units, still 200, 2024-01-02.
    const r = foldParcels([t(1, "Buy", "2024-01-02", 100, 2), t(2, "Bonus", "2024-05-01", 10)]);
    expect(r.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["2024-01-02", "110", "200"],
    ]);
    expect(s(r.units)).toBe("110");
    // Taxed as a dividend at 1.50 a unit: a parcel of 10 at 15, acquired on the issue date.
    const priced = foldParcels([t(1, "Buy", "2024-01-02", 100, 2), t(2, "Bonus", "2024-05-01", 10, "1.5")]);
    expect(priced.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["2024-01-02", "100", "200"],
      ["2024-05-01", "10", "15"],
    ]);
  });

  test("DRP allotment creates a parcel at the DRP price", () => {
    const r = foldParcels([t(1, "Buy", "2024-01-02", 100, 2), t(2, "DrpAllotment", "2024-03-20", "3.5", "2.10")]);
    expect(r.parcels.map((p) => [s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["100", "200"],
      ["3.5", "7.35"],
    ]);
  });

  test("Split and Consolidation scale every open parcel's units; cost base and dates stay", () => {
    const split = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 3),
      t(2, "Buy", "2024-02-02", 50, 4),
      t(3, "Split", "2024-03-01", 150),
    ]);
    expect(split.parcels.map((p) => [p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["2024-01-02", "200", "300"],
      ["2024-02-02", "100", "200"],
    ]);
    const consolidation = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 3),
      t(2, "Buy", "2024-02-02", 50, 4),
      t(3, "Consolidation", "2024-03-01", 135),
    ]);
    expect(consolidation.parcels.map((p) => [s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      ["10", "300"],
      ["5", "200"],
    ]);
  });

  test("an uneven split gives its rounding remainder to the last parcel so units add up exactly", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 1, 1),
      t(2, "Buy", "2024-01-03", 1, 1),
      t(3, "Buy", "2024-01-04", 1, 1),
      t(4, "Split", "2024-03-01", 1),
    ]);
    expect(r.parcels.map((p) => s(p.units))).toEqual(["1.33333333", "1.33333333", "1.33333334"]);
    expect(s(r.units)).toBe("4");
  });

  test("ReturnOfCapital and CostBaseDecrease reduce cost base pro rata by units; CostBaseIncrease raises it", () => {
    const events = [
      t(1, "Buy", "2024-01-02", 100, 10),
      t(2, "Buy", "2024-02-02", 300, 20),
      t(3, "ReturnOfCapital", "2024-06-30", 400, "0.5"),
    ];
    const r = foldParcels(events);
    expect(r.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["950", "5850"]);
    expect(r.disposals).toEqual([]);
    const dec = foldParcels([...events.slice(0, 2), t(4, "CostBaseDecrease", "2024-06-30", 400, "0.5")]);
    expect(dec.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["950", "5850"]);
    const inc = foldParcels([...events.slice(0, 2), t(5, "CostBaseIncrease", "2024-06-30", 400, "0.25")]);
    expect(inc.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["1025", "6075"]);
  });

  test("Cancellation disposes of every unit for nothing: a capital loss", () => {
    const r = foldParcels([
      t(1, "Buy", "2023-01-02", 100, 1, { brokerage: 10 }),
      t(2, "Buy", "2024-01-02", 50, 2),
      t(3, "Cancellation", "2024-09-01", 0),
    ]);
    expect(
      r.disposals.map((x) => [
        x.kind,
        x.parcelTradeId,
        s(x.units),
        s(x.proceedsInBaseCurrency),
        s(x.gainInBaseCurrency),
      ]),
    ).toEqual([
      ["Cancellation", 1, "100", "0", "-110"],
      ["Cancellation", 2, "50", "0", "-100"],
    ]);
    expect(s(r.units)).toBe("0");
    expect(s(r.costBaseInBaseCurrency)).toBe("0");
  });

  test("a stored Cancellation with no units held folds to nothing (a new one is refused where it is written)", () => {
    // Recorded before the write refused it (trades.service.ts): the ledger must still fold.
    const r = foldParcels([t(1, "Buy", "2024-01-02", 10, 1), t(2, "Cancellation", "2023-05-01", 0)]);
    expect(r.disposals).toEqual([]);
    expect(s(r.units)).toBe("10");
  });

  test("TransferOut removes parcels without a CGT event", () => {
    const r = foldParcels([t(1, "Buy", "2024-01-02", 100, 1), t(2, "TransferOut", "2024-09-01", 60)]);
    expect(
      r.disposals.map((x) => [x.kind, s(x.units), s(x.costBaseInBaseCurrency), s(x.gainInBaseCurrency), x.isCgtEvent]),
    ).toEqual([["TransferOut", "60", "60", "0", false]]);
    expect(s(r.units)).toBe("40");
  });

  test("a sell beyond the units held is refused, naming the trade", () => {
    expect(() => foldParcels([t(1, "Buy", "2024-01-02", 10, 1), t(2, "Sell", "2024-01-03", 11, 1)])).toThrow(
      ParcelError,
    );
    try {
      foldParcels([t(1, "Buy", "2024-01-02", 10, 1), t(2, "Sell", "2024-01-03", 11, 1)]);
    } catch (error) {
      expect((error as ParcelError).eventKey).toBe("trade 2");
      expect((error as Error).message).toBe("Sell of 11 units on 2024-01-03 exceeds the 10 units held.");
    }
  });

  test("a split, consolidation or capital return with no units held is refused", () => {
    for (const type of ["Split", "Consolidation", "ReturnOfCapital", "CostBaseIncrease"] as const) {
      expect(() => foldParcels([t(1, type, "2024-01-02", 10, 1)])).toThrow(ParcelError);
    }
    expect(() => foldParcels([t(1, "Buy", "2024-01-02", 10, 1), t(2, "Consolidation", "2024-01-03", 10)])).toThrow(
      /would remove all/,
    );
  });
});
