import { Decimal, ZERO } from "../../lib/money";
import { frankingCredit } from "./pro-rata";

/**
 * What an income record made from a provider's dividend holds (docs/data.md §3). A provider says
 * the cash amount per unit and the ex-date, nothing about tax: the rest is estimated from the
 * holding's latest confirmed record, and the fields estimated are listed so the user knows what
 * to check before confirming. Pure.
 */

/** The amounts of the holding's latest confirmed income record (the estimate's pattern). */
export interface ConfirmedPattern {
  frankedAmount: Decimal.Value;
  unfrankedAmount: Decimal.Value;
  frankingCredits: Decimal.Value;
  foreignIncome: Decimal.Value;
  withholdingTax: Decimal.Value;
}

export interface DividendEstimate {
  frankedAmount: Decimal;
  unfrankedAmount: Decimal;
  frankingCredits: Decimal;
  foreignIncome: Decimal;
  withholdingTax: Decimal;
  estimated: string[];
}

/** A company's franking credit when no confirmed record says otherwise: the 30 % rate. */
const DEFAULT_COMPANY_TAX_RATE = new Decimal("0.3");

const money = (d: Decimal) => d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);

/** The cash the dividend pays on the units: amount per unit × units, to the cent's hundredth. */
export const dividendGross = (amountPerUnit: Decimal.Value, units: Decimal.Value) =>
  money(new Decimal(amountPerUnit).times(units));

/**
 * Australian-listed: the franked share of the amount is that of the latest confirmed record (else
 * unfranked), its credits in the same proportion to the franked amount (else at 30 %). Listed
 * elsewhere: foreign income, with withholding tax at the latest confirmed record's rate (else 0).
 * The paid date (the ex-date until confirmed) is always an estimate.
 */
export function estimateDividend(
  gross: Decimal,
  listedInAustralia: boolean,
  latest: ConfirmedPattern | null,
): DividendEstimate {
  if (listedInAustralia) {
    const franked0 = new Decimal(latest?.frankedAmount ?? 0);
    const whole = franked0.plus(latest?.unfrankedAmount ?? 0);
    const frankedAmount = whole.gt(0) ? money(gross.times(franked0).div(whole)) : ZERO;
    const credits0 = new Decimal(latest?.frankingCredits ?? 0);
    const frankingCredits =
      franked0.gt(0) && credits0.gt(0)
        ? money(frankedAmount.times(credits0).div(franked0))
        : frankingCredit(frankedAmount, DEFAULT_COMPANY_TAX_RATE);
    return {
      frankedAmount,
      unfrankedAmount: gross.minus(frankedAmount),
      frankingCredits,
      foreignIncome: ZERO,
      withholdingTax: ZERO,
      estimated: ["paidDate", "frankedAmount", "frankingCredits"],
    };
  }
  const foreign0 = new Decimal(latest?.foreignIncome ?? 0);
  const withholdingTax = foreign0.gt(0) ? money(gross.times(latest!.withholdingTax).div(foreign0)) : ZERO;
  return {
    frankedAmount: ZERO,
    unfrankedAmount: ZERO,
    frankingCredits: ZERO,
    foreignIncome: gross,
    withholdingTax,
    estimated: ["paidDate", "withholdingTax"],
  };
}
