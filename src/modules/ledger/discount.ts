import { Decimal } from "../../lib/money";

/** The entity types of DOMAIN.md §2, which decide the CGT discount. */
export type EntityType = "Individual" | "Trust" | "SMSF" | "Company";

/** CGT discount by entity type (DOMAIN.md §2): individuals and trusts 50%, SMSFs 33⅓%, companies none. */
export function discountRateOf(entityType: EntityType | undefined): Decimal {
  if (entityType === "Company") return new Decimal(0);
  if (entityType === "SMSF") return new Decimal(1).div(3);
  return new Decimal("0.5");
}

/**
 * ITAA 1997 s115-25: an asset is discount-eligible when acquired at least 12 months before the
 * CGT event, the day of acquisition and the day of the event both excluded. So the event must
 * fall after the first anniversary of the acquisition day plus one day.
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
  // Anniversary of 29 February in a common year is 1 March (the 12 months end on 28 February).
  const anniversary = new Date(Date.UTC(y + 1, m - 1, d));
  if (anniversary.getUTCMonth() !== m - 1) anniversary.setUTCDate(0);
  anniversary.setUTCDate(anniversary.getUTCDate() + 1);
  const from = anniversary.toISOString().slice(0, 10);
  // Dates are few (at most one per calendar day); the cache stays small.
  if (eligibleFromCache.size < 100_000) eligibleFromCache.set(acquisitionDate, from);
  return from;
}
