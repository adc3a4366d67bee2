import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate, toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { portfolioForLedger } from "../holdings/holdings.service";
import { incomeAmounts } from "../income/income.service";
import { CASH_TYPES, TransactionsQuery } from "./transactions.schemas";

export interface PortfolioTransactionView {
  kind: "Trade" | "Income" | "Cash";
  id: number;
  date: string;
  type: string;
  holdingId: number | null;
  symbol: string | null;
  exchange: string | null;
  cashAccountId: number | null;
  quantity: Decimal | null;
  price: Decimal | null;
  amount: Decimal;
  currencyCode: string;
  description: string;
}

const CASH_IN = new Set(["Deposit", "InterestPayment"]);
const KIND_ORDER = { Cash: 0, Trade: 1, Income: 2 };

/** Cash effect of a trade in its currency: a Buy pays price × units + brokerage, a Sell receives the rest, a return of capital pays out. */
export function tradeCashAmount(type: string, quantity: Decimal, price: Decimal, brokerage: Decimal): Decimal {
  const gross = quantity.abs().times(price);
  if (type === "Buy") return gross.plus(brokerage).neg();
  if (type === "Sell") return gross.minus(brokerage);
  if (type === "ReturnOfCapital") return gross; // capital paid back to the investor
  return new Decimal(0);
}

/**
 * GET /v1/portfolios/{p}/transactions: one ledger of trades, income and cash transactions, newest
 * first (same day: income, trades, cash; then newest entry first), filtered and paged. Three
 * queries whatever the page: each source gives at most offset + limit rows, merged here.
 */
export async function listPortfolioTransactions(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<PortfolioTransactionView[]> {
  const q = parseInput(TransactionsQuery, query ?? {}, "The query");
  const portfolio = await portfolioForLedger(ctx, portfolioId);
  const take = q.offset + q.limit;
  const date = { ...(q.from ? { gte: toDate(q.from) } : {}), ...(q.to ? { lte: toDate(q.to) } : {}) };
  const want = (kind: "Trade" | "Income" | "Cash") =>
    !q.type || q.type === kind || (kind === "Trade" && !["Income", "Cash", ...CASH_TYPES].includes(q.type)) || (kind === "Cash" && (CASH_TYPES as readonly string[]).includes(q.type));
  const specific = q.type && !["Trade", "Income", "Cash"].includes(q.type) ? q.type : undefined;

  const [trades, income, cash] = await Promise.all([
    want("Trade")
      ? ctx.db.trade.findMany({
          where: { portfolioId: portfolio.id, tradeDate: date, ...(specific ? { tradeType: specific as Prisma.EnumTradeTypeFilter["equals"] } : {}) },
          select: { id: true, holdingId: true, tradeType: true, tradeDate: true, quantity: true, price: true, brokerage: true, currencyCode: true, notes: true, holding: { select: { symbol: true, exchange: true } } },
          orderBy: [{ tradeDate: "desc" }, { id: "desc" }],
          take,
        })
      : [],
    want("Income")
      ? ctx.db.income.findMany({
          where: { portfolioId: portfolio.id, paidDate: date },
          select: { id: true, holdingId: true, paidDate: true, frankedAmount: true, unfrankedAmount: true, foreignIncome: true, withholdingTax: true, currencyCode: true, isReinvested: true, notes: true, holding: { select: { symbol: true, exchange: true } } },
          orderBy: [{ paidDate: "desc" }, { id: "desc" }],
          take,
        })
      : [],
    want("Cash")
      ? ctx.db.cashTransaction.findMany({
          where: { cashAccount: { portfolioId: portfolio.id }, date, ...(specific ? { type: specific as Prisma.EnumCashTransactionTypeFilter["equals"] } : {}) },
          select: { id: true, cashAccountId: true, type: true, date: true, amount: true, notes: true, cashAccount: { select: { currencyCode: true, name: true } } },
          orderBy: [{ date: "desc" }, { id: "desc" }],
          take,
        })
      : [],
  ]);

  const rows: PortfolioTransactionView[] = [
    ...trades.map((t) => ({
      kind: "Trade" as const,
      id: t.id,
      date: fromDate(t.tradeDate),
      type: t.tradeType,
      holdingId: t.holdingId,
      symbol: t.holding.symbol,
      exchange: t.holding.exchange,
      cashAccountId: null,
      quantity: new Decimal(t.quantity),
      price: new Decimal(t.price),
      amount: tradeCashAmount(t.tradeType, new Decimal(t.quantity), new Decimal(t.price), new Decimal(t.brokerage)),
      currencyCode: t.currencyCode,
      description: `${t.tradeType} ${new Decimal(t.quantity).abs().toFixed()} ${t.holding.symbol}.${t.holding.exchange}${t.notes ? " — " + t.notes : ""}`,
    })),
    ...income.map((i) => {
      const { netAmount } = incomeAmounts({ frankedAmount: new Decimal(i.frankedAmount), unfrankedAmount: new Decimal(i.unfrankedAmount), foreignIncome: new Decimal(i.foreignIncome), withholdingTax: new Decimal(i.withholdingTax) });
      return {
        kind: "Income" as const,
        id: i.id,
        date: fromDate(i.paidDate),
        type: i.isReinvested ? "Reinvested" : "Income",
        holdingId: i.holdingId,
        symbol: i.holding.symbol,
        exchange: i.holding.exchange,
        cashAccountId: null,
        quantity: null,
        price: null,
        amount: i.isReinvested ? new Decimal(0) : netAmount,
        currencyCode: i.currencyCode,
        description: `${i.isReinvested ? "Reinvested income" : "Income"} from ${i.holding.symbol}.${i.holding.exchange}${i.notes ? " — " + i.notes : ""}`,
      };
    }),
    ...cash.map((c) => ({
      kind: "Cash" as const,
      id: c.id,
      date: fromDate(c.date),
      type: c.type,
      holdingId: null,
      symbol: null,
      exchange: null,
      cashAccountId: c.cashAccountId,
      quantity: null,
      price: null,
      amount: CASH_IN.has(c.type) ? new Decimal(c.amount) : new Decimal(c.amount).neg(),
      currencyCode: c.cashAccount.currencyCode,
      description: `${c.type} (${c.cashAccount.name})${c.notes ? " — " + c.notes : ""}`,
    })),
  ];
  rows.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : KIND_ORDER[b.kind] - KIND_ORDER[a.kind] || b.id - a.id));
  return rows.slice(q.offset, q.offset + q.limit);
}
