import type { Prisma } from "../../../generated/prisma/client";

/**
 * Which classification fields of a holding are the user's (holding.user_classified): the market-data
 * refresh fills the others from its provider and never touches these (docs/data.md §3).
 */
export const CLASSIFICATION_FIELDS = ["holdingType", "assetClass", "sector", "industry"] as const;
export type ClassificationField = (typeof CLASSIFICATION_FIELDS)[number];

type Values = Partial<Record<ClassificationField, string | null | undefined>>;

/**
 * The list after a user's request, kept a sorted set. A field the request leaves out stays as it
 * was. An explicit null hands the field back to the provider. A value makes the field the user's
 * when it differs from the stored one; the same value changes nothing, so a client that sends a
 * holding back as it read it (provider values included) does not claim them.
 */
export function userClassifiedAfter(current: readonly string[] | null, stored: Values, sent: Values): string[] {
  const fields = new Set(current ?? []);
  for (const f of CLASSIFICATION_FIELDS) {
    const value = sent[f];
    if (value === undefined) continue;
    if (value === null) fields.delete(f);
    else if (value !== (stored[f] ?? null)) fields.add(f);
  }
  return [...fields].sort();
}

/** The list after an update sending `sent`, read in the caller's transaction; undefined: no such holding. */
export async function userClassifiedOnUpdate(
  tx: Prisma.TransactionClient,
  holdingId: number,
  sent: Values,
): Promise<string[] | undefined> {
  const [was] = await tx.$queryRaw<{ a: string | null; s: string | null; i: string | null; uc: string[] | null }[]>`
    SELECT asset_class AS a, sector AS s, industry AS i, user_classified AS uc FROM holding WHERE id = ${holdingId}`;
  return was && userClassifiedAfter(was.uc, { assetClass: was.a, sector: was.s, industry: was.i }, sent);
}
