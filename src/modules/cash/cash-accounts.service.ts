import type { Context } from "../../context";
import { businessRule, orNull, removed } from "../../lib/domain-errors";
import { groupedBy } from "../../lib/grouped";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, scopedPortfolio } from "../ledger/portfolio-access";
import { CreateCashAccountInput, UpdateCashAccountBody, type UpdateCashAccountInput } from "./cash.schemas";
import { withBalances } from "./cash-movements.service";
import { accountRow, accountScope, ACCOUNT_SELECT, type AccountRow, type CashAccountView } from "./cash.views";
import { write } from "../ledger/write";

/** A portfolio's cash accounts: each answered with its balance as of today. */
/** GET /v1/portfolios/{p}/cash-accounts: the portfolio's accounts by id, with balances. */
export async function listCashAccounts(ctx: Context, portfolioId: unknown): Promise<CashAccountView[]> {
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  return withBalances(
    ctx,
    await ctx.db.cashAccount.findMany({
      where: { portfolioId: portfolio.id },
      select: ACCOUNT_SELECT,
      orderBy: { id: "asc" },
    }),
  );
}

/** Cash accounts of several portfolios, for a DataLoader (Portfolio.cashAccounts). */
export async function cashAccountsByPortfolioIds(
  ctx: Context,
  portfolioIds: readonly number[],
): Promise<Map<number, CashAccountView[]>> {
  const rows = await ctx.db.cashAccount.findMany({
    where: { portfolioId: { in: [...portfolioIds] }, ...accountScope(ctx) },
    select: ACCOUNT_SELECT,
    orderBy: { id: "asc" },
  });
  return groupedBy(portfolioIds, await withBalances(ctx, rows), (view) => view.portfolioId);
}

/** One account answered with its balance as of today. */
const withBalance = async (ctx: Context, row: AccountRow): Promise<CashAccountView> =>
  (await withBalances(ctx, [row]))[0];

/**
 * The columns a create or an update body writes, named once for both. An update's absent fields
 * are undefined, which Prisma leaves as they are; a create's absent institution is stored as none.
 */
type AccountColumn = "name" | "currencyCode" | "institution" | "syncTrades" | "syncIncome" | "settlementDays";
const accountColumns = <T extends CreateCashAccountInput | UpdateCashAccountInput>(
  data: T,
): Pick<T, AccountColumn> => ({
  name: data.name,
  currencyCode: data.currencyCode,
  institution: data.institution,
  syncTrades: data.syncTrades,
  syncIncome: data.syncIncome,
  settlementDays: data.settlementDays,
});

export const findCashAccount = (ctx: Context, cashAccountId: unknown) => orNull(getCashAccount(ctx, cashAccountId));

export async function getCashAccount(ctx: Context, cashAccountId: unknown): Promise<CashAccountView> {
  return withBalance(ctx, await accountRow(ctx, cashAccountId));
}

export async function createCashAccount(ctx: Context, input: unknown): Promise<CashAccountView> {
  const data = parseInput(CreateCashAccountInput, input, "The cash account");
  assertCanWrite(ctx);
  const portfolio = await scopedPortfolio(ctx, data.portfolioId);
  const row = await ctx.db.cashAccount.create({
    data: { portfolioId: portfolio.id, ...accountColumns(data), institution: data.institution ?? null },
    select: ACCOUNT_SELECT,
  });
  return withBalance(ctx, row);
}

export async function updateCashAccount(
  ctx: Context,
  cashAccountId: unknown,
  input: unknown,
): Promise<CashAccountView> {
  const id = parseId(cashAccountId, "cashAccountId");
  const data = parseInput(UpdateCashAccountBody, input, "The cash account");
  assertCanWrite(ctx);
  const row = await write(ctx, async (tx) => {
    // Locked before it is read. FOR UPDATE also waits for transactions being added to the account
    // (their foreign-key check holds FOR KEY SHARE), so the count below cannot miss one.
    await tx.$queryRaw`SELECT id FROM cash_account WHERE id = ${id} FOR UPDATE`;
    const current = await accountRow(ctx, id, tx);
    if (data.portfolioId !== undefined && data.portfolioId !== current.portfolioId) {
      throw businessRule(
        `Cash account ${id} belongs to portfolio ${current.portfolioId}; an account stays in its portfolio.`,
      );
    }
    if (data.currencyCode && data.currencyCode !== current.currencyCode) {
      // The stored amounts are in the account's currency; changing it would silently relabel them.
      const entered = await tx.cashTransaction.count({ where: { cashAccountId: id } });
      if (entered > 0)
        throw businessRule(
          `Cash account ${id} has ${entered} cash transaction(s) in ${current.currencyCode}; its currency cannot change.`,
        );
    }
    return tx.cashAccount.update({ where: { id }, data: accountColumns(data), select: ACCOUNT_SELECT });
  });
  return withBalance(ctx, row);
}

/** Removes the account with its cash transactions (foreign keys cascade). */
export async function deleteCashAccount(ctx: Context, cashAccountId: unknown): Promise<true> {
  const id = parseId(cashAccountId, "cashAccountId");
  assertCanWrite(ctx);
  return removed(await ctx.db.cashAccount.deleteMany({ where: { id, ...accountScope(ctx) } }), `Cash account ${id}`);
}
