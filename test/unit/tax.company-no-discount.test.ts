import { foldParcels } from "../../src/modules/ledger";
import { netCapitalGain, type CgtGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { COMPANY, gainsOf } from "./tax.helpers";

/**
 * Story: a company gets no CGT discount.
 *
 * Sources: ITAA 1997 s115-10 (only individuals, trusts and complying super entities get the
 * discount), docs/rules.md §4.1 (Company: none) and §4.4, ATO "Trust capital gains — company
 * beneficiary": a company grosses up a trust's discounted capital gain and gets no discount on it.
 * s100-50: with no discount every gain remaining after losses is in the net capital gain.
 */

test("the company rate is 0", () => {
  expect(s(COMPANY)).toBe("0");
});

test("a share held four years: gain 1,000, no discount, 18A 1,000", () => {
  // Buy 100 @ $10 on 2020-01-02 (1,000), sell 100 @ $20 on 2024-01-02 (2,000): gain 1,000.
  const r = foldParcels([t(1, "Buy", "2020-01-02", 100, 10), t(2, "Sell", "2024-01-02", 100, 20)]);
  const gains = gainsOf(r.disposals, COMPANY);
  expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([["1000", false]]);
  const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: COMPANY });
  expect(
    [
      summary.shortTermGains,
      summary.longTermGains,
      summary.discount,
      summary.totalCapitalGains,
      summary.netCapitalGain,
    ].map(s),
  ).toEqual(["1000", "0", "0", "1000", "1000"]);
});

test("even a gain flagged discountable gets nothing off at rate 0: 18A = all gains", () => {
  const gains: CgtGain[] = [
    { capitalGain: d("1000"), isDiscountable: true },
    { capitalGain: d("250.55"), isDiscountable: false },
  ];
  const r = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: COMPANY });
  // 1,000 + 250.55 = 1,250.55.
  expect([r.discount, r.netCapitalGain, r.totalCapitalGains].map(s)).toEqual(["0", "1250.55", "1250.55"]);
});

test("losses and carried losses come off the whole gain: 1,250.55 − 300 − 200 = 750.55", () => {
  const gains: CgtGain[] = [
    { capitalGain: d("1000"), isDiscountable: true },
    { capitalGain: d("250.55"), isDiscountable: false },
    { capitalGain: d("-300"), isDiscountable: false },
  ];
  const r = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(200), discountRate: COMPANY });
  expect(
    [
      r.capitalLosses,
      r.carriedForwardLossesApplied,
      r.discount,
      r.netCapitalGain,
      r.netCapitalLossesCarriedForward,
    ].map(s),
  ).toEqual(["300", "200", "0", "750.55", "0"]);
});

test("a trust's discounted gain distributed to a company: grossed up ×2 and kept whole", () => {
  // Statement: discounted 150 (→ 300), non-discounted 40. 18H 340; 18A 340 (no discount).
  const trustGains = [{ discountedCapitalGains: d(150), nonDiscountedCapitalGains: d(40) }];
  const r = netCapitalGain({ gains: [], trustGains, carriedForwardLossesAvailable: d(0), discountRate: COMPANY });
  expect([r.trustCapitalGains, r.totalCapitalGains, r.discount, r.netCapitalGain].map(s)).toEqual([
    "340",
    "340",
    "0",
    "340",
  ]);
  // With a 100 loss and 50 carried: 340 − 100 − 50 = 190.
  const withLosses = netCapitalGain({
    gains: [{ capitalGain: d(-100), isDiscountable: false }],
    trustGains,
    carriedForwardLossesAvailable: d(50),
    discountRate: COMPANY,
  });
  expect(s(withLosses.netCapitalGain)).toBe("190");
});

test("MinimiseCGT for a company ranks gains by size alone (no discount to prefer)", () => {
  // Old parcel 100 @ $1 (gain 9/unit) vs recent 100 @ $9.90 (gain 0.10/unit); sell 100 @ $10.
  const events = [
    t(1, "Buy", "2020-01-02", 100, 1),
    t(2, "Buy", "2024-05-01", 100, "9.9"),
    t(3, "Sell", "2024-06-03", 100, 10),
  ];
  const r = foldParcels(events, { methodFor: () => "MinimiseCGT", discountRate: COMPANY });
  // Recent parcel: cost 990, proceeds 1,000, gain 10 → 18A 10 (the old parcel would give 900).
  const summary = netCapitalGain({
    gains: gainsOf(r.disposals, COMPANY),
    trustGains: [],
    carriedForwardLossesAvailable: d(0),
    discountRate: COMPANY,
  });
  expect([r.disposals.map((x) => x.parcelTradeId), s(summary.netCapitalGain)]).toEqual([[2], "10"]);
});
