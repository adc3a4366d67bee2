import { foldParcels, type LedgerEvent } from "../../src/modules/ledger";
import { netCapitalGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { figures, gainsOf, HALF, long, short } from "./tax.helpers";

/**
 * Story: the s100-50 method statement order.
 *
 * Source: ITAA 1997 s100-50 and ATO "Guide to capital gains tax" (Step 3: apply capital losses to
 * capital gains not eligible for the discount first; then net capital losses from earlier years
 * the same way; then the discount to the remaining discount capital gains), docs/rules.md §4.3.
 * Individual: 50 % discount.
 */

test("current-year losses off the non-discount gain first, then the discount gain; carried losses the same; discount on what remains", () => {
  // Non-discount 300, discount 1,000, current losses 150 + 250 = 400, carried 500.
  //   1. losses 400: 300 off the non-discount gain (→ 0), 100 off the discount gain (→ 900);
  //   2. carried 500: nothing non-discount left, 500 off the discount gain (→ 400);
  //   3. discount 50 % × 400 = 200;
  //   4. 18A = 0 + 400 − 200 = 200; 18H = 300 + 1,000 = 1,300; 18V 0.
  const r = netCapitalGain({
    gains: [short(300), long(1000), short(-150), long(-250)],
    trustGains: [],
    carriedForwardLossesAvailable: d(500),
    discountRate: HALF,
  });
  expect(figures(r)).toEqual({
    shortTermGains: "300",
    longTermGains: "1000",
    trustCapitalGains: "0",
    capitalLosses: "400",
    lossesAppliedToShortTerm: "300",
    lossesAppliedToLongTerm: "100",
    carriedForwardLossesAvailable: "500",
    carriedForwardLossesApplied: "500",
    discount: "200",
    totalCapitalGains: "1300",
    netCapitalGain: "200",
    netCapitalLossesCarriedForward: "0",
  });
  // Had the losses gone to the discount gain first: (1,000 − 900) × 50 % + 300 = 350. The rule gives less.
});

test("carried-forward losses also go to the non-discount gain left after step 1 first", () => {
  // Non-discount 600, discount 1,000, current loss 100, carried 800:
  //   1. 100 off the non-discount gain → 500;
  //   2. carried 800: 500 off the non-discount gain (→ 0), 300 off the discount gain (→ 700);
  //   3. discount 350; 4. 18A 350.
  const r = netCapitalGain({
    gains: [short(600), long(1000), short(-100)],
    trustGains: [],
    carriedForwardLossesAvailable: d(800),
    discountRate: HALF,
  });
  expect(
    [
      r.lossesAppliedToShortTerm,
      r.lossesAppliedToLongTerm,
      r.carriedForwardLossesApplied,
      r.discount,
      r.netCapitalGain,
      r.netCapitalLossesCarriedForward,
    ].map(s),
  ).toEqual(["100", "0", "800", "350", "350", "0"]);
});

test("losses beyond every gain: nothing to discount, 18A 0, current and carried leftovers carry forward (18V)", () => {
  // Non-discount 100, discount 200, losses 500, carried 250:
  //   1. 100 + 200 applied, 200 of the current loss left; 2. nothing left to apply the 250 to;
  //   18V = 200 + 250 = 450.
  const r = netCapitalGain({
    gains: [short(100), long(200), long(-500)],
    trustGains: [],
    carriedForwardLossesAvailable: d(250),
    discountRate: HALF,
  });
  expect(
    [
      r.lossesAppliedToShortTerm,
      r.lossesAppliedToLongTerm,
      r.carriedForwardLossesApplied,
      r.discount,
      r.netCapitalGain,
      r.netCapitalLossesCarriedForward,
    ].map(s),
  ).toEqual(["100", "200", "0", "0", "0", "450"]);
});

test("no losses: the discount applies to the discount gain only", () => {
  // 18A = 300 + 50 % × 1,000 = 800.
  const r = netCapitalGain({
    gains: [short(300), long(1000)],
    trustGains: [],
    carriedForwardLossesAvailable: d(0),
    discountRate: HALF,
  });
  expect([r.discount, r.netCapitalGain].map(s)).toEqual(["500", "800"]);
});

test("a trust's non-discount capital gain takes losses before the own discount gain too", () => {
  // Own discount gain 400, loss 100; trust statement: nonDiscounted 60, discounted 20 (grossed up 40).
  //   non-discount: 60; discount: 400 + 40 = 440. Loss 100: 60 off the non-discount, 40 off the discount (→ 400);
  //   discount 200; 18A 200; 18H 400 + 60 + 40 = 500.
  const r = netCapitalGain({
    gains: [long(400), short(-100)],
    trustGains: [{ discountedCapitalGains: d(20), nonDiscountedCapitalGains: d(60) }],
    carriedForwardLossesAvailable: d(0),
    discountRate: HALF,
  });
  expect(
    [r.lossesAppliedToShortTerm, r.lossesAppliedToLongTerm, r.discount, r.netCapitalGain, r.totalCapitalGains].map(s),
  ).toEqual(["60", "40", "200", "200", "500"]);
});

describe("through the parcel fold, three holdings sold in FY2025", () => {
  const fold = (events: LedgerEvent[]) => gainsOf(foldParcels(events).disposals, HALF);
  // X: 100 @ $10 bought 2022-01-03, sold 2024-10-01 @ $20 → +1,000, discountable.
  // Y: 100 @ $5 bought 2024-08-01, sold 2024-11-01 @ $8 → +300, not discountable.
  // Z: 100 @ $10 bought 2023-03-01, sold 2024-12-02 @ $6 → −400: held > 12 months, but a loss is never discounted.
  const gains = () => [
    ...fold([t(1, "Buy", "2022-01-03", 100, 10), t(2, "Sell", "2024-10-01", 100, 20)]),
    ...fold([t(3, "Buy", "2024-08-01", 100, 5), t(4, "Sell", "2024-11-01", 100, 8)]),
    ...fold([t(5, "Buy", "2023-03-01", 100, 10), t(6, "Sell", "2024-12-02", 100, 6)]),
  ];

  test("the disposals are +1,000 (discountable), +300, −400", () => {
    expect(gains().map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([
      ["1000", true],
      ["300", false],
      ["-400", true],
    ]);
  });

  test("with 500 carried in: loss 300 → Y, 100 → X; carried 500 → X; discount 200; 18A 200", () => {
    // As the first test: 1. Y 300 → 0, X 1,000 → 900; 2. X 900 → 400; 3. 200; 4. 200.
    const r = netCapitalGain({
      gains: gains(),
      trustGains: [],
      carriedForwardLossesAvailable: d(500),
      discountRate: HALF,
    });
    expect(
      [
        r.shortTermGains,
        r.longTermGains,
        r.capitalLosses,
        r.lossesAppliedToShortTerm,
        r.lossesAppliedToLongTerm,
        r.carriedForwardLossesApplied,
        r.discount,
        r.netCapitalGain,
        r.totalCapitalGains,
      ].map(s),
    ).toEqual(["300", "1000", "400", "300", "100", "500", "200", "200", "1300"]);
  });
});
