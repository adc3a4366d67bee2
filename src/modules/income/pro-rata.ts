import { Decimal } from "../../lib/money";

/**
 * Pro-rata distributions (docs/rules.md §6.6): a holding's annual statement totals for one year, spread
 * over that year's distributions in proportion to each one's gross amount. Each total is split
 * separately, rounded to 4 decimals, and the last distribution takes the rounding remainder so the
 * parts add up exactly to the totals. Pure.
 */
export function spreadProRata(
  distributions: { id: number; grossAmount: Decimal }[],
  totals: Record<string, Decimal>,
): Map<number, Record<string, Decimal>> {
  const weightTotal = distributions.reduce((s, d) => s.plus(d.grossAmount), new Decimal(0));
  if (distributions.length === 0 || weightTotal.isZero())
    throw new Error("no distribution with a gross amount to spread over");
  const out = new Map<number, Record<string, Decimal>>(distributions.map((d) => [d.id, {}]));
  // The remainder goes to the last distribution with a gross amount: one without gets nothing.
  let last = distributions.length - 1;
  while (distributions[last].grossAmount.isZero()) last--;
  for (const [key, total] of Object.entries(totals)) {
    let given = new Decimal(0);
    distributions.forEach((d, i) => {
      const part =
        i === last
          ? total.minus(given)
          : total.times(d.grossAmount).div(weightTotal).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
      given = given.plus(part);
      out.get(d.id)![key] = part;
    });
  }
  return out;
}

/** Franking credit of a franked amount D at company tax rate t: D × t / (1 − t) (docs/rules.md §6.1). */
export function frankingCredit(franked: Decimal, companyTaxRate: Decimal): Decimal {
  return franked
    .times(companyTaxRate)
    .div(new Decimal(1).minus(companyTaxRate))
    .toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
}
