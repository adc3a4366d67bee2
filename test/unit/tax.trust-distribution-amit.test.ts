import {
  amitEvents,
  drpEvent,
  foldParcels,
  isDiscountEligible,
  ParcelError,
  type AmitRow,
} from "../../src/modules/ledger";
import { netCapitalGain, type CgtGain } from "../../src/modules/tax/cgt";
import { incomeYearOf, labelsOf } from "../../src/modules/tax/taxable-income";
import { d, s, t } from "./parcels.helpers";
import { distribution, gainsOf, HALF, text } from "./tax.helpers";

/**
 * Story: a managed fund's (AMIT) distribution through labels, the capital gain and the cost base.
 *
 * Sources: docs/rules.md §6.5 (AMIT component names and labels: nonPrimaryProductionIncome 13U,
 * frankedDistributions 13C, frankingCredits 13Q, tfnWithheld 13R, discountedCapitalGains grossed
 * up for 18H, nonDiscountedCapitalGains 18H, cgtConcessionAmount not assessable,
 * assessableForeignIncome 20E/20M, foreignIncomeTaxOffset 20O, taxDeferred / amitCostBaseDecrease
 * lower the cost base on the paid date like a CostBaseDecrease, amitCostBaseIncrease raises it);
 * ATO "Managed investment trust distributions" / myTax 18H: the trust's discounted capital gain
 * is grossed up (×2, s115-215) and the beneficiary applies its own losses and discount; ITAA 1997
 * s104-107B-C (AMIT cost base net amount); the year of a trust distribution is the year of
 * entitlement (ex-dividend date), a company dividend the year it is paid.
 */

// The fund's statement for the distribution.
const statement = {
  nonPrimaryProductionIncome: "120.5",
  frankedDistributions: "200",
  frankingCredits: "85.7143",
  tfnWithheld: "10",
  discountedCapitalGains: "150",
  nonDiscountedCapitalGains: "40",
  cgtConcessionAmount: "150",
  assessableForeignIncome: "60",
  foreignIncomeTaxOffset: "9",
  taxDeferred: "30",
  amitCostBaseIncrease: "5",
};
const components = () => Object.fromEntries(Object.entries(statement).map(([k, v]) => [k, d(v)]));

describe("labelsOf a distribution with AMIT components", () => {
  test("13U 13C 13Q 13R from the components; 18H = 150 × 2 + 40 = 340; 20E = 20M = 60; 20O 9", () => {
    // The record's own franked/unfranked amounts are ignored when components exist (set to nonsense here).
    const labels = labelsOf(
      distribution({
        components: components(),
        frankedAmount: d(999),
        unfrankedAmount: d(888),
        frankingCredits: d(777),
      }),
    );
    // cgtConcessionAmount (the other half of the discounted gain), taxDeferred and the cost base
    // increase are not income: no label.
    expect(text(labels)).toEqual({
      "13U": "120.5",
      "13C": "200",
      "13Q": "85.7143",
      "13R": "10",
      "18H": "340",
      "20E": "60",
      "20M": "60",
      "20O": "9",
    });
  });

  test("in a foreign currency: every component at the income's rate (USD 150 discounted × 2 + 40 = 340 → AUD 510 at 1.5)", () => {
    const labels = labelsOf(distribution({ components: components(), exchangeRate: d("1.5") }));
    // 120.5 × 1.5 = 180.75; 200 × 1.5 = 300; 85.7143 × 1.5 = 128.57145 → 128.5715 (4 dp, half up); 10 → 15;
    // 340 × 1.5 = 510; 60 → 90; 9 → 13.5.
    expect(text(labels)).toEqual({
      "13U": "180.75",
      "13C": "300",
      "13Q": "128.5715",
      "13R": "15",
      "18H": "510",
      "20E": "90",
      "20M": "90",
      "20O": "13.5",
    });
  });

  test("a trust distribution without components: 13U unfranked, 13C franked, 13Q credits, 13R withholding", () => {
    const labels = labelsOf(
      distribution({
        unfrankedAmount: d(100),
        frankedAmount: d(200),
        frankingCredits: d("85.7143"),
        withholdingTax: d(5),
      }),
    );
    expect(text(labels)).toEqual({ "13U": "100", "13C": "200", "13Q": "85.7143", "13R": "5" });
    // An empty components object counts as none.
    expect(text(labelsOf(distribution({ unfrankedAmount: d(100), components: {} })))).toEqual({ "13U": "100" });
  });
});

