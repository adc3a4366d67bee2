import { addLabels, labelsOf } from "../../src/modules/tax/taxable-income";
import { d } from "./parcels.helpers";
import { amounts, dividend, text } from "./tax.helpers";

/**
 * Story: a foreign dividend with foreign tax withheld.
 *
 * Sources: ATO myTax "Foreign source income": 20E assessable foreign source income and 20M other
 * net foreign source income are the gross amount (before the foreign tax), 20O the foreign income
 * tax offset (the foreign tax paid); amounts in AUD (docs/rules.md §6.4: foreign income gives "20E and
 * 20M the foreign income (gross, foreign tax included), 20O the foreign tax paid", "amounts in AUD at the
 * record's own rate"); money 4 dp half-up (docs/rules.md §1), myTax in cents (docs/reports.md §5.4).
 */

test("USD 100 with USD 15 US withholding at 1.5 AUD/USD: 20E 150, 20M 150, 20O 22.5; no dividend labels", () => {
  // Gross USD 100 × 1.5 = AUD 150 (foreign tax included); tax USD 15 × 1.5 = AUD 22.50.
  const labels = labelsOf(dividend({ foreignIncome: d(100), foreignTaxPaid: d(15), exchangeRate: d("1.5") }));
  expect(text(labels)).toEqual({ "20E": "150", "20M": "150", "20O": "22.5" });
  const l = amounts(labels);
  expect([l["20E"], l["20M"], l["20O"], l["11S"], l["11V"]]).toEqual(["150.00", "150.00", "22.50", "0.00", "0.00"]);
});

test("an AUD-denominated foreign amount (rate 1) is taken as is", () => {
  expect(text(labelsOf(dividend({ foreignIncome: d("80.25"), foreignTaxPaid: d("12.04") })))).toEqual({
    "20E": "80.25",
    "20M": "80.25",
    "20O": "12.04",
  });
});

test("each amount converted then rounded to 4 dp (half up); myTax rounds to cents", () => {
  // USD 33.33 × 1.5151 = 50.498283 → 50.4983; USD 5 × 1.5151 = 7.5755.
  const labels = labelsOf(dividend({ foreignIncome: d("33.33"), foreignTaxPaid: d(5), exchangeRate: d("1.5151") }));
  expect(text(labels)).toEqual({ "20E": "50.4983", "20M": "50.4983", "20O": "7.5755" });
  // myTax: 50.4983 → 50.50; 7.5755 → 7.58 (half up at the third decimal 5).
  const l = amounts(labels);
  expect([l["20E"], l["20M"], l["20O"]]).toEqual(["50.50", "50.50", "7.58"]);
});

test("two foreign dividends at different rates add in AUD", () => {
  // USD 100 @ 1.5 = 150 (tax 15 @ 1.5 = 22.5) + USD 200 @ 1.6 = 320 (tax 30 @ 1.6 = 48): 20E 470, 20O 70.5.
  const total = addLabels(
    {},
    labelsOf(dividend({ foreignIncome: d(100), foreignTaxPaid: d(15), exchangeRate: d("1.5") })),
  );
  addLabels(total, labelsOf(dividend({ foreignIncome: d(200), foreignTaxPaid: d(30), exchangeRate: d("1.6") })));
  expect(text(total)).toEqual({ "20E": "470", "20M": "470", "20O": "70.5" });
});

test("a dual-listed dividend with a domestic unfranked part and foreign income: 11S and 20E/20M/20O side by side", () => {
  // AUD 40 unfranked (11S) + AUD 60 foreign income with AUD 9 foreign tax.
  expect(text(labelsOf(dividend({ unfrankedAmount: d(40), foreignIncome: d(60), foreignTaxPaid: d(9) })))).toEqual({
    "11S": "40",
    "20E": "60",
    "20M": "60",
    "20O": "9",
  });
});
