import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { notFound } from "../../lib/domain-errors";

/**
 * The one write discipline. Every write that reads before it writes runs in `write` (one
 * transaction, one set of options) and, when it changes a portfolio or anything the portfolio
 * holds, takes that portfolio's row lock first with `lockPortfolio` (one mode). The ledger's unit
 * of work (unit-of-work.ts) is this plus the ledger loaded and folded under the lock.
 */

/**
 * Wait up to 15 s for a connection, run up to 60 s: writes to one portfolio queue behind each other
 * on its row lock, and a ledger write (an import of 50,000 rows) folds the whole portfolio.
 */
export const WRITE_TX_OPTIONS = { maxWait: 15_000, timeout: 60_000 };

export type WriteTx = Prisma.TransactionClient;

/** Runs `work` in one transaction; it rolls back when the work throws. */
export function write<T>(ctx: Pick<Context, "db">, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  return ctx.db.$transaction(work, WRITE_TX_OPTIONS);
}

/**
 * Locks the caller's portfolio row for the rest of the transaction (NOT_FOUND when it is not one
 * of the caller's account). Every write takes its locks in one order: this portfolio row, then
 * holding rows in id order, then the rows under them; in one order concurrent writes queue
 * instead of deadlocking (PostgreSQL 40P01).
 *
 * The mode is FOR NO KEY UPDATE, not FOR UPDATE: it excludes the portfolio's other writers (two
 * activations of a model, two trades) but not the FOR KEY SHARE that foreign-key checks take, so
 * adding a cash account, a model or a holding to the portfolio never waits on a long ledger write.
 */
export async function lockPortfolio(tx: WriteTx, ctx: Pick<Context, "account">, portfolioId: number): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT id FROM portfolio WHERE id = ${portfolioId} AND account_id = ${ctx.account.id} FOR NO KEY UPDATE`;
  if (rows.length === 0) throw notFound(`Portfolio ${portfolioId}`);
}

/**
 * Locks portfolio rows by id, in id order, in the mode above, for a write that is no one account's
 * (the market-data refresh writing provider income or classification into every holding of a
 * security): answers the ids locked, those of the rows that still exist.
 */
export async function lockPortfolioRows(tx: WriteTx, portfolioIds: readonly number[]): Promise<number[]> {
  if (portfolioIds.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM portfolio WHERE id = ANY(${[...portfolioIds]}::int[]) ORDER BY id FOR NO KEY UPDATE`;
  return rows.map((r) => r.id);
}

/** `write` with the portfolio locked before the work runs. */
export function portfolioWrite<T>(ctx: Context, portfolioId: number, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  return write(ctx, async (tx) => {
    await lockPortfolio(tx, ctx, portfolioId);
    return work(tx);
  });
}
