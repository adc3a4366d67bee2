import type { Prisma } from "../../../generated/prisma/client";
import type { z } from "zod";
import type { Context } from "../../context";
import { fromDate, today, toDate } from "../../lib/dates";
import { businessRule, notFound, orNull } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { pageOf, type Page } from "../../lib/page";
import { CASH_TRADE_TYPES, incomeCashEffect, tradeCashEffect } from "../ledger/cash-effects";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, portfolioScope } from "../portfolios/access";
import { CashTransactionInput, CreateCashAccountInput, LedgerQuery, UpdateCashAccountInput, UpdateCashTransactionInput, type CashTransactionType, UpdateCashAccountBody, UpdateCashTransactionBody } from "./cash.schemas";

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

const ACCOUNT_SELECT = {
  id: true,
  portfolioId: true,
  name: true,
  currencyCode: true,
  institution: true,
  syncTrades: true,
  syncIncome: true,
  settlementDays: true,
} satisfies Prisma.CashAccountSelect;
type AccountRow = Prisma.CashAccountGetPayload<{ select: typeof ACCOUNT_SELECT }>;

const TRANSACTION_SELECT = { id: true, cashAccountId: true, type: true, date: true, amount: true, notes: true } satisfies Prisma.CashTransactionSelect;
type TransactionRow = Prisma.CashTransactionGetPayload<{ select: typeof TRANSACTION_SELECT }>;

/** A currency change and a move between accounts lock the account rows they check. */
const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/** Cash accounts the caller may see: those of its portfolios (API.md §1 tenancy). */
const accountScope = (ctx: Context): Prisma.CashAccountWhereInput => ({ portfolio: portfolioScope(ctx) });
const transactionScope = (ctx: Context): Prisma.CashTransactionWhereInput => ({ cashAccount: accountScope(ctx) });

/** Deposits and interest received bring money in; everything else takes it out. */
const INFLOWS = new Set<CashTransactionType>(["Deposit", "InterestPayment"]);
const signed = (type: CashTransactionType, amount: Decimal) => (INFLOWS.has(type) ? amount : amount.neg());

/** Same day: cash transactions first, then trades, then income, each by id. */
const SOURCE_ORDER: Record<CashMovementSource, number> = { Cash: 0, Trade: 1, Income: 2 };

type Movement = Omit<CashMovementView, "balance">;

