import type { Database } from "../src/db";
import { createAccountKey } from "../src/modules/accounts/accounts.service";

/**
 * The benchmark data (performance.md §6 seed, the part issue 2 covers): one account with 10
 * portfolios × 5 allocation models × 10 buckets, and the seeded sources. Written with raw
 * multi-row INSERTs: seeding is not what is measured.
 */
export async function seedBench(db: Database): Promise<{ key: string }> {
  const { account, key } = await createAccountKey(db.prisma, { accountName: "bench", label: "bench" });
  const portfolios = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     SELECT $1, 'Portfolio ' || g, 'AUD', 'AU', 'Individual', '06-30', now() FROM generate_series(1, 10) g RETURNING id`,
    account.id,
  );
  for (const p of portfolios) {
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO allocation_model (public_id, portfolio_id, name, dimension, is_active, updated_at)
       SELECT gen_random_uuid()::text, $1, 'Model ' || g, 'sector', g = 1, now() FROM generate_series(1, 5) g`,
      p.id,
    );
  }
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO allocation_bucket (model_id, label, target_pct, tolerance_pct, sort_order)
     SELECT m.id, 'Sector ' || g, 10, 2.5, g FROM allocation_model m, generate_series(1, 10) g`,
  );
  return { key };
}
