import { addLabels, labelsOf } from "../../src/modules/tax/taxable-income";
import { d } from "./parcels.helpers";
import { amounts, dividend, text } from "./tax.helpers";

/**
 * Story: a franked dividend on the myTax labels.
 *
 * Sources: ATO "You and your shares" / myTax Dividends: label 11S unfranked amount, 11T franked
 * amount, 11U franking credit, 11V TFN amounts withheld; the franking credit of a dividend franked
 * at the 30 % company rate is D × 30/70 (docs/rules.md §6.1: 700 franked → 300 credit, 1,000 grossed up);
 * TFN withholding is at the top marginal rate (47 %) on the unfranked part. myTax amounts to
 * whole cents (docs/reports.md §5.4).
 */

test("ATO's example: $700 fully franked at 30 % → 11T 700, 11U 300, nothing else", () => {
  // Franking credit 700 × 0.30 / 0.70 = 300; assessable 700 + 300 = 1,000 (docs/rules.md §6.1).
  const labels = labelsOf(dividend({ frankedAmount: d(700), frankingCredits: d(300) }));
  expect(text(labels)).toEqual({ "11T": "700", "11U": "300" });
  expect(labels["11T"]!.plus(labels["11U"]!).toFixed()).toBe("1000");
});

test("the myTax lines of that dividend: 11T 700.00, 11U 300.00, every other label 0.00", () => {
  const lines = amounts(labelsOf(dividend({ frankedAmount: d(700), frankingCredits: d(300) })));
  expect(lines).toEqual({
    "10L": "0.00",
    "10M": "0.00",
    "11S": "0.00",
    "11T": "700.00",
    "11U": "300.00",
    "11V": "0.00",
    "13U": "0.00",
    "13C": "0.00",
    "13Q": "0.00",
    "13R": "0.00",
    "18H": "0.00",
    "18A": "0.00",
    "18V": "0.00",
    "20E": "0.00",
    "20M": "0.00",
    "20O": "0.00",
  });
});

test("a partly franked dividend with TFN withholding: 11S, 11T, 11U (4 dp kept), 11V", () => {
  // $1,000 cash dividend: 600 franked, 400 unfranked. Credit 600 × 30/70 = 257.142857… stored at 4 dp
  // → 257.1429. No TFN quoted: 47 % of the unfranked 400 = 188 withheld (11V).
  const labels = labelsOf(
    dividend({
      frankedAmount: d(600),
      unfrankedAmount: d(400),
      frankingCredits: d("257.1429"),
      withholdingTax: d(188),
    }),
  );
  expect(text(labels)).toEqual({ "11S": "400", "11T": "600", "11U": "257.1429", "11V": "188" });
  // myTax: 257.1429 → 257.14 (cents).
  const lines = amounts(labels);
  expect([lines["11S"], lines["11T"], lines["11U"], lines["11V"]]).toEqual(["400.00", "600.00", "257.14", "188.00"]);
});

test("two dividends add label by label (addLabels), then round once on the myTax line", () => {
  const total = addLabels({}, labelsOf(dividend({ frankedAmount: d(700), frankingCredits: d(300) })));
  addLabels(
    total,
    labelsOf(dividend({ frankedAmount: d(600), unfrankedAmount: d(400), frankingCredits: d("257.1429") })),
  );
  // 11T 700 + 600 = 1300; 11S 400; 11U 300 + 257.1429 = 557.1429 → 557.14 on myTax.
  expect(text(total)).toEqual({ "11T": "1300", "11S": "400", "11U": "557.1429" });
  const lines = amounts(total);
  expect([lines["11S"], lines["11T"], lines["11U"]]).toEqual(["400.00", "1300.00", "557.14"]);
});

test("an unfranked dividend gives 11S only (no credit), and never a trust label", () => {
  expect(text(labelsOf(dividend({ unfrankedAmount: d("55.55") })))).toEqual({ "11S": "55.55" });
});
