import { Decimal } from "../../src/lib/money";
import { netCapitalGain, type CgtSummary } from "../../src/modules/tax/cgt";
import { MYTAX_LABELS, myTaxLines, toCents } from "../../src/modules/tax/mytax";
import { allLabels, INCOME_LABELS, type IncomeLabel } from "../../src/modules/tax/taxable-income";
import { d } from "./parcels.helpers";
import { amounts, noCgt } from "./tax.helpers";

/**
 * Story: the myTax label table.
 *
 * Source: docs/reports.md §5.4 ("labels[]: in this order, each once, zeros included: 10L 10M 11S 11T 11U 11V
 * 13U 13C 13Q 13R 18H 18A 18V 20E 20M 20O", "the amount rounded to whole cents (half away from zero)"),
 * §5.1 (18H = totalCapitalGains, 18A = netCapitalGain, 18V = netCapitalLossesCarriedForward);
 * so 0.005 → 0.01.
 */

const ORDER = [
  "10L",
  "10M",
  "11S",
  "11T",
  "11U",
  "11V",
  "13U",
  "13C",
  "13Q",
  "13R",
  "18H",
  "18A",
  "18V",
  "20E",
  "20M",
  "20O",
];
const summaryWith = (over: Partial<CgtSummary>): CgtSummary => ({ ...noCgt(), ...over });
const income = (over: Partial<Record<IncomeLabel, string>>) =>
  allLabels(Object.fromEntries(Object.entries(over).map(([k, v]) => [k, d(v as string)])));

test("every label once, in myTax order, zeros included, for an empty year", () => {
  const lines = myTaxLines(allLabels({}), noCgt());
  expect(lines.map((l) => l.label)).toEqual(ORDER);
  expect(new Set(lines.map((l) => l.label)).size).toBe(16);
  expect(lines.every((l) => l.amount.isZero())).toBe(true);
  expect(MYTAX_LABELS.map((l) => l.label)).toEqual(ORDER);
});

test("allLabels gives every income label (zeros included) in order; 18A and 18V are not income labels", () => {
  const totals = allLabels({ "11T": d(700) });
  expect(Object.keys(totals)).toEqual([...INCOME_LABELS]);
  expect(Object.keys(totals)).toEqual(ORDER.filter((l) => l !== "18A" && l !== "18V"));
  expect(totals["10L"].toFixed()).toBe("0");
  expect(totals["11T"].toFixed()).toBe("700");
});

test("sections and descriptions of the capital gains labels", () => {
  const lines = myTaxLines(allLabels({}), noCgt());
  const byLabel = Object.fromEntries(lines.map((l) => [l.label, [l.section, l.description]]));
  expect(byLabel["18H"]).toEqual(["Capital gains", "Total current year capital gains"]);
  expect(byLabel["18A"]).toEqual(["Capital gains", "Net capital gain"]);
  expect(byLabel["18V"]).toEqual(["Capital gains", "Net capital losses carried forward to later income years"]);
  expect(byLabel["10L"]).toEqual(["Interest", "Gross interest"]);
  expect(byLabel["20O"]).toEqual([
    "Foreign source income and foreign assets or property",
    "Foreign income tax offsets",
  ]);
});

test("to whole cents, half up: 12.345 → 12.35, 0.005 → 0.01, 300.0049 → 300.00, 0.0049 → 0.00", () => {
  const labels = income({
    "10L": "12.345",
    "10M": "0.005",
    "11U": "300.0049",
    "13Q": "0.0049",
    "20E": "99.995",
    "20O": "7.5755",
  });
  const lines = myTaxLines(labels, noCgt());
  const a = amounts(labels);
  expect([a["10L"], a["10M"], a["11U"], a["13Q"], a["20E"], a["20O"]]).toEqual([
    "12.35",
    "0.01",
    "300.00",
    "0.00",
    "100.00",
    "7.58",
  ]);
  // Exactly two decimals on every line.
  expect(lines.every((l) => l.amount.decimalPlaces() <= 2)).toBe(true);
  expect(toCents(d("-0.005")).toFixed(2)).toBe("-0.01"); // half away from zero
});

test("18H, 18A, 18V come from the CGT summary, not from the income totals' 18H", () => {
  // The income totals carry the trusts' 18H (999 here, deliberately different); the line uses the summary.
  const cgt = summaryWith({
    totalCapitalGains: d("1000.125"),
    netCapitalGain: d("500.0625"),
    netCapitalLossesCarriedForward: d("0.004"),
  });
  const a = amounts(income({ "18H": "999" }), cgt);
  // 1000.125 → 1000.13; 500.0625 → 500.06; 0.004 → 0.00.
  expect([a["18H"], a["18A"], a["18V"]]).toEqual(["1000.13", "500.06", "0.00"]);
});

test("a whole year: income labels and a real s100-50 summary side by side", () => {
  // CGT: non-discount 300, discount 1,000, loss 400, carried 500 → 18H 1,300; 18A 200 (see
  // tax.losses-against-non-discount-first); 18V 0.
  const cgt = netCapitalGain({
    gains: [
      { capitalGain: d(300), isDiscountable: false },
      { capitalGain: d(1000), isDiscountable: true },
      { capitalGain: d(-400), isDiscountable: false },
    ],
    trustGains: [],
    carriedForwardLossesAvailable: d(500),
    discountRate: d("0.5"),
  });
  const a = amounts(
    income({ "10L": "12.5", "11T": "700", "11U": "300", "20E": "150", "20M": "150", "20O": "22.5" }),
    cgt,
  );
  expect(a).toEqual({
    "10L": "12.50",
    "10M": "0.00",
    "11S": "0.00",
    "11T": "700.00",
    "11U": "300.00",
    "11V": "0.00",
    "13U": "0.00",
    "13C": "0.00",
    "13Q": "0.00",
    "13R": "0.00",
    "18H": "1300.00",
    "18A": "200.00",
    "18V": "0.00",
    "20E": "150.00",
    "20M": "150.00",
    "20O": "22.50",
  });
});

test("a loss year: 18A 0.00 and 18V the unused loss", () => {
  // Gain 100 (non-discount), loss 350.255, carried 10 → 18V 350.255 − 100 + 10 = 260.255 → 260.26.
  const cgt = netCapitalGain({
    gains: [
      { capitalGain: d(100), isDiscountable: false },
      { capitalGain: d("-350.255"), isDiscountable: false },
    ],
    trustGains: [],
    carriedForwardLossesAvailable: d(10),
    discountRate: d("0.5"),
  });
  const a = amounts({}, cgt);
  expect([a["18H"], a["18A"], a["18V"]]).toEqual(["100.00", "0.00", "260.26"]);
});

test("amounts are Decimals (no floating point): 0.1 + 0.2 stays 0.30", () => {
  const lines = myTaxLines(income({ "10L": new Decimal("0.1").plus("0.2").toFixed() }), noCgt());
  expect(lines[0].amount.toFixed(2)).toBe("0.30");
  expect(Decimal.isDecimal(lines[0].amount)).toBe(true);
});
