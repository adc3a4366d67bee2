import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate } from "../../lib/dates";
import { found } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { parseId } from "../../lib/validation";
import { portfolioWhere, type ScopedLookup } from "../ledger/portfolio-access";
import type { CashTransactionType } from "./cash.schemas";

/** What the cash module answers and reads: its views, selects and the caller's scope. */
export interface CashAccountView {
  id: number;
  portfolioId: number;
  name: string;
  currencyCode: string;
  institution: string | null;
  syncTrades: boolean;
  syncIncome: boolean;
  settlementDays: number;
  /** As of today, in the account's currency. */
  balance: Decimal;
}

export type CashMovementSource = "Cash" | "Trade" | "Income";

/** One row of an account's ledger: a stored cash transaction, or a movement derived from a trade or income. */
export interface CashMovementView {
  /** The cash transaction; null for a derived movement. */
  id: number | null;
  source: CashMovementSource;
  sourceId: number;
  type: string;
  date: string;
  /** Signed: positive in, negative out. */
  amount: Decimal;
  description: string;
  /** Running balance after this movement. */
  balance: Decimal;
}

export interface CashTransactionView {
  id: number;
  cashAccountId: number;
  type: CashTransactionType;
  date: string;
  amount: Decimal;
  notes: string;
}

export const ACCOUNT_SELECT = {
  id: true,
  portfolioId: true,
  name: true,
  currencyCode: true,
  institution: true,
  syncTrades: true,
  syncIncome: true,
  settlementDays: true,
} satisfies Prisma.CashAccountSelect;
export type AccountRow = Prisma.CashAccountGetPayload<{ select: typeof ACCOUNT_SELECT }>;

export const TRANSACTION_SELECT = {
  id: true,
  cashAccountId: true,
  type: true,
  date: true,
  amount: true,
  notes: true,
} satisfies Prisma.CashTransactionSelect;
export type TransactionRow = Prisma.CashTransactionGetPayload<{ select: typeof TRANSACTION_SELECT }>;

/** Cash accounts the caller may see: those of its portfolios (docs/conventions.md §2.3). */
export const accountScope = (ctx: Context): Prisma.CashAccountWhereInput => ({ portfolio: portfolioWhere(ctx) });
export const transactionScope = (ctx: Context): Prisma.CashTransactionWhereInput => ({
  cashAccount: accountScope(ctx),
});

/** Deposits and interest received bring money in; everything else takes it out. */
const INFLOWS = new Set<CashTransactionType>(["Deposit", "InterestPayment"]);
export const signed = (type: CashTransactionType, amount: Decimal) => (INFLOWS.has(type) ? amount : amount.neg());

/** The caller's cash account, or NOT_FOUND. */
export const accountRow: ScopedLookup<AccountRow> = async (ctx, cashAccountId, db = ctx.db) => {
  const id = parseId(cashAccountId, "cashAccountId");
  return found(
    await db.cashAccount.findFirst({ where: { id, ...accountScope(ctx) }, select: ACCOUNT_SELECT }),
    `Cash account ${id}`,
  );
};

export const transactionView = (t: TransactionRow): CashTransactionView => ({
  id: t.id,
  cashAccountId: t.cashAccountId,
  type: t.type,
  date: fromDate(t.date),
  amount: new Decimal(t.amount),
  notes: t.notes,
});
