import { Decimal } from "../../src/lib/money";
import { apportion, discountEligibleFrom, discountRateOf, roundMoney } from "../../src/modules/ledger";

/**
 * docs/rules.md §4.1: the CGT discount by entity type, the first discount-eligible day (ITAA 1997
 * s115-25: 12 months, both end days excluded), and docs/rules.md §1's apportioning (parts add up exactly,
 * the last part takes the remainder).
 */
describe("discount rate and eligibility", () => {
  it("50% for individuals and trusts, 33⅓% for SMSFs, none for companies", () => {
    expect(
      ["Individual", "Trust", "SMSF", "Company", undefined].map((e) => discountRateOf(e as never).toFixed(10)),
    ).toEqual(["0.5000000000", "0.5000000000", "0.3333333333", "0.0000000000", "0.5000000000"]);
  });

  it("bought 2024-07-01: a sale on 2025-07-01 is not eligible, one on 2025-07-02 is", () => {
    expect(discountEligibleFrom("2024-07-01")).toBe("2025-07-02");
    // 29 February: the 12 months end on 28 February of a common year, so 1 March is the first day.
    expect(discountEligibleFrom("2024-02-29")).toBe("2025-03-01");
    // Memoised answers are the same answers.
    expect(discountEligibleFrom("2024-07-01")).toBe("2025-07-02");
  });
});

describe("apportioning", () => {
  it("100 over three equal weights: 33.3333, 33.3333 and the remainder 33.3334", () => {
    const parts = apportion(
      new Decimal(100),
      [1, 1, 1].map((w) => new Decimal(w)),
      roundMoney,
    );
    expect(parts.map((p) => p.toFixed())).toEqual(["33.3333", "33.3333", "33.3334"]);
    expect(parts.reduce((s, p) => s.plus(p), new Decimal(0)).toFixed()).toBe("100");
  });

  it("no weight at all gives zeros, never a division by zero", () => {
    expect(apportion(new Decimal(5), [new Decimal(0), new Decimal(0)], roundMoney).map((p) => p.toFixed())).toEqual([
      "0",
      "0",
    ]);
  });
});
