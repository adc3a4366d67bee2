import { foldParcels, type LedgerEvent } from "../../src/modules/ledger";
import { netCapitalGain, type CgtSummary } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { figures, gainsOf, HALF } from "./tax.helpers";

/**
 * Story: Navexa's Minimise-gain parcel methods, through the parcel fold AND the s100-50 summary.
 *
 * Sources: docs/rules.md §3 (Navexa's own example: buy 10 @ $1, buy 10 @ $2, sell 7 @ $3 → FIFO gain
 * $14, LIFO gain $7; MinimiseGain = highest cost per unit first; MinimiseCGT = losses first, then
 * discount-eligible gains, then other gains), ITAA 1997 s115-25 (12 months, both end days
 * excluded), s100-50 (losses against non-discount gains first, discount on what remains).
 */

function summaryOf(
  events: LedgerEvent[],
  method: "FIFO" | "LIFO" | "MinimiseGain" | "MinimiseCGT",
  carried = 0,
): { rows: unknown[]; summary: Record<keyof CgtSummary, string> } {
  const r = foldParcels(events, { methodFor: () => method, discountRate: HALF });
  const summary = netCapitalGain({
    gains: gainsOf(r.disposals, HALF),
    trustGains: [],
    carriedForwardLossesAvailable: d(carried),
    discountRate: HALF,
  });
  return {
    rows: r.disposals.map((x) => [
      x.parcelTradeId,
      s(x.units),
      s(x.costBaseInBaseCurrency),
      s(x.proceedsInBaseCurrency),
      s(x.gainInBaseCurrency),
    ]),
    summary: figures(summary),
  };
}

// docs/rules.md §3 Navexa setup: parcel 1 = 10 @ $1 (cost $10), parcel 2 = 10 @ $2 (cost $20).
const navexa = () => [
  t(1, "Buy", "2024-01-10", 10, 1),
  t(2, "Buy", "2024-02-10", 10, 2),
  t(3, "Sell", "2024-03-10", 7, 3),
];

describe("Navexa's example, sell 7 @ $3 on 2024-03-10 (FY2024, held under 12 months)", () => {
  test("MinimiseGain takes the dearest parcel (2 @ $2/unit): gain $7; 18H 7, 18A 7", () => {
    const { rows, summary } = summaryOf(navexa(), "MinimiseGain");
    // 7 units of parcel 2: cost 7 × $2 = 14, proceeds 7 × $3 = 21, gain 21 − 14 = 7.
    expect(rows).toEqual([[2, "7", "14", "21", "7"]]);
    // Bought 2024-02-10, sold 2024-03-10: not 12 months → a non-discount (short-term) gain.
    // s100-50: no losses, no discount gains → net capital gain = 7.
    expect(summary).toEqual({
      shortTermGains: "7",
      longTermGains: "0",
      trustCapitalGains: "0",
      capitalLosses: "0",
      lossesAppliedToShortTerm: "0",
      lossesAppliedToLongTerm: "0",
      carriedForwardLossesAvailable: "0",
      carriedForwardLossesApplied: "0",
      discount: "0",
      totalCapitalGains: "7",
      netCapitalGain: "7",
      netCapitalLossesCarriedForward: "0",
    });
  });

  test("against FIFO on the same ledger: FIFO's $14 (parcel 1 at $1/unit) is twice MinimiseGain's", () => {
    // FIFO: 7 units of parcel 1: cost 7, proceeds 21, gain 14 (docs/rules.md §3).
    const fifo = summaryOf(navexa(), "FIFO");
    expect(fifo.rows).toEqual([[1, "7", "7", "21", "14"]]);
    expect([fifo.summary.totalCapitalGains, fifo.summary.netCapitalGain]).toEqual(["14", "14"]);
    // LIFO here picks the same parcel as MinimiseGain (the newest is also the dearest): $7.
    expect(summaryOf(navexa(), "LIFO").summary.netCapitalGain).toBe("7");
  });

  test("a second MinimiseGain sell continues dearest first: the 3 left of parcel 2, then parcel 1", () => {
    const events = [...navexa(), t(4, "Sell", "2024-04-10", 5, 3)];
    const { rows, summary } = summaryOf(events, "MinimiseGain");
    // Sell 2: 5 × $3 = 15 proceeds, split by units 3 : 2 → 9 and 6.
    //   parcel 2: 3 units, cost 3 × 2 = 6, gain 9 − 6 = 3; parcel 1: 2 units, cost 2, gain 6 − 2 = 4.
    expect(rows).toEqual([
      [2, "7", "14", "21", "7"],
      [2, "3", "6", "9", "3"],
      [1, "2", "2", "6", "4"],
    ]);
    // All short term: 7 + 3 + 4 = 14 = 18H = 18A.
    expect([summary.shortTermGains, summary.totalCapitalGains, summary.netCapitalGain]).toEqual(["14", "14", "14"]);
  });

  test("sold 2025-03-10 (12 months after parcel 2's 2024-02-10): the $7 gain is discounted to $3.50", () => {
    const events = [
      t(1, "Buy", "2024-01-10", 10, 1),
      t(2, "Buy", "2024-02-10", 10, 2),
      t(3, "Sell", "2025-03-10", 7, 3),
    ];
    const { rows, summary } = summaryOf(events, "MinimiseGain");
    expect(rows).toEqual([[2, "7", "14", "21", "7"]]);
    // s115-25: eligible from 2025-02-11 → discountable; discount 50 % × 7 = 3.5; 18A = 7 − 3.5.
    expect([summary.longTermGains, summary.discount, summary.totalCapitalGains, summary.netCapitalGain]).toEqual([
      "7",
      "3.5",
      "7",
      "3.5",
    ]);
  });
});

