import { Decimal } from "../../src/lib/money";
import { dividendGross, estimateDividend } from "../../src/modules/income/provider-dividend-estimate";

/**
 * A provider says a dividend's cash per unit and its ex-date; the record's tax fields are
 * estimated from the holding's latest confirmed record (docs/data.md §3). Figures by hand.
 */
const s = (d: Decimal) => d.toFixed(4);

describe("estimating a provider dividend's income record", () => {
  it("gross = amount a unit × units, to 4 decimals", () => {
    // 0.9 × 350 = 315; 0.123456 × 3 = 0.370368 → 0.3704
    expect(s(dividendGross("0.9", "350"))).toBe("315.0000");
    expect(s(dividendGross("0.123456", "3"))).toBe("0.3704");
  });

  it("Australian, no confirmed record: unfranked, no credits", () => {
    const e = estimateDividend(new Decimal(315), true, null);
    expect([s(e.frankedAmount), s(e.unfrankedAmount), s(e.frankingCredits)]).toEqual(["0.0000", "315.0000", "0.0000"]);
    expect(e.estimated).toEqual(["paidDate", "frankedAmount", "frankingCredits"]);
  });

  it("Australian: the franked share and credit ratio of the latest confirmed record carry over", () => {
    // Latest: franked 80, unfranked 20 → 80 % franked; credits 34.2857 on 80 franked.
    // 315 × 0.8 = 252 franked, 63 unfranked; credits 252 × 34.2857 / 80 = 107.999955 → 108.0000.
    const latest = {
      frankedAmount: "80",
      unfrankedAmount: "20",
      frankingCredits: "34.2857",
      foreignIncome: "0",
      withholdingTax: "0",
    };
    const e = estimateDividend(new Decimal(315), true, latest);
    expect([s(e.frankedAmount), s(e.unfrankedAmount), s(e.frankingCredits)]).toEqual([
      "252.0000",
      "63.0000",
      "108.0000",
    ]);
  });

  it("Australian: a franked latest record without credits gets credits at the 30 % company rate", () => {
    // Fully franked 100 → credits 100 × 0.3 / 0.7 = 42.857142… → 42.8571.
    const latest = {
      frankedAmount: "50",
      unfrankedAmount: "0",
      frankingCredits: "0",
      foreignIncome: "0",
      withholdingTax: "0",
    };
    const e = estimateDividend(new Decimal(100), true, latest);
    expect([s(e.frankedAmount), s(e.frankingCredits)]).toEqual(["100.0000", "42.8571"]);
  });

  it("listed elsewhere: foreign income, withholding at the latest confirmed record's rate", () => {
    // Latest: foreign 200, withholding 30 → 15 %; 90 × 0.15 = 13.5.
    const latest = {
      frankedAmount: "0",
      unfrankedAmount: "0",
      frankingCredits: "0",
      foreignIncome: "200",
      withholdingTax: "30",
    };
    const e = estimateDividend(new Decimal(90), false, latest);
    expect([s(e.foreignIncome), s(e.withholdingTax), s(e.frankedAmount), s(e.unfrankedAmount)]).toEqual([
      "90.0000",
      "13.5000",
      "0.0000",
      "0.0000",
    ]);
    expect(e.estimated).toEqual(["paidDate", "withholdingTax"]);
    // No confirmed record: no withholding.
    expect(s(estimateDividend(new Decimal(90), false, null).withholdingTax)).toBe("0.0000");
  });
});
