import { Decimal } from "../../lib/money";
import { roundUnits } from "../ledger/rounding";

/**
 * What a provider's split ratio means for one holding (docs/data.md §3). Pure: no Prisma, no clock.
 * A ratio n:d turns every d units into n (Yahoo's `splitRatio`: 2:1 doubles, 1:10 consolidates
 * ten into one).
 */

export const CORPORATE_ACTION_TYPES = ["Split", "Consolidation"] as const;
export type CorporateActionType = (typeof CORPORATE_ACTION_TYPES)[number];

export const CORPORATE_ACTION_STATUSES = ["Pending", "Applied", "Dismissed"] as const;
export type CorporateActionStatus = (typeof CORPORATE_ACTION_STATUSES)[number];

/** More units after (Split), fewer (Consolidation); null for 1:1 or a ratio that is not one. */
export function corporateActionType(numerator: number, denominator: number): CorporateActionType | null {
  if (!(numerator > 0 && denominator > 0) || numerator === denominator) return null;
  return numerator > denominator ? "Split" : "Consolidation";
}

/** The ledger trade that applies a ratio to the units held at the start of its date. */
export interface CorporateActionTrade {
  tradeType: CorporateActionType;
  /** Units gained (Split) or lost (Consolidation), ≥ 0: what a Split or Consolidation trade's quantity means. */
  quantity: Decimal;
  /** Units held after it: held × n / d, to the ledger's 8 decimals. */
  unitsAfter: Decimal;
}

/**
 * The units after are held × n / d rounded as the ledger rounds units (8 decimals, half-up:
 * rounding.ts), and the trade's quantity is the difference from the units held, so the fold's
 * rescale lands exactly on them. Fractions are kept: a broker's rounding of fractional
 * entitlements (down, or cash in lieu) is the user's to record by editing the trade. Null when
 * nothing is held, or the ratio would change nothing or leave nothing.
 */
export function corporateActionTrade(
  held: Decimal,
  numerator: number,
  denominator: number,
): CorporateActionTrade | null {
  const tradeType = corporateActionType(numerator, denominator);
  if (!tradeType || held.lte(0)) return null;
  const unitsAfter = roundUnits(held.times(numerator).div(denominator));
  const quantity = unitsAfter.minus(held).abs();
  if (quantity.isZero() || unitsAfter.lte(0)) return null;
  return { tradeType, quantity, unitsAfter };
}
