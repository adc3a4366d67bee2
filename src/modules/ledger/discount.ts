import { Decimal } from "../../lib/money";

/** The entity types of docs/rules.md §4.1, which decide the CGT discount. */
export type EntityType = "Individual" | "Trust" | "SMSF" | "Company";

/** CGT discount by entity type (docs/rules.md §4.1): individuals and trusts 50%, SMSFs 33⅓%, companies none. */
export function discountRateOf(entityType: EntityType | undefined): Decimal {
  if (entityType === "Company") return new Decimal(0);
  if (entityType === "SMSF") return new Decimal(1).div(3);
  return new Decimal("0.5");
}

/**
 * The discount as an answer writes it (`discountPercent`): a percentage to two decimals, half up
 * (an SMSF's 33⅓ % is 33.33, as the ATO's tables print it), not the rate's 40 digits. Only for
 * display: every figure is computed with the exact rate (discountRateOf).
 */
export function discountPercentOf(rate: Decimal): Decimal {
  return rate.times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/**
 * ITAA 1997 s115-25: an asset is discount-eligible when acquired at least 12 months before the
 * CGT event, the day of acquisition and the day of the event both excluded. So the event must
 * fall on or after the first anniversary of the day after acquisition.
 */
export function isDiscountEligible(acquisitionDate: string, eventDate: string): boolean {
  return eventDate >= discountEligibleFrom(acquisitionDate);
}

const eligibleFromCache = new Map<string, string>();

/** The first CGT event date on which an asset acquired on `acquisitionDate` is discount-eligible. */
export function discountEligibleFrom(acquisitionDate: string): string {
  const known = eligibleFromCache.get(acquisitionDate);
  if (known) return known;
  const [y, m, d] = acquisitionDate.split("-").map(Number);
  // The count starts the day after acquisition (both end days excluded; Acts Interpretation Act
  // s2G), so 12 months have passed on that day's first anniversary: bought 2024-07-01, eligible
  // from 2025-07-02; bought 2024-02-29, from 2025-03-01; bought 2023-02-28, from 2024-03-01 (not
  // 29 February: only 365 days would lie between).
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  const from = new Date(Date.UTC(next.getUTCFullYear() + 1, next.getUTCMonth(), next.getUTCDate()))
    .toISOString()
    .slice(0, 10);
  // Dates are few (at most one per calendar day); the cache stays small.
  if (eligibleFromCache.size < 100_000) eligibleFromCache.set(acquisitionDate, from);
  return from;
}
