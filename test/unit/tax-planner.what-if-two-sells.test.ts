import { Decimal } from "../../src/lib/money";
import { ParcelError, type LedgerEvent } from "../../src/modules/ledger";
import {
  foldWithSells,
  whatIfKey,
  whatIfOutcome,
  type PlannedSell,
} from "../../src/modules/planning/tax-planner-what-if";
import { lossLedger } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, HALF } from "./tax.helpers";

/**
 * Story: two sells of one holding planned together (the what-if of docs/reports.md §6.1, simulate
 * sell grown into a plan): each takes its parcels after the ones before it.
 *
 * Ledger (FIFO): buy 100 @ 10 on 2024-07-01 (parcel 1, cost 1,000), buy 100 @ 15 on 2025-09-01
 * (parcel 2, cost 1,500). Sells on 2026-05-15 at 12: first 120, then 50.
 *
 * - Sell 1 (FIFO): all of parcel 1 (proceeds 1,200, gain 200, discountable: held since 2024) and
 *   20 of parcel 2 (cost 300, proceeds 240, loss 60).
 * - Sell 2 takes 50 of what is left of parcel 2: cost 750, proceeds 600, loss 150.
 * The year: a 200 discount gain, 210 of losses: 200 off the gain, 10 carried forward; net 0.
 * Before: nothing sold, net 0. Difference: 0 net, +10 carried forward.
 */
const ledger: LedgerEvent[] = [t(1, "Buy", "2024-07-01", 100, 10), t(2, "Buy", "2025-09-01", 100, 15)];
const sell = (units: number, over: Partial<PlannedSell> = {}): PlannedSell => ({
  holdingId: 7,
  date: "2026-05-15",
  units: d(units),
  price: d(12),
  brokerage: d(0),
  exchangeRate: d(1),
  method: "FIFO",
  ...over,
});
const fold = (sells: PlannedSell[], events = ledger) =>
  foldWithSells(
    () => events,
    () => "FIFO",
    HALF,
    sells,
  ).get(7)!;
const parcelsOf = (disposals: ReturnType<typeof fold>["disposals"], i: number) =>
  disposals
    .filter((x) => x.eventKey === whatIfKey(i))
    .map((x) => [
      x.parcelTradeId,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]);

test("the second sell takes its parcels after the first", () => {
  const r = fold([sell(120), sell(50)]);
  expect(parcelsOf(r.disposals, 0)).toEqual([
    [1, "100", "1000", "1200", "200"],
    [2, "20", "300", "240", "-60"],
  ]);
  expect(parcelsOf(r.disposals, 1)).toEqual([[2, "50", "750", "600", "-150"]]);
  expect(s(r.units)).toBe("30");
});

test("in the other order, the 50 come out of parcel 1 first", () => {
  const r = fold([sell(50), sell(120)]);
  expect(parcelsOf(r.disposals, 0)).toEqual([[1, "50", "500", "600", "100"]]);
  expect(parcelsOf(r.disposals, 1)).toEqual([
    [1, "50", "500", "600", "100"],
    [2, "70", "1050", "840", "-210"],
  ]);
});

test("the year before and after: net 0 either way, 10 more carried forward", () => {
  const r = fold([sell(120), sell(50)]);
  const before = lossLedger(new Map(), new Map(), HALF, 2026);
  const after = lossLedger(
    new Map([[2026, { gains: gainsOf(r.disposals, HALF), trustGains: [] }]]),
    new Map(),
    HALF,
    2026,
  );
  const o = whatIfOutcome(before, after, d(37));
  expect([
    s(o.after.longTermGains),
    s(o.after.capitalLosses),
    s(o.after.lossesAppliedToLongTerm),
    s(o.after.netCapitalGain),
    s(o.after.netCapitalLossesCarriedForward),
  ]).toEqual(["200", "210", "200", "0", "10"]);
  expect([
    s(o.difference.netCapitalGain),
    s(o.difference.netCapitalLossesCarriedForward),
    s(o.difference.estimatedTax as Decimal),
  ]).toEqual(["0", "10", "0"]);
});

test("more units than held names the sell: 120 then 90 of 200", () => {
  expect(() => fold([sell(120), sell(90)])).toThrow(ParcelError);
  expect(() => fold([sell(120), sell(90)])).toThrow(
    "sells[1]: Sell of 90 units on 2026-05-15 exceeds the 80 units held.",
  );
});

test("a sell that leaves a later recorded sell short names the sells and that trade", () => {
  const withLaterSell = [...ledger, t(3, "Sell", "2026-06-01", 150, 13)];
  expect(() => fold([sell(100)], withLaterSell)).toThrow(
    "sells[0] would leave trade 3 of holding 7 without the units it needs: Sell of 150 units on 2026-06-01 exceeds the 100 units held.",
  );
});