describe("netCapitalGain with the distributed capital gains", () => {
  const trust = { discountedCapitalGains: d(150), nonDiscountedCapitalGains: d(40) };

  test("an individual with an own 100 discount gain: 18H 440 (trust grossed up), discount re-applied, 18A 240", () => {
    // Trust: 150 × 2 = 300 discount gain + 40 non-discount; own 100 discount gain.
    // 18H = 100 + 300 + 40 = 440; discount 50 % × (100 + 300) = 200; 18A = 40 + 400 − 200 = 240.
    // (Cross-check: the trust's own net gain 300 − 150 + 40 = 190, plus 100 × 50 % = 50 → 240.)
    const r = netCapitalGain({
      gains: [{ capitalGain: d(100), isDiscountable: true }],
      trustGains: [trust],
      carriedForwardLossesAvailable: d(0),
      discountRate: HALF,
    });
    expect([r.longTermGains, r.trustCapitalGains, r.totalCapitalGains, r.discount, r.netCapitalGain].map(s)).toEqual([
      "100",
      "340",
      "440",
      "200",
      "240",
    ]);
  });

  test("with an own 100 capital loss: 40 off the trust's non-discount gain, 60 off the grossed-up discount gains; 18A 170", () => {
    // Discount gains 400 − 60 = 340; discount 170; 18A 0 + 340 − 170 = 170.
    const gains: CgtGain[] = [
      { capitalGain: d(100), isDiscountable: true },
      { capitalGain: d(-100), isDiscountable: false },
    ];
    const r = netCapitalGain({ gains, trustGains: [trust], carriedForwardLossesAvailable: d(0), discountRate: HALF });
    expect(
      [r.lossesAppliedToShortTerm, r.lossesAppliedToLongTerm, r.discount, r.netCapitalGain, r.totalCapitalGains].map(s),
    ).toEqual(["40", "60", "170", "170", "440"]);
  });

  test("labelsOf's 18H and the summary's totalCapitalGains agree for the same statement", () => {
    const labels = labelsOf(distribution({ components: components() }));
    const r = netCapitalGain({
      gains: [],
      trustGains: [trust],
      carriedForwardLossesAvailable: d(0),
      discountRate: HALF,
    });
    expect(s(labels["18H"]!)).toBe(s(r.totalCapitalGains));
    // Alone: 18A = 40 + 300 × 50 % = 190.
    expect(s(r.netCapitalGain)).toBe("190");
  });
});

