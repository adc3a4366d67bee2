import { Prisma } from "../../../generated/prisma/client";

/**
 * Reads of several statements as of one moment of some portfolios' ledgers. Each statement takes
 * its own snapshot (on a server several run at once), so a ledger write may land between two of
 * them: a sell read with the trades and its new holding missing from the holdings, a DRP's units
 * without its income. Every ledger write (trades, holdings, income, cash, and through the
 * portfolio row its tax settings) bumps the portfolio's ledger version in its own transaction
 * (migration ledger_versions): read before and after, unchanged versions mean no ledger write
 * landed between the read's first statement and its last. An account's prices and rates have a
 * version of their own (account_market_version), bumped the same way; the provider's prices and
 * rates, which every account reads, bump the row of account 0.
 */

/** The portfolios' ledger versions as one text ("id:version,..."), in SQL, to read with other columns. */
export const ledgerVersionsSql = (portfolioIds: number[]): Prisma.Sql =>
  Prisma.sql`(SELECT string_agg(portfolio_id || ':' || version, ',' ORDER BY portfolio_id) FROM portfolio_version WHERE portfolio_id = ANY(${portfolioIds}::int[]))`;

/** What a read covers: some portfolios' ledgers, and an account's prices and rates when it reads them. */
export interface MomentScope {
  portfolioIds: number[];
  accountId?: number;
}

/** The scope's versions now (one statement): "ledger versions/market version", either empty or "-" before its first write. */
export async function momentVersions(db: Prisma.TransactionClient, scope: MomentScope): Promise<string> {
  const [row] = await db.$queryRaw<{ ledger: string | null; market: string | null }[]>`
    SELECT ${ledgerVersionsSql(scope.portfolioIds)} AS ledger,
           (SELECT string_agg(account_id || ':' || version, ',' ORDER BY account_id) FROM account_market_version
            WHERE account_id = ANY(ARRAY[0, ${scope.accountId ?? 0}]::int[])) AS market`;
  return `${row?.ledger ?? ""}/${row?.market ?? "-"}`;
}

/**
 * `read` as of one moment of the scope's ledgers (and the account's prices and rates, which every
 * price or rate write bumps likewise): read again while a write lands during it, up to
 * MOMENT_ATTEMPTS times; then the last read stands (a stream of writes delays a reader, it does
 * not stop it). Two statements more than `read` (one when the caller read `before` itself).
 * Answers the read and the versions read before it: its data is those, or newer when the last
 * read stood, never older.
 */
export async function atOneMoment<T>(
  db: Prisma.TransactionClient,
  scope: MomentScope,
  read: () => Promise<T>,
  before?: string,
): Promise<{ value: T; version: string }> {
  let version = before ?? (await momentVersions(db, scope));
  for (let attempt = 1; ; attempt++) {
    const value = await read();
    const after = await momentVersions(db, scope);
    if (after === version || attempt === MOMENT_ATTEMPTS) return { value, version };
    version = after;
  }
}

const MOMENT_ATTEMPTS = 3;
