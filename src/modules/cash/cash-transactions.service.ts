import type { Context } from "../../context";
import { toDate } from "../../lib/dates";
import { businessRule, found, orNull, removed } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, type ScopedLookup } from "../ledger/portfolio-access";
import { CashTransactionInput, UpdateCashTransactionBody } from "./cash.schemas";
import {
  accountRow,
  TRANSACTION_SELECT,
  transactionScope,
  transactionView,
  type CashTransactionView,
} from "./cash.views";
import { write } from "../ledger/write";

/** Cash transactions entered by hand (deposits, withdrawals, interest, fees) in an account's currency. */
export const findCashTransaction = (ctx: Context, cashTransactionId: unknown) =>
  orNull(getCashTransaction(ctx, cashTransactionId));

export const getCashTransaction: ScopedLookup<CashTransactionView> = async (ctx, cashTransactionId, db = ctx.db) => {
  const id = parseId(cashTransactionId, "cashTransactionId");
  const row = await db.cashTransaction.findFirst({
    where: { id, ...transactionScope(ctx) },
    select: TRANSACTION_SELECT,
  });
  return transactionView(found(row, `Cash transaction ${id}`));
};

export async function createCashTransaction(ctx: Context, input: unknown): Promise<CashTransactionView> {
  const data = parseInput(CashTransactionInput, input, "The cash transaction");
  assertCanWrite(ctx);
  const account = await accountRow(ctx, data.cashAccountId);
  const row = await ctx.db.cashTransaction.create({
    data: {
      cashAccountId: account.id,
      type: data.type,
      date: toDate(data.date),
      amount: data.amount.toFixed(),
      notes: data.notes ?? "",
    },
    select: TRANSACTION_SELECT,
  });
  return transactionView(row);
}

export async function updateCashTransaction(
  ctx: Context,
  cashTransactionId: unknown,
  input: unknown,
): Promise<CashTransactionView> {
  const id = parseId(cashTransactionId, "cashTransactionId");
  const data = parseInput(UpdateCashTransactionBody, input, "The cash transaction");
  assertCanWrite(ctx);
  const row = await write(ctx, async (tx) => {
    const current = await getCashTransaction(ctx, id, tx);
    if (data.cashAccountId !== undefined && data.cashAccountId !== current.cashAccountId) {
      // The target account locked first (FOR SHARE): its currency cannot change until the move
      // commits. The source's cannot either: it holds this transaction (updateCashAccount counts it).
      await tx.$queryRaw`SELECT id FROM cash_account WHERE id = ${data.cashAccountId} FOR SHARE`;
      const from = await accountRow(ctx, current.cashAccountId, tx);
      const to = await accountRow(ctx, data.cashAccountId, tx);
      // The amount is in the account's currency: moving it across currencies would relabel it.
      if (from.currencyCode !== to.currencyCode)
        throw businessRule(
          `Cash account ${to.id} is in ${to.currencyCode}, not ${from.currencyCode}; enter the transaction there instead.`,
        );
    }
    return tx.cashTransaction.update({
      where: { id },
      data: {
        cashAccountId: data.cashAccountId,
        type: data.type,
        date: data.date ? toDate(data.date) : undefined,
        amount: data.amount?.toFixed(),
        notes: data.notes === null ? "" : data.notes,
      },
      select: TRANSACTION_SELECT,
    });
  });
  return transactionView(row);
}

export async function deleteCashTransaction(ctx: Context, cashTransactionId: unknown): Promise<true> {
  const id = parseId(cashTransactionId, "cashTransactionId");
  assertCanWrite(ctx);
  return removed(
    await ctx.db.cashTransaction.deleteMany({ where: { id, ...transactionScope(ctx) } }),
    `Cash transaction ${id}`,
  );
}
