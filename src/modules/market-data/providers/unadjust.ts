import { Decimal } from "../../../lib/money";
import type { SplitEvent } from "./provider";

/**
 * Undoes a provider's split adjustment (docs/data.md §1.1). Yahoo reports closes and dividend
 * amounts adjusted for every later split; the service stores what traded on the day, because the
 * ledger's units before a split are the units held then. A value dated before a split's date is
 * multiplied by that split's numerator/denominator (by the product, for several later splits); a
 * value on the split date already trades post-split and is left alone.
 */
export function unadjustForSplits(value: Decimal.Value, date: string, splits: readonly SplitEvent[]): Decimal {
  let numerator = new Decimal(1);
  let denominator = new Decimal(1);
  for (const split of splits) {
    if (!(split.numerator > 0 && split.denominator > 0)) {
      throw new RangeError(`split on ${split.date} has a non-positive ratio ${split.numerator}:${split.denominator}`);
    }
    if (date < split.date) {
      numerator = numerator.times(String(split.numerator));
      denominator = denominator.times(String(split.denominator));
    }
  }
  // Multiply before dividing, once: a 1:3 consolidation of 30 gives exactly 10, not 30 × 0.333….
  return new Decimal(value).times(numerator).div(denominator);
}
