import { Decimal } from "../../src/lib/money";
import { tradeEvent } from "../../src/modules/ledger";
import { bucket, holding, legsOf, plan } from "./rebalance.helpers";

/**
 * taxAware: the sell leg takes the loss parcel first (docs/reports.md §4.2 taxAware, the MinimiseCGT order).
 * Parcels: 100 @ 10 (2020-01-02) and 100 @ 20 (2024-01-02); price now 15; 3,000 / 1,000 against
 * 50/50: sell 1,000 = 66.666… → whole units 66 of the 2024 parcel (cost 20 > 15: a loss).
 * Gain: 66 × 15 − 66 × 20 = 990 − 1,320 = −330. FIFO would have taken the 2020 parcel (+330).
 */
describe("a tax-aware sell takes the loss parcel", () => {
  const events = [
    tradeEvent({
      id: 1,
      holdingId: 1,
      tradeType: "Buy",
      tradeDate: "2020-01-02",
      quantity: "100",
      price: "10",
      brokerage: "0",
      exchangeRate: "1",
      acquisitionDate: null,
    }),
    tradeEvent({
      id: 2,
      holdingId: 1,
      tradeType: "Buy",
      tradeDate: "2024-01-02",
      quantity: "100",
      price: "20",
      brokerage: "0",
      exchangeRate: "1",
      acquisitionDate: null,
    }),
  ];
  const input = {
    buckets: [bucket("A", 50, 0, 1), bucket("B", 50, 0, 2)],
    holdings: [holding(1, "A", 200, 15, { events }), holding(2, "B", 1000)],
  };

  it("with the gain estimated by the parcel fold", () => {
    const r = plan({ ...input, taxAware: true });
    expect(legsOf(r)[0]).toBe("Sell 66 H1 = 990");
    const sell = r.legs[0];
    expect(sell.estimatedCapitalGain?.toFixed()).toBe("-330");
    expect(
      sell.parcels?.map((p) => [
        p.tradeId,
        p.acquisitionDate,
        p.units.toFixed(),
        p.costBase.toFixed(),
        p.capitalGain.toFixed(),
      ]),
    ).toEqual([[2, "2024-01-02", "66", "1320", "-330"]]);
  });

  it("without taxAware a leg carries no estimate", () => {
    const r = plan(input);
    expect(r.legs[0].estimatedCapitalGain).toBeUndefined();
    expect(r.legs[0].quantity).toEqual(new Decimal(66));
  });
});
