import { Decimal } from "../../src/lib/money";
import { bucket, holding, legsOf, plan } from "./rebalance.helpers";

describe("warnings a user can act on, and deterministic ties", () => {
  it("a bucket with no holding and no price: a warning, no leg; a holding bucket for a new security: bought at its market price", () => {
    const r = plan({
      dimension: "holding",
      buckets: [bucket("CBA.ASX", 50, 0, 1), bucket("BHP.ASX", 25, 0, 2), bucket("XYZ.ASX", 25, 0, 3)],
      holdings: [holding(1, "CBA.ASX", 1000)],
      newSecurities: [
        { label: "BHP.ASX", symbol: "BHP", exchange: "ASX", price: new Decimal(40), rate: new Decimal(1) },
      ],
      cashToInvest: new Decimal(1000),
      band: "ExactTarget",
    });
    // Total 2,000: CBA holds its 1,000 target; BHP wants 500 = 12 whole units of 40 (480); XYZ has nothing to buy.
    expect(legsOf(r)).toEqual(["Buy 12 BHP = 480"]);
    expect(r.legs[0].holdingId).toBeNull();
    expect(r.warnings.map((w) => [w.code, w.label ?? null])).toEqual([
      ["NO_HOLDING_NO_PRICE", "XYZ.ASX"],
      ["WHOLE_UNITS_CASH", null],
    ]);
    expect(r.cashRemaining.toFixed()).toBe("520");
  });

  it("a leg below minTradeValue is dropped with a warning and its cash kept", () => {
    // 1,040 / 960 against 50/50: selling 40 of A is below 50, so it is not made, and B's buy has
    // no cash to spend.
    const r = plan({
      buckets: [bucket("A", 50, 0, 1), bucket("B", 50, 0, 2)],
      holdings: [holding(1, "A", 1040), holding(2, "B", 960)],
      band: "ExactTarget",
      minTradeValue: new Decimal(50),
    });
    expect(legsOf(r)).toEqual([]);
    expect(r.warnings.map((w) => [w.code, w.holdingId])).toEqual([["BELOW_MIN_TRADE", 1]]);
    expect(r.cashRemaining.toFixed()).toBe("0");
    // 30 to invest into B's 1,015 gap: a 30 buy is below 50 and stays cash.
    const small = plan({
      buckets: [bucket("A", 50, 0, 1), bucket("B", 50, 0, 2)],
      holdings: [holding(1, "A", 1040), holding(2, "B", 0)],
      mode: "BuyOnly",
      band: "ExactTarget",
      cashToInvest: new Decimal(30),
      minTradeValue: new Decimal(50),
    });
    expect([legsOf(small), small.warnings.map((w) => w.code), small.cashRemaining.toFixed()]).toEqual([
      [],
      ["BELOW_MIN_TRADE"],
      "30",
    ]);
  });

  it("a holding with no price is valued at 0, not traded, and named in a warning", () => {
    const r = plan({
      buckets: [bucket("A", 50, 0, 1), bucket("B", 50, 0, 2)],
      holdings: [holding(1, "A", 1000), holding(2, "B", 10, null)],
      band: "ExactTarget",
    });
    expect(r.warnings.map((w) => [w.code, w.holdingId])).toEqual([["NO_PRICE", 2]]);
    expect(legsOf(r)).toEqual(["Sell 500 H1 = 500"]);
    expect(r.cashRemaining.toFixed()).toBe("500");
  });

  it("ties break by sortOrder, then label, then holding id", () => {
    const r = plan({
      buckets: [
        bucket("Zeta", 25, 0, 1),
        bucket("Alpha", 25, 0, 2),
        bucket("Beta", 25, 0, 2),
        bucket("Gamma", 25, 0, 0),
      ],
      holdings: [holding(4, "Zeta", 0), holding(3, "Alpha", 0), holding(2, "Beta", 0), holding(1, "Gamma", 0)],
      cashToInvest: new Decimal(400),
      mode: "BuyOnly",
    });
    expect(r.driftReport.entries.map((e) => e.label)).toEqual(["Gamma", "Zeta", "Alpha", "Beta"]);
    expect(legsOf(r)).toEqual(["Buy 100 H1 = 100", "Buy 100 H4 = 100", "Buy 100 H3 = 100", "Buy 100 H2 = 100"]);
  });
});
