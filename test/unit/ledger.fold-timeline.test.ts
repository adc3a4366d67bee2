import { Decimal } from "../../src/lib/money";
import { foldParcels, type LedgerEvent } from "../../src/modules/ledger";

/**
 * The fold's timeline (docs/rules.md §1): units and cost base after every event, and on any date by
 * binary search. Story: buy 10 @ 1 (01-02), buy 10 @ 2 and sell 7 @ 3 the same day (01-03, in
 * entry order), split 1 → 2 (01-05), return of capital 0.1 per unit on 26 units (01-08).
 *   after 01-02: 10 units, cost 10
 *   after 01-03: 20 units cost 30, then FIFO sell of 7 from the 10 @ 1: 13 units, cost 23
 *   after 01-05: 26 units, cost 23 (a split keeps the cost)
 *   after 01-08: 26 units, cost 23 − 2.6 = 20.4
 */
let seq = 0;
const ev = (type: LedgerEvent["type"], date: string, units: string, price = "0"): LedgerEvent => ({
  key: `e${++seq}`,
  tradeId: seq,
  type,
  date,
  seq,
  units: new Decimal(units),
  price: new Decimal(price),
  brokerage: new Decimal(0),
  exchangeRate: new Decimal(1),
});

describe("the fold's timeline", () => {
  const fold = foldParcels([
    ev("Buy", "2024-01-02", "10", "1"),
    ev("Buy", "2024-01-03", "10", "2"),
    ev("Sell", "2024-01-03", "7", "3"),
    ev("Split", "2024-01-05", "13"),
    ev("ReturnOfCapital", "2024-01-08", "26", "0.1"),
  ]);
  const on = (date: string) => {
    const p = fold.timeline.on(date);
    return [p.units.toFixed(), p.costBaseInBaseCurrency.toFixed()];
  };

  it("after every event, in ledger order", () => {
    expect(
      fold.timeline.afterEvent.map((p) => [p.date, p.units.toFixed(), p.costBaseInBaseCurrency.toFixed()]),
    ).toEqual([
      ["2024-01-02", "10", "10"],
      ["2024-01-03", "20", "30"],
      ["2024-01-03", "13", "23"],
      ["2024-01-05", "26", "23"],
      ["2024-01-08", "26", "20.4"],
    ]);
  });

  it("on a date: the position after that day's last event", () => {
    expect(on("2024-01-01")).toEqual(["0", "0"]);
    expect(on("2024-01-02")).toEqual(["10", "10"]);
    expect(on("2024-01-03")).toEqual(["13", "23"]);
    expect(on("2024-01-04")).toEqual(["13", "23"]);
    expect(on("2024-01-07")).toEqual(["26", "23"]);
    expect(on("2030-01-01")).toEqual(["26", "20.4"]);
  });

  it("the running total is the sum of the parcels at the end", () => {
    const sum = fold.parcels.reduce((s, p) => s.plus(p.costBaseInBaseCurrency), new Decimal(0));
    expect([fold.costBaseInBaseCurrency.toFixed(), fold.units.toFixed()]).toEqual([sum.toFixed(), "26"]);
  });

  it("a return of capital beyond the cost base floors the running total at zero, like the parcels", () => {
    const f = foldParcels([ev("Buy", "2024-01-02", "10", "1"), ev("ReturnOfCapital", "2024-02-01", "10", "1.5")]);
    expect([
      f.timeline.on("2024-02-01").costBaseInBaseCurrency.toFixed(),
      f.disposals[0].gainInBaseCurrency.toFixed(),
    ]).toEqual(["0", "5"]);
  });
});