describe("amitEvents lower (or raise) the cost base through the fold", () => {
  const row = (over: Partial<AmitRow> = {}): AmitRow => ({
    id: 9,
    portfolioId: 1,
    holdingId: 1,
    paidDate: "2024-07-15",
    exchangeRate: "1",
    components: statement,
    ...over,
  });

  test("taxDeferred 30 − amitCostBaseIncrease 5 = one CostBaseDecrease of 25, flagged fromDistribution", () => {
    const events = amitEvents(row());
    expect(events.map((e) => [e.type, e.date, s(e.units), s(e.price), e.fromDistribution])).toEqual([
      ["CostBaseDecrease", "2024-07-15", "1", "25", true],
    ]);
  });

  test("a net increase is a CostBaseIncrease; no cost base components, no event", () => {
    expect(
      amitEvents(row({ components: { amitCostBaseIncrease: 20, taxDeferred: 5 } })).map((e) => [e.type, s(e.price)]),
    ).toEqual([["CostBaseIncrease", "15"]]);
    expect(amitEvents(row({ components: { nonPrimaryProductionIncome: 10 } }))).toEqual([]);
    expect(amitEvents(row({ components: null }))).toEqual([]);
  });

  test("buy 100 @ $10, decrease 25 on 2024-07-15, sell all @ $12 on 2025-03-03: cost 975, gain 225, 18A 112.50", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 10),
      ...amitEvents(row()),
      t(2, "Sell", "2025-03-03", 100, 12),
    ]);
    // 1,000 − 25 = 975; proceeds 1,200; gain 225; bought 2024-01-02 → eligible from 2025-01-03: discountable.
    expect(r.timeline.on("2024-07-15").costBaseInBaseCurrency.toFixed()).toBe("975");
    expect(
      r.disposals.map((x) => [
        s(x.costBaseInBaseCurrency),
        s(x.gainInBaseCurrency),
        isDiscountEligible(x.acquisitionDate, x.date),
      ]),
    ).toEqual([["975", "225", true]]);
    const gains = gainsOf(r.disposals, HALF);
    const summary = netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });
    expect([s(summary.discount), s(summary.netCapitalGain)]).toEqual(["112.5", "112.5"]);
  });

  test("spread over two parcels by units: 40 over 100 and 300 units → 10 and 30", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 10),
      t(2, "Buy", "2024-03-01", 300, 11),
      ...amitEvents(row({ components: { taxDeferred: 40 } })),
    ]);
    // Parcel 1: 1,000 − 10 = 990; parcel 2: 3,300 − 30 = 3,270; total 4,260.
    expect(r.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["990", "3270"]);
    expect(s(r.costBaseInBaseCurrency)).toBe("4260");
  });

  test("in USD at 1.5: a USD 20 decrease lowers the AUD cost base by 30", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 10, 100, { exchangeRate: "1.5" }),
      ...amitEvents(row({ exchangeRate: "1.5", components: { amitCostBaseDecrease: 20 } })),
    ]);
    // 10 × USD 100 × 1.5 = AUD 1,500; − 20 × 1.5 = 30 → 1,470.
    expect(s(r.costBaseInBaseCurrency)).toBe("1470");
  });

  test("on the paid date it comes before that day's DRP units: the allotted parcel keeps its own cost", () => {
    const drp = drpEvent({ id: 9, paidDate: "2024-07-15", drpQuantity: 10, drpPrice: 11, exchangeRate: 1 });
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 10),
      drp,
      ...amitEvents(row({ components: { taxDeferred: 50 } })),
    ]);
    // All 50 off the 100 units held before the distribution: 950; the DRP parcel 10 × 11 = 110.
    expect(r.parcels.map((p) => s(p.costBaseInBaseCurrency))).toEqual(["950", "110"]);
  });

  test("ignored when no units are held on the paid date (sold before the statement came); a user's CostBaseDecrease is refused", () => {
    const r = foldParcels([
      t(1, "Buy", "2024-01-02", 100, 10),
      t(2, "Sell", "2024-06-03", 100, 12),
      ...amitEvents(row()),
    ]);
    // Nothing changes: the sale's gain stays 1,200 − 1,000 = 200, no ReturnOfCapitalExcess, cost base 0.
    expect(r.disposals.map((x) => [x.kind, s(x.gainInBaseCurrency)])).toEqual([["Sell", "200"]]);
    expect(s(r.costBaseInBaseCurrency)).toBe("0");
    expect(() =>
      foldParcels([
        t(1, "Buy", "2024-01-02", 100, 10),
        t(2, "Sell", "2024-06-03", 100, 12),
        t(3, "CostBaseDecrease", "2024-07-15", 1, 25),
      ]),
    ).toThrow(ParcelError);
  });
});

describe("incomeYearOf", () => {
  test("a trust distribution of 30 June paid in July belongs to the year that ended", () => {
    expect(incomeYearOf({ isTrustIncome: true, exDividendDate: "2025-06-30", paidDate: "2025-07-14" })).toBe(2025);
    expect(incomeYearOf({ isTrustIncome: true, exDividendDate: "2025-07-01", paidDate: "2025-07-14" })).toBe(2026);
  });

  test("a company dividend belongs to the year it is paid", () => {
    expect(incomeYearOf({ isTrustIncome: false, exDividendDate: "2025-06-20", paidDate: "2025-07-05" })).toBe(2026);
    expect(incomeYearOf({ isTrustIncome: false, exDividendDate: "2025-06-02", paidDate: "2025-06-30" })).toBe(2025);
  });
});