describe("MinimiseCGT: a loss parcel goes first, then a discount-eligible gain before a dearer recent one", () => {
  // P1 10 @ $1.50 bought 2023-01-10 (held > 12 months at the sale: gain $1.50/unit, $0.75 after the discount)
  // P2 10 @ $2.00 bought 2024-02-10 (recent: gain $1.00/unit, no discount)
  // P3  2 @ $3.50 bought 2024-02-20 (a loss of $0.50/unit at $3)
  // Sell 9 @ $3 on 2024-03-10 (FY2024).
  const events = () => [
    t(1, "Buy", "2023-01-10", 10, "1.5"),
    t(2, "Buy", "2024-02-10", 10, 2),
    t(3, "Buy", "2024-02-20", 2, "3.5"),
    t(4, "Sell", "2024-03-10", 9, 3),
  ];

  test("MinimiseCGT: P3's 2 loss units, then 7 of P1 (discountable); 18A $4.75", () => {
    const { rows, summary } = summaryOf(events(), "MinimiseCGT");
    // Proceeds 9 × 3 = 27 split 2 : 7 → 6 and 21.
    //   P3: 2 units, cost 7, proceeds 6, gain −1 (a capital loss)
    //   P1: 7 units, cost 7 × 1.5 = 10.5, proceeds 21, gain 10.5 (discountable: bought 2023-01-10)
    expect(rows).toEqual([
      [3, "2", "7", "6", "-1"],
      [1, "7", "10.5", "21", "10.5"],
    ]);
    // s100-50: loss 1 → no non-discount gains, so against the discount gain: 10.5 − 1 = 9.5;
    // discount 50 % × 9.5 = 4.75; net capital gain 4.75; 18H = 10.5 (before losses).
    expect(summary).toEqual({
      shortTermGains: "0",
      longTermGains: "10.5",
      trustCapitalGains: "0",
      capitalLosses: "1",
      lossesAppliedToShortTerm: "0",
      lossesAppliedToLongTerm: "1",
      carriedForwardLossesAvailable: "0",
      carriedForwardLossesApplied: "0",
      discount: "4.75",
      totalCapitalGains: "10.5",
      netCapitalGain: "4.75",
      netCapitalLossesCarriedForward: "0",
    });
  });

  test("MinimiseGain on the same ledger takes P3 then the dearer P2 (no discount): 18A $6", () => {
    const { rows, summary } = summaryOf(events(), "MinimiseGain");
    // Dearest first: P3 ($3.50) 2 units → −1; P2 ($2) 7 units: cost 14, proceeds 21, gain 7 (not discountable).
    expect(rows).toEqual([
      [3, "2", "7", "6", "-1"],
      [2, "7", "14", "21", "7"],
    ]);
    // s100-50: loss 1 against the non-discount gain first: 7 − 1 = 6; no discount gains → 18A 6 (> MinimiseCGT's 4.75).
    expect([
      summary.shortTermGains,
      summary.capitalLosses,
      summary.lossesAppliedToShortTerm,
      summary.discount,
      summary.totalCapitalGains,
      summary.netCapitalGain,
    ]).toEqual(["7", "1", "1", "0", "7", "6"]);
  });

  test("carried-forward losses come off the MinimiseCGT result the same way: $3 carried → 18A $3.25", () => {
    const { summary } = summaryOf(events(), "MinimiseCGT", 3);
    // After the current-year loss: 9.5 of discount gains; carried 3 → 6.5; discount 3.25; 18A 3.25; 18V 0.
    expect([
      summary.carriedForwardLossesApplied,
      summary.discount,
      summary.netCapitalGain,
      summary.netCapitalLossesCarriedForward,
    ]).toEqual(["3", "3.25", "3.25", "0"]);
  });
});
