import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";
import { unitsHeldAtStartOfSql } from "../ledger/units-held";
import type { SecurityRef } from "./providers/provider";

/**
 * Offers the provider's splits of a security (provider_split) as pending corporate actions to
 * every holding of it, in any account, with units at the start of the split's date
 * (docs/data.md §3). Idempotent per (holding, date). Answers the actions created.
 *
 * One statement for every split and holding of the security:
 * - units at the start of the date: ledger/units-held.ts, the rule the dividends use too;
 * - a 1:1 ratio, or one that is not a ratio, is no action;
 * - a holding whose user recorded a Split or Consolidation on that date already has it;
 * - ON CONFLICT DO NOTHING: an action once offered stays as its user left it (pending, applied or
 *   dismissed), so a later run never offers it again.
 */
export async function offerCorporateActions(db: PrismaClient, security: SecurityRef): Promise<number> {
  return db.$executeRaw`
    INSERT INTO corporate_action (portfolio_id, holding_id, type, date, numerator, denominator, updated_at)
    SELECT h.portfolio_id, h.id,
           (CASE WHEN s.numerator > s.denominator THEN 'Split' ELSE 'Consolidation' END)::"CorporateActionType",
           s.date, s.numerator, s.denominator, now()
    FROM provider_split s
    JOIN holding h ON h.symbol = s.symbol AND h.exchange = s.exchange
    CROSS JOIN LATERAL (SELECT ${unitsHeldAtStartOfSql(Prisma.sql`h.id`, Prisma.sql`s.date`)} AS units) held
    WHERE s.symbol = ${security.symbol} AND s.exchange = ${security.exchange}
      AND s.numerator > 0 AND s.denominator > 0 AND s.numerator <> s.denominator
      AND held.units > 0
      AND NOT EXISTS (
        SELECT 1 FROM trade t
        WHERE t.holding_id = h.id AND t.trade_date = s.date AND t.trade_type IN ('Split', 'Consolidation'))
    ORDER BY h.id, s.date
    ON CONFLICT (holding_id, date) DO NOTHING`;
}
