import { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { parseInput } from "../../lib/validation";
import { SearchSecuritiesQuery } from "./securities.schemas";

export interface SecurityView {
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  securityType: "Stock" | "Etf" | "Fund" | "Crypto" | "Custom" | "Cash";
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => "\\" + c);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Securities search: the exact symbol first, then symbol prefixes, then names whose words start
 * with every word of the query, then names merely containing it; shorter symbols before longer.
 * The shared master list plus the securities this account's trades introduced.
 */
export async function searchSecurities(ctx: Context, query: unknown): Promise<SecurityView[]> {
  const { q, exchange, limit } = parseInput(SearchSecuritiesQuery, query, "The search");
  const upper = q.toUpperCase();
  const words = q.split(/\s+/).filter(Boolean);
  const prefix = escapeLike(upper) + "%";
  const contains = "%" + escapeLike(q) + "%";
  const wordMatch = Prisma.join(
    words.map((w) => Prisma.sql`name ~* ${"\\m" + escapeRegex(w)}`),
    " AND ",
  );
  const rows = await ctx.db.$queryRaw<
    {
      symbol: string;
      exchange: string;
      name: string;
      currency_code: string;
      security_type: SecurityView["securityType"];
    }[]
  >`
    SELECT symbol, exchange, name, currency_code, security_type::text AS security_type
    FROM (
      SELECT *, CASE
        WHEN symbol = ${upper} THEN 0
        WHEN symbol LIKE ${prefix} THEN 1
        WHEN ${wordMatch} THEN 2
        ELSE 3 END AS rank
      FROM security
      WHERE (account_id IS NULL OR account_id = ${ctx.account.id})
        AND (${exchange ?? null}::text IS NULL OR exchange = ${exchange ?? null})
        AND (symbol LIKE ${prefix} OR name ILIKE ${contains} OR (${wordMatch}))
    ) s
    ORDER BY rank, length(symbol), symbol, exchange
    LIMIT ${limit}`;
  return rows.map((r) => ({
    symbol: r.symbol,
    exchange: r.exchange,
    name: r.name,
    currencyCode: r.currency_code,
    securityType: r.security_type,
  }));
}

/** The security of a symbol visible to the account (its own first, then the master), or null. */
export async function findSecurity(db: Prisma.TransactionClient, accountId: number, symbol: string, exchange: string) {
  const rows = await db.security.findMany({
    where: { symbol, exchange, OR: [{ accountId: null }, { accountId }] },
    orderBy: { accountId: { sort: "asc", nulls: "last" } },
    take: 1,
  });
  return rows[0] ?? null;
}
