import { washSaleRisk, WASH_SALE_DAYS } from "../../src/modules/planning/tax-planner";
import { parcel, plan } from "./tax-planner.helpers";

/**
 * Story: a loss harvested around a repurchase. The planner flags a harvest row when its holding
 * acquired units on asOf or in the 30 days before it.
 *
 * Source: ATO Taxation Ruling TR 2008/1 (wash sales: a disposal and reacquisition of substantially
 * the same asset may have the loss denied under Part IVA); docs/reports.md §6.1 (washSaleRisk, and
 * the warning says so).
 */
test("the window is asOf and the 30 days before it: 2026-04-15 counts for 2026-05-15, 2026-04-14 does not", () => {
  expect(WASH_SALE_DAYS).toBe(30);
  expect(washSaleRisk(["2026-04-15"], "2026-05-15")).toBe(true);
  expect(washSaleRisk(["2026-04-14"], "2026-05-15")).toBe(false);
  expect(washSaleRisk(["2026-05-15"], "2026-05-15")).toBe(true);
  // A purchase after asOf is not known to the plan of that day.
  expect(washSaleRisk(["2026-05-16"], "2026-05-15")).toBe(false);
  expect(washSaleRisk(undefined, "2026-05-15")).toBe(false);
});

test("rows of a holding bought back within the window are flagged, with one warning per holding", () => {
  const p = plan({
    asOf: "2026-05-15",
    parcels: [
      // Holding 1: bought 2024, bought again 2026-04-20 (25 days before): both parcels at a loss.
      parcel(1, 11, "2024-01-10", 100, 1500, 900),
      parcel(1, 12, "2026-04-20", 10, 100, 90),
      // Holding 2: last bought 2026-04-14 (31 days before): no risk.
      parcel(2, 21, "2026-04-14", 100, 1000, 800),
    ],
    acquisitions: new Map([
      [1, ["2024-01-10", "2026-04-20"]],
      [2, ["2026-04-14"]],
    ]),
  });
  expect(p.harvest.map((h) => [h.holdingId, h.acquisitionTradeId, h.washSaleRisk])).toEqual([
    [1, 11, true],
    [2, 21, false],
    [1, 12, true],
  ]);
  expect(p.warnings.map((w) => [w.code, w.holdingId])).toEqual([["WASH_SALE_RISK", 1]]);
  expect(p.warnings[0].message).toContain("TR 2008/1");
});

test("a holding without a price on asOf is named in a warning and left out", () => {
  const p = plan({ unpriced: [{ holdingId: 3, symbol: "ZZZ", exchange: "ASX" }] });
  expect(p.warnings.map((w) => [w.code, w.holdingId])).toEqual([["NO_PRICE", 3]]);
  expect(p.harvest).toEqual([]);
});
