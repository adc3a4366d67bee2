import { foldParcels, unitsTimeline } from "../../src/modules/ledger";
import { s, t } from "./parcels.helpers";

/**
 * Story: the corners of the bonus rule (docs/rules.md §2). An unpriced bonus over units held
 * splits the parcels whatever `acquisitionDate` it carries (s130-20 dates every bonus unit from its
 * own original parcel); with nothing held there is no parcel to spread over, so the units are a
 * parcel of their own at price × units = 0, dated `acquisitionDate` when given, else the issue
 * date (as before the correction, so such ledgers still fold); a priced bonus keeps a given
 * `acquisitionDate` like a TransferIn.
 */
describe("bonus corners", () => {
  test("an unpriced bonus over units held ignores acquisitionDate: the units keep their parcel's date", () => {
    // Buy 100 @ 10 on 2023-01-10 (1,000); Bonus 10 on 2024-10-01 stating 2020-01-01: 110 units,
    // cost 1,000, acquired 2023-01-10; no parcel dated 2020-01-01.
    const r = foldParcels([
      t(1, "Buy", "2023-01-10", 100, 10),
      t(2, "Bonus", "2024-10-01", 10, 0, { acquisitionDate: "2020-01-01" }),
    ]);
    expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      [1, "2023-01-10", "110", "1000"],
    ]);
  });

  test("a bonus with nothing held is a parcel at no cost, on acquisitionDate when given, else the issue date", () => {
    const stated = foldParcels([t(1, "Bonus", "2024-10-01", 10, 0, { acquisitionDate: "2020-01-01" })]);
    expect(stated.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      [1, "2020-01-01", "10", "0"],
    ]);
    // Sold out, then a bonus (entitled at the record date, issued after the sale): 5 units at 0.
    const after = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 2),
      t(2, "Sell", "2024-03-01", 100, 3),
      t(3, "Bonus", "2024-03-15", 5),
    ]);
    expect(after.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      [1, "2024-01-02", "0", "0"],
      [3, "2024-03-15", "5", "0"],
    ]);
  });

  test("a priced bonus keeps a stated acquisitionDate", () => {
    const r = foldParcels([
      t(1, "Buy", "2019-03-01", 400, 5),
      t(2, "Bonus", "2024-05-01", 100, 2, { acquisitionDate: "2024-04-01" }),
    ]);
    expect(r.parcels.map((p) => [p.tradeId, p.acquisitionDate, s(p.units), s(p.costBaseInBaseCurrency)])).toEqual([
      [1, "2019-03-01", "400", "2000"],
      [2, "2024-04-01", "100", "200"],
    ]);
  });

  test("the units-only timeline agrees with the fold across both kinds of bonus", () => {
    const events = [
      t(1, "Buy", "2019-03-01", 400, 5),
      t(2, "Bonus", "2024-05-01", 100),
      t(3, "Bonus", "2024-06-01", 50, 4),
      t(4, "Sell", "2025-01-10", 120, 6),
    ];
    const fold = foldParcels(events);
    const units = unitsTimeline(events);
    for (const date of ["2024-05-01", "2024-06-01", "2025-01-10"])
      expect([date, s(units.on(date).units)]).toEqual([date, s(fold.timeline.on(date).units)]);
    expect(s(fold.units)).toBe("430");
  });
});
