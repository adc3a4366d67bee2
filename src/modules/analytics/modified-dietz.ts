import { dayNumber } from "../ledger";

/**
 * Modified Dietz (docs/rules.md §11.2), pure: `R = (EMV − BMV − ΣCF) / (BMV + Σ wᵢ·CFᵢ)` over the
 * T days `from..to` (both included); an inflow on day d weighs `(to − d + 1) / T` (it is there from the
 * start of its day), an outflow `(to − d) / T` (from its end). A denominator ≤ 0 has no return:
 * null. Annualised by "average years invested" (Navexa, Sharesight): `R × 365 / T`, only when
 * T ≥ 365. This denominator is the one every totalReturn component shares.
 */
export interface DatedAmount {
  /** YYYY-MM-DD */
  date: string;
  /** Signed, base currency: + into the portfolio (or holding), − out of it. */
  amount: number;
}

export interface ModifiedDietzResult {
  /** The denominator (average capital invested); null when ≤ 0. */
  averageCapital: number | null;
  cumulativePercent: number | null;
  annualisedPercent: number | null;
}

export function modifiedDietz(input: {
  openingValue: number;
  closingValue: number;
  flows: readonly DatedAmount[];
  from: string;
  to: string;
}): ModifiedDietzResult {
  const start = dayNumber(input.from);
  const end = dayNumber(input.to);
  const days = end - start + 1;
  let net = 0;
  let weighted = 0;
  for (const f of input.flows) {
    const d = dayNumber(f.date);
    net += f.amount;
    weighted += f.amount * (f.amount > 0 ? end - d + 1 : end - d);
  }
  const averageCapital = input.openingValue + weighted / days;
  if (!(averageCapital > 0)) return { averageCapital: null, cumulativePercent: null, annualisedPercent: null };
  const r = (input.closingValue - input.openingValue - net) / averageCapital;
  return {
    averageCapital,
    cumulativePercent: r * 100,
    annualisedPercent: days >= 365 ? ((r * 365) / days) * 100 : null,
  };
}