/** Trade date plus `businessDays` days, counting Monday to Friday only (no public holidays). */
export function settlementDate(tradeDate: string, businessDays: number): string {
  const d = toDate(tradeDate);
  for (let left = businessDays; left > 0; ) {
    d.setUTCDate(d.getUTCDate() + 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return fromDate(d);
}

export function compareMovements(a: Movement, b: Movement): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.sourceId - b.sourceId;
}

const storedMovement = (t: TransactionRow): Movement => ({
  id: t.id,
  source: "Cash",
  sourceId: t.id,
  type: t.type,
  date: fromDate(t.date),
  amount: signed(t.type, new Decimal(t.amount)),
  description: t.notes,
});


/**
 * Movements derived from the portfolio's trades (syncTrades) and income (syncIncome) in each
 * account's currency, up to `asOf`. The amounts are the ledger's cash effects (ledger/cash-effects:
 * tradeCashEffect, incomeCashEffect), so this ledger and the portfolio transaction ledger agree: a
 * synced Buy or Sell settles on its settlement date, a ReturnOfCapital is paid on its date, income not
 * reinvested pays its net amount on its paid date. Two statements (and Prisma's holding lookups)
 * whatever the number of accounts.
 */
async function derivedMovements(db: Prisma.TransactionClient, accounts: AccountRow[], asOf: string): Promise<Map<number, Movement[]>> {
  const byAccount = new Map<number, Movement[]>(accounts.map((a) => [a.id, []]));
  const tradeAccounts = accounts.filter((a) => a.syncTrades);
  const incomeAccounts = accounts.filter((a) => a.syncIncome);
  const holding = { select: { symbol: true, exchange: true } } as const;
  const [trades, income] = await Promise.all([
    tradeAccounts.length === 0
      ? []
      : db.trade.findMany({
          where: {
            portfolioId: { in: [...new Set(tradeAccounts.map((a) => a.portfolioId))] },
            currencyCode: { in: [...new Set(tradeAccounts.map((a) => a.currencyCode))] },
            tradeType: { in: [...CASH_TRADE_TYPES] },
            tradeDate: { lte: toDate(asOf) },
          },
          select: { id: true, portfolioId: true, tradeType: true, tradeDate: true, quantity: true, price: true, brokerage: true, currencyCode: true, holding },
          orderBy: { id: "asc" },
        }),
    incomeAccounts.length === 0
      ? []
      : db.income.findMany({
          where: {
            portfolioId: { in: [...new Set(incomeAccounts.map((a) => a.portfolioId))] },
            currencyCode: { in: [...new Set(incomeAccounts.map((a) => a.currencyCode))] },
            isReinvested: false, // reinvested income moves no cash (incomeCashEffect); not worth a row
            paidDate: { lte: toDate(asOf) },
          },
          select: {
            id: true,
            portfolioId: true,
            paidDate: true,
            frankedAmount: true,
            unfrankedAmount: true,
            foreignIncome: true,
            withholdingTax: true,
            foreignTaxPaid: true,
            currencyCode: true,
            isTrustIncome: true,
            isReinvested: true,
            holding,
          },
          orderBy: { id: "asc" },
        }),
  ]);
  for (const a of tradeAccounts) {
    const out = byAccount.get(a.id)!;
    for (const t of trades) {
      if (t.portfolioId !== a.portfolioId || t.currencyCode !== a.currencyCode) continue;
      // A capital return is a payment on its date; only exchange trades settle days later.
      const date = t.tradeType === "ReturnOfCapital" ? fromDate(t.tradeDate) : settlementDate(fromDate(t.tradeDate), a.settlementDays);
      if (date > asOf) continue;
      const units = new Decimal(t.quantity).abs();
      const price = new Decimal(t.price);
      const brokerage = new Decimal(t.brokerage);
      const amount = tradeCashEffect({ tradeType: t.tradeType, quantity: units, price, brokerage });
      const description = `${t.tradeType} ${units.toFixed()} ${t.holding.symbol}.${t.holding.exchange} @ ${price.toFixed()}`;
      out.push({ id: null, source: "Trade", sourceId: t.id, type: t.tradeType, date, amount, description });
    }
  }
  for (const a of incomeAccounts) {
    const out = byAccount.get(a.id)!;
    for (const i of income) {
      if (i.portfolioId !== a.portfolioId || i.currencyCode !== a.currencyCode) continue;
      const { date, amount } = incomeCashEffect(i);
      const description = `${i.isTrustIncome ? "Distribution" : "Dividend"} ${i.holding.symbol}.${i.holding.exchange}`;
      out.push({ id: null, source: "Income", sourceId: i.id, type: "Income", date: fromDate(date), amount, description });
    }
  }
  return byAccount;
}

/** Accounts with their balances as of today, in a fixed number of statements whatever their number. */
async function withBalances(ctx: Context, accounts: AccountRow[]): Promise<CashAccountView[]> {
  if (accounts.length === 0) return [];
  const asOf = today();
  const [sums, derived] = await Promise.all([
    ctx.db.cashTransaction.groupBy({
      by: ["cashAccountId", "type"],
      where: { cashAccountId: { in: accounts.map((a) => a.id) }, date: { lte: toDate(asOf) } },
      _sum: { amount: true },
    }),
    derivedMovements(ctx.db, accounts, asOf),
  ]);
  const balances = new Map<number, Decimal>(accounts.map((a) => [a.id, new Decimal(0)]));
  for (const s of sums) balances.set(s.cashAccountId, balances.get(s.cashAccountId)!.plus(signed(s.type, new Decimal(s._sum.amount ?? 0))));
  for (const [id, movements] of derived) for (const m of movements) balances.set(id, balances.get(id)!.plus(m.amount));
  return accounts.map((a) => ({ ...a, balance: balances.get(a.id)! }));
}

async function accountRow(ctx: Context, cashAccountId: unknown, db: Prisma.TransactionClient = ctx.db): Promise<AccountRow> {
  const id = parseId(cashAccountId, "cashAccountId");
  const row = await db.cashAccount.findFirst({ where: { id, ...accountScope(ctx) }, select: ACCOUNT_SELECT });
  if (!row) throw notFound(`Cash account ${id}`);
  return row;
}

/** GET /v1/portfolios/{p}/cash-accounts: the portfolio's accounts by id, with balances. */
export async function listCashAccounts(ctx: Context, portfolioId: unknown): Promise<CashAccountView[]> {
  const id = parseId(portfolioId, "portfolioId");
  const portfolio = await ctx.db.portfolio.findFirst({ where: { id, ...portfolioScope(ctx) }, select: { id: true } });
  if (!portfolio) throw notFound(`Portfolio ${id}`);
  return withBalances(ctx, await ctx.db.cashAccount.findMany({ where: { portfolioId: id }, select: ACCOUNT_SELECT, orderBy: { id: "asc" } }));
}

/** Cash accounts of several portfolios, for a DataLoader (Portfolio.cashAccounts). */
export async function cashAccountsByPortfolioIds(ctx: Context, portfolioIds: readonly number[]): Promise<Map<number, CashAccountView[]>> {
  const rows = await ctx.db.cashAccount.findMany({
    where: { portfolioId: { in: [...portfolioIds] }, ...accountScope(ctx) },
    select: ACCOUNT_SELECT,
    orderBy: { id: "asc" },
  });
  const by = new Map<number, CashAccountView[]>(portfolioIds.map((id) => [id, []]));
  for (const view of await withBalances(ctx, rows)) by.get(view.portfolioId)?.push(view);
  return by;
}

export const findCashAccount = (ctx: Context, cashAccountId: unknown) => orNull(getCashAccount(ctx, cashAccountId));

export async function getCashAccount(ctx: Context, cashAccountId: unknown): Promise<CashAccountView> {
  const [view] = await withBalances(ctx, [await accountRow(ctx, cashAccountId)]);
  return view;
}

export async function createCashAccount(ctx: Context, input: unknown): Promise<CashAccountView> {
  const data = parseInput(CreateCashAccountInput, input, "The cash account");
  assertCanWrite(ctx);
  const portfolio = await ctx.db.portfolio.findFirst({ where: { id: data.portfolioId, ...portfolioScope(ctx) }, select: { id: true } });
  if (!portfolio) throw notFound(`Portfolio ${data.portfolioId}`);
  const row = await ctx.db.cashAccount.create({
    data: {
      portfolioId: portfolio.id,
      name: data.name,
      currencyCode: data.currencyCode,
      institution: data.institution ?? null,
      syncTrades: data.syncTrades,
      syncIncome: data.syncIncome,
      settlementDays: data.settlementDays,
    },
    select: ACCOUNT_SELECT,
  });
  const [view] = await withBalances(ctx, [row]);
  return view;
}

export async function updateCashAccount(ctx: Context, cashAccountId: unknown, input: unknown): Promise<CashAccountView> {
  const id = parseId(cashAccountId, "cashAccountId");
  const data = parseInput(UpdateCashAccountBody, input, "The cash account");
  assertCanWrite(ctx);
  const row = await ctx.db.$transaction(async (tx) => {
    // Locked before it is read. FOR UPDATE also waits for transactions being added to the account
    // (their foreign-key check holds FOR KEY SHARE), so the count below cannot miss one.
    await tx.$queryRaw`SELECT id FROM cash_account WHERE id = ${id} FOR UPDATE`;
    const current = await accountRow(ctx, id, tx);
    if (data.portfolioId !== undefined && data.portfolioId !== current.portfolioId) {
      throw businessRule(`Cash account ${id} belongs to portfolio ${current.portfolioId}; an account stays in its portfolio.`);
    }
    if (data.currencyCode && data.currencyCode !== current.currencyCode) {
      // The stored amounts are in the account's currency; changing it would silently relabel them.
      const entered = await tx.cashTransaction.count({ where: { cashAccountId: id } });
      if (entered > 0) throw businessRule(`Cash account ${id} has ${entered} cash transaction(s) in ${current.currencyCode}; its currency cannot change.`);
    }
    return tx.cashAccount.update({
      where: { id },
      data: {
        name: data.name,
        currencyCode: data.currencyCode,
        institution: data.institution,
        syncTrades: data.syncTrades,
        syncIncome: data.syncIncome,
        settlementDays: data.settlementDays,
      },
      select: ACCOUNT_SELECT,
    });
  }, TX_OPTIONS);
  const [view] = await withBalances(ctx, [row]);
  return view;
}

/** Removes the account with its cash transactions (foreign keys cascade). */
export async function deleteCashAccount(ctx: Context, cashAccountId: unknown): Promise<true> {
  const id = parseId(cashAccountId, "cashAccountId");
  assertCanWrite(ctx);
  const { count } = await ctx.db.cashAccount.deleteMany({ where: { id, ...accountScope(ctx) } });
  if (count === 0) throw notFound(`Cash account ${id}`);
  return true;
}

/**
 * GET /v1/cash-accounts/{c}/transactions: every movement oldest first with its running balance,
 * paged, with the number of movements in the date range (REST: X-Total-Count, Link). The balance
 * runs over the whole ledger, so a page or a date range shows the true balances. Stored
 * transactions are listed whatever their date; derived ones once settled or paid.
 */
export async function listCashMovements(ctx: Context, cashAccountId: unknown, query: unknown = {}): Promise<Page<CashMovementView>> {
  const q = parseInput(LedgerQuery, query ?? {}, "The query");
  const account = await accountRow(ctx, cashAccountId);
  return (await ledgersOf(ctx, [account], q)).get(account.id)!;
}

/** The same page of several accounts' ledgers (GraphQL `CashAccount.transactions` through its DataLoader). */
export async function cashMovementsByAccountIds(ctx: Context, cashAccountIds: readonly number[], query: unknown = {}): Promise<Map<number, CashMovementView[]>> {
  const q = parseInput(LedgerQuery, query ?? {}, "The query");
  const accounts = await ctx.db.cashAccount.findMany({ where: { id: { in: [...cashAccountIds] }, ...accountScope(ctx) }, select: ACCOUNT_SELECT });
  return new Map([...(await ledgersOf(ctx, accounts, q))].map(([id, page]) => [id, page.items]));
}

/** Running balances need every movement from the first: the page is cut after they are summed. */
async function ledgersOf(ctx: Context, accounts: AccountRow[], q: z.output<typeof LedgerQuery>): Promise<Map<number, Page<CashMovementView>>> {
  if (accounts.length === 0) return new Map();
  const [stored, derived] = await Promise.all([
    ctx.db.cashTransaction.findMany({ where: { cashAccountId: { in: accounts.map((a) => a.id) } }, select: TRANSACTION_SELECT, orderBy: [{ date: "asc" }, { id: "asc" }] }),
    derivedMovements(ctx.db, accounts, today()),
  ]);
  const storedBy = new Map<number, Movement[]>(accounts.map((a) => [a.id, []]));
  for (const t of stored) storedBy.get(t.cashAccountId)!.push(storedMovement(t));
  return new Map(
    accounts.map((a) => {
      const movements = [...storedBy.get(a.id)!, ...(derived.get(a.id) ?? [])].sort(compareMovements);
      let balance = new Decimal(0);
      const ledger = movements.map((m) => ({ ...m, balance: (balance = balance.plus(m.amount)) }));
      return [a.id, pageOf(ledger.filter((m) => (!q.from || m.date >= q.from) && (!q.to || m.date <= q.to)), q)];
    }),
  );
}

const transactionView = (t: TransactionRow): CashTransactionView => ({
  id: t.id,
  cashAccountId: t.cashAccountId,
  type: t.type,
  date: fromDate(t.date),
  amount: new Decimal(t.amount),
  notes: t.notes,
});

export const findCashTransaction = (ctx: Context, cashTransactionId: unknown) => orNull(getCashTransaction(ctx, cashTransactionId));

export async function getCashTransaction(ctx: Context, cashTransactionId: unknown, db: Prisma.TransactionClient = ctx.db): Promise<CashTransactionView> {
  const id = parseId(cashTransactionId, "cashTransactionId");
  const row = await db.cashTransaction.findFirst({ where: { id, ...transactionScope(ctx) }, select: TRANSACTION_SELECT });
  if (!row) throw notFound(`Cash transaction ${id}`);
  return transactionView(row);
}

export async function createCashTransaction(ctx: Context, input: unknown): Promise<CashTransactionView> {
  const data = parseInput(CashTransactionInput, input, "The cash transaction");
  assertCanWrite(ctx);
  const account = await accountRow(ctx, data.cashAccountId);
  const row = await ctx.db.cashTransaction.create({
    data: { cashAccountId: account.id, type: data.type, date: toDate(data.date), amount: data.amount.toFixed(), notes: data.notes ?? "" },
    select: TRANSACTION_SELECT,
  });
  return transactionView(row);
}

export async function updateCashTransaction(ctx: Context, cashTransactionId: unknown, input: unknown): Promise<CashTransactionView> {
  const id = parseId(cashTransactionId, "cashTransactionId");
  const data = parseInput(UpdateCashTransactionBody, input, "The cash transaction");
  assertCanWrite(ctx);
  const row = await ctx.db.$transaction(async (tx) => {
    const current = await getCashTransaction(ctx, id, tx);
    if (data.cashAccountId !== undefined && data.cashAccountId !== current.cashAccountId) {
      // The target account locked first (FOR SHARE): its currency cannot change until the move
      // commits. The source's cannot either: it holds this transaction (updateCashAccount counts it).
      await tx.$queryRaw`SELECT id FROM cash_account WHERE id = ${data.cashAccountId} FOR SHARE`;
      const from = await accountRow(ctx, current.cashAccountId, tx);
      const to = await accountRow(ctx, data.cashAccountId, tx);
      // The amount is in the account's currency: moving it across currencies would relabel it.
      if (from.currencyCode !== to.currencyCode) throw businessRule(`Cash account ${to.id} is in ${to.currencyCode}, not ${from.currencyCode}; enter the transaction there instead.`);
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
  }, TX_OPTIONS);
  return transactionView(row);
}

export async function deleteCashTransaction(ctx: Context, cashTransactionId: unknown): Promise<true> {
  const id = parseId(cashTransactionId, "cashTransactionId");
  assertCanWrite(ctx);
  const { count } = await ctx.db.cashTransaction.deleteMany({ where: { id, ...transactionScope(ctx) } });
  if (count === 0) throw notFound(`Cash transaction ${id}`);
  return true;
}
