import type { Prisma } from "../../../generated/prisma/client";
import type { z } from "zod";
import type { Context } from "../../context";
import { fromDate, today, toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { pageOf, type Page } from "../../lib/page";
import { parseInput } from "../../lib/validation";
import { CASH_TRADE_TYPES, incomeCashEffect, settlementDate, tradeCashEffect } from "../ledger/cash-effects";
import { LedgerQuery } from "./cash.schemas";
import {
  accountRow,
  accountScope,
  ACCOUNT_SELECT,
  signed,
  TRANSACTION_SELECT,
  type AccountRow,
  type CashAccountView,
  type CashMovementSource,
  type CashMovementView,
  type TransactionRow,
} from "./cash.views";

/**
 * A cash account's ledger: its stored transactions and the movements its synced trades and income
 * derive, in one order, with running balances; and the balances alone.
 */

/** Same day: cash transactions first, then trades, then income, each by id. */
const SOURCE_ORDER: Record<CashMovementSource, number> = { Cash: 0, Trade: 1, Income: 2 };

type Movement = Omit<CashMovementView, "balance">;

export function compareMovements(a: Movement, b: Movement): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.sourceId - b.sourceId;
}

/** Rows of the accounts' portfolios in the accounts' currencies (each row is then matched to its account). */
const ofAccounts = (accounts: AccountRow[]) => ({
  portfolioId: { in: [...new Set(accounts.map((a) => a.portfolioId))] },
  currencyCode: { in: [...new Set(accounts.map((a) => a.currencyCode))] },
});

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
async function derivedMovements(
  db: Prisma.TransactionClient,
  accounts: AccountRow[],
  asOf: string,
): Promise<Map<number, Movement[]>> {
  const byAccount = new Map<number, Movement[]>(accounts.map((a) => [a.id, []]));
  const tradeAccounts = accounts.filter((a) => a.syncTrades);
  const incomeAccounts = accounts.filter((a) => a.syncIncome);
  const holding = { select: { symbol: true, exchange: true } } as const;
  const [trades, income] = await Promise.all([
    tradeAccounts.length === 0
      ? []
      : db.trade.findMany({
          where: {
            ...ofAccounts(tradeAccounts),
            tradeType: { in: [...CASH_TRADE_TYPES] },
            tradeDate: { lte: toDate(asOf) },
          },
          select: {
            id: true,
            portfolioId: true,
            tradeType: true,
            tradeDate: true,
            quantity: true,
            price: true,
            brokerage: true,
            currencyCode: true,
            holding,
          },
          orderBy: { id: "asc" },
        }),
    incomeAccounts.length === 0
      ? []
      : db.income.findMany({
          where: {
            ...ofAccounts(incomeAccounts),
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
      const date =
        t.tradeType === "ReturnOfCapital"
          ? fromDate(t.tradeDate)
          : settlementDate(fromDate(t.tradeDate), a.settlementDays);
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
      out.push({
        id: null,
        source: "Income",
        sourceId: i.id,
        type: "Income",
        date: fromDate(date),
        amount,
        description,
      });
    }
  }
  return byAccount;
}

/** Accounts with their balances as of today, in a fixed number of statements whatever their number. */
export async function withBalances(ctx: Context, accounts: AccountRow[]): Promise<CashAccountView[]> {
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
  for (const s of sums)
    balances.set(s.cashAccountId, balances.get(s.cashAccountId)!.plus(signed(s.type, new Decimal(s._sum.amount ?? 0))));
  for (const [id, movements] of derived) for (const m of movements) balances.set(id, balances.get(id)!.plus(m.amount));
  return accounts.map((a) => ({ ...a, balance: balances.get(a.id)! }));
}

/**
 * GET /v1/cash-accounts/{c}/transactions: every movement oldest first with its running balance,
 * paged, with the number of movements in the date range (REST: X-Total-Count, Link). The balance
 * runs over the whole ledger, so a page or a date range shows the true balances. Stored
 * transactions are listed whatever their date; derived ones once settled or paid.
 */
export async function listCashMovements(
  ctx: Context,
  cashAccountId: unknown,
  query: unknown = {},
): Promise<Page<CashMovementView>> {
  const q = parseInput(LedgerQuery, query ?? {}, "The query");
  const account = await accountRow(ctx, cashAccountId);
  return (await ledgersOf(ctx, [account], q)).get(account.id)!;
}

/** The same page of several accounts' ledgers (GraphQL `CashAccount.transactions` through its DataLoader). */
export async function cashMovementsByAccountIds(
  ctx: Context,
  cashAccountIds: readonly number[],
  query: unknown = {},
): Promise<Map<number, CashMovementView[]>> {
  const q = parseInput(LedgerQuery, query ?? {}, "The query");
  const accounts = await ctx.db.cashAccount.findMany({
    where: { id: { in: [...cashAccountIds] }, ...accountScope(ctx) },
    select: ACCOUNT_SELECT,
  });
  return new Map([...(await ledgersOf(ctx, accounts, q))].map(([id, page]) => [id, page.items]));
}

/** Running balances need every movement from the first: the page is cut after they are summed. */
async function ledgersOf(
  ctx: Context,
  accounts: AccountRow[],
  q: z.output<typeof LedgerQuery>,
): Promise<Map<number, Page<CashMovementView>>> {
  if (accounts.length === 0) return new Map();
  const [stored, derived] = await Promise.all([
    ctx.db.cashTransaction.findMany({
      where: { cashAccountId: { in: accounts.map((a) => a.id) } },
      select: TRANSACTION_SELECT,
      orderBy: [{ date: "asc" }, { id: "asc" }],
    }),
    derivedMovements(ctx.db, accounts, today()),
  ]);
  const storedBy = new Map<number, Movement[]>(accounts.map((a) => [a.id, []]));
  for (const t of stored) storedBy.get(t.cashAccountId)!.push(storedMovement(t));
  return new Map(
    accounts.map((a) => {
      const movements = [...storedBy.get(a.id)!, ...(derived.get(a.id) ?? [])].sort(compareMovements);
      let balance = new Decimal(0);
      const ledger = movements.map((m) => ({ ...m, balance: (balance = balance.plus(m.amount)) }));
      return [
        a.id,
        pageOf(
          ledger.filter((m) => (!q.from || m.date >= q.from) && (!q.to || m.date <= q.to)),
          q,
        ),
      ];
    }),
  );
}
