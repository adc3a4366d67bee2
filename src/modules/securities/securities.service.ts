import { Prisma, type Security } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { parseInput } from "../../lib/validation";
import { EXCHANGE_CURRENCY, SearchSecuritiesQuery } from "./securities.schemas";
import { securityKey, securityTable } from "../ledger/market-data";

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

/** A security's name in the maps below: its symbol and exchange. */
export { securityKey };

/**
 * The securities of these symbols that an account sees, by securityKey, one each: the account's
 * own (added by its first trade of a symbol the master list lacks) before the master list's. One
 * statement whatever the number of symbols (an import may name 50,000): securityTable.
 */
export async function findSecurities(
  db: Prisma.TransactionClient,
  accountId: number,
  wanted: readonly { symbol: string; exchange: string }[],
): Promise<Map<string, Security>> {
  const found = new Map<string, Security>();
  if (wanted.length === 0) return found;
  const distinct = [...new Map(wanted.map((w) => [securityKey(w), w])).values()];
  const rows = await db.$queryRaw<Security[]>`
    SELECT s.id, s.account_id AS "accountId", s.symbol, s.exchange, s.name, s.currency_code AS "currencyCode",
           s.security_type::text AS "securityType", s.created_at AS "createdAt"
    FROM ${securityTable(distinct, "w")}
    JOIN security s ON s.symbol = w.symbol AND s.exchange = w.exchange
    WHERE s.account_id IS NULL OR s.account_id = ${accountId}
    ORDER BY s.account_id NULLS LAST`;
  for (const row of rows) if (!found.has(securityKey(row))) found.set(securityKey(row), row);
  return found;
}

/** The security of one symbol that the account sees (its own first, then the master list's), or null. */
export async function findSecurity(
  db: Prisma.TransactionClient,
  accountId: number,
  symbol: string,
  exchange: string,
): Promise<Security | null> {
  const found = await findSecurities(db, accountId, [{ symbol, exchange }]);
  return found.get(securityKey({ symbol, exchange })) ?? null;
}

/**
 * The currency of a security no list knows: the one given, else its exchange's, else the
 * portfolio's base currency (CUSTOM, a custom investment, has no currency of its own).
 */
export function unlistedSecurityCurrency(exchange: string, given: string | undefined, base: string): string {
  return given ?? EXCHANGE_CURRENCY[exchange] ?? base;
}
