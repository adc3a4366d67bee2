import { Decimal } from "../../lib/money";

/**
 * How the ledger rounds (docs/rules.md §1): money to 4 decimals (DECIMAL(19,4) columns), units to 8
 * (DECIMAL(28,8)), half-up. Every proportional split gives its rounding remainder to the last part,
 * so the parts add up exactly to the whole.
 */
export const MONEY_DP = 4;
export const UNITS_DP = 8;

/** A money amount as it would be stored: 4 decimals, half-up. */
export function roundMoney(amount: Decimal.Value): Decimal {
  return (amount instanceof Decimal ? amount : new Decimal(amount)).toDecimalPlaces(MONEY_DP, Decimal.ROUND_HALF_UP);
}

/** Units as they would be stored: 8 decimals, half-up. */
export function roundUnits(units: Decimal.Value): Decimal {
  return (units instanceof Decimal ? units : new Decimal(units)).toDecimalPlaces(UNITS_DP, Decimal.ROUND_HALF_UP);
}

/** Splits `total` over `weights`, each part rounded with `round`, the last taking the remainder. */
export function apportion(total: Decimal, weights: Decimal[], round: (d: Decimal) => Decimal): Decimal[] {
  const zero = new Decimal(0);
  const sumW = weights.reduce((s, w) => s.plus(w), zero);
  if (sumW.isZero()) return weights.map(() => zero);
  let given = zero;
  return weights.map((w, i) => {
    if (i === weights.length - 1) return total.minus(given);
    const part = round(total.times(w).div(sumW));
    given = given.plus(part);
    return part;
  });
}
