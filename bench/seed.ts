import type { Database } from "../src/db";
import { createAccountKey } from "../src/modules/accounts/accounts.service";

/**
 * The benchmark data (performance.md §6 seed, the part issue 2 covers): one account with 10
 * portfolios × 5 allocation models × 10 buckets, and the seeded sources. Written with raw
 * multi-row INSERTs: seeding is not what is measured.
 */
export async function seedBench(db: Database): Promise<{ key: string; ledgerPortfolioId: number }> {
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
  // The heavy ledger (performance.md §4.3): 50 holdings × 400 trades = 20,000 trades over ten
  // years, each holding buying twice and selling half of it again, so parcels open and close.
  const [ledger] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     VALUES ($1, 'Heavy ledger', 'AUD', 'AU', 'Individual', '06-30', now()) RETURNING id`,
    account.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
     SELECT $1, 'H' || lpad(h::text, 3, '0'), 'ASX', 'Holding ' || h, 'AUD', 'Stock', now() FROM generate_series(1, 50) h`,
    ledger.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, h.id,
            CASE WHEN t % 3 = 2 THEN 'Sell'::"TradeType" ELSE 'Buy'::"TradeType" END,
            DATE '2015-01-01' + (t * 9),
            CASE WHEN t % 3 = 2 THEN -10 ELSE 10 END,
            round((10 + (t % 17) * 0.5 + h.id % 7)::numeric, 2), 9.95, 'AUD', 1, now()
     FROM holding h, generate_series(0, 399) t WHERE h.portfolio_id = $1
     ORDER BY t, h.id`,
    ledger.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO market_price (account_id, symbol, exchange, date, close)
     SELECT $1, symbol, 'ASX', DATE '2025-01-01', 20 + id % 11 FROM holding WHERE portfolio_id = $2`,
    account.id,
    ledger.id,
  );
  return { key, ledgerPortfolioId: ledger.id };
}
