import { Prisma } from "../../../generated/prisma/client";
import type { Page } from "../../lib/page";
import type { z } from "zod";
import type { Context } from "../../context";
import { fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { scopedPortfolio, scopedPortfolios } from "../ledger/portfolio-access";
import { incomeCashEffect, tradeCashEffect } from "../ledger/cash-effects";
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

/**
 * GET /v1/portfolios/{p}/transactions: one ledger of trades, income and cash transactions, newest
 * first (same day: income, trades, cash; then newest entry first), filtered and paged, with the
 * number of rows the filters match (REST: X-Total-Count and Link). The count is one more
 * statement, run beside the page's; under concurrent writes the two may see different moments
 * (READ COMMITTED), which paging by offset cannot avoid anyway.
 */
export async function listPortfolioTransactions(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<Page<PortfolioTransactionView>> {
  const q = parseInput(TransactionsQuery, query ?? {}, "The query");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const [pages, total] = await Promise.all([pagesOf(ctx, [portfolio.id], q), countOf(ctx, portfolio.id, q)]);
  return { items: pages.get(portfolio.id) ?? [], total, limit: q.limit, offset: q.offset };
}

/** Which sources a query reads, and its filters as SQL: the page and its count share them. */
function filtersOf(q: z.output<typeof TransactionsQuery>) {
  const want = (kind: "Trade" | "Income" | "Cash") =>
    !q.type ||
    q.type === kind ||
    (kind === "Trade" && !["Income", "Cash", ...CASH_TYPES].includes(q.type)) ||
    (kind === "Cash" && (CASH_TYPES as readonly string[]).includes(q.type));
  const specific = q.type && !["Trade", "Income", "Cash"].includes(q.type) ? q.type : undefined;
  const typeIs = (column: string) =>
    specific ? Prisma.sql`AND ${Prisma.raw(column)}::text = ${specific}` : Prisma.empty;
  return { want, typeIs, from: q.from ?? "0001-01-01", to: q.to ?? "9999-12-31" };
}

/** The rows of one portfolio's ledger the filters match, in one statement. */
async function countOf(ctx: Context, portfolioId: number, q: z.output<typeof TransactionsQuery>): Promise<number> {
  const { want, typeIs, from, to } = filtersOf(q);
  const none = Prisma.sql`0`;
  const [row] = await ctx.db.$queryRaw<{ total: bigint | number }[]>`
    SELECT (${want("Trade") ? Prisma.sql`(SELECT count(*) FROM trade t JOIN holding h ON h.id = t.holding_id WHERE t.portfolio_id = ${portfolioId} AND t.trade_date BETWEEN ${from}::date AND ${to}::date ${typeIs("t.trade_type")})` : none}
          + ${want("Income") ? Prisma.sql`(SELECT count(*) FROM income i JOIN holding h ON h.id = i.holding_id WHERE i.portfolio_id = ${portfolioId} AND i.paid_date BETWEEN ${from}::date AND ${to}::date)` : none}
          + ${want("Cash") ? Prisma.sql`(SELECT count(*) FROM cash_transaction c JOIN cash_account a ON a.id = c.cash_account_id WHERE a.portfolio_id = ${portfolioId} AND c.date BETWEEN ${from}::date AND ${to}::date ${typeIs("c.type")})` : none})::int AS total`;
  return Number(row?.total ?? 0);
}

/** The same page of several portfolios' ledgers (GraphQL `Portfolio.transactions` through its DataLoader). */
export async function transactionsByPortfolioIds(
  ctx: Context,
  portfolioIds: readonly number[],
  query: unknown = {},
): Promise<Map<number, PortfolioTransactionView[]>> {
  const q = parseInput(TransactionsQuery, query ?? {}, "The query");
  const visible = await scopedPortfolios(ctx, portfolioIds);
  return pagesOf(
    ctx,
    visible.map((p) => p.id),
    q,
  );
}

/**
 * Three statements whatever the number of portfolios or the page: each source gives at most
 * offset + limit rows per portfolio (a LATERAL join keeps the limit per portfolio), merged here.
 */
async function pagesOf(
  ctx: Context,
  portfolioIds: number[],
  q: z.output<typeof TransactionsQuery>,
): Promise<Map<number, PortfolioTransactionView[]>> {
  if (portfolioIds.length === 0) return new Map();
  const take = q.offset + q.limit;
  const { want, typeIs, from, to } = filtersOf(q);

  const [trades, income, cash] = await Promise.all([
    want("Trade")
      ? ctx.db.$queryRaw<TradeLine[]>`
          SELECT x.* FROM unnest(${portfolioIds}::int[]) AS p(id) CROSS JOIN LATERAL (
            SELECT t.id, t.portfolio_id AS "portfolioId", t.holding_id AS "holdingId", t.trade_type::text AS "tradeType", t.trade_date AS "tradeDate",
                   t.quantity, t.price, t.brokerage, t.currency_code AS "currencyCode", t.notes, h.symbol, h.exchange
            FROM trade t JOIN holding h ON h.id = t.holding_id
            WHERE t.portfolio_id = p.id AND t.trade_date BETWEEN ${from}::date AND ${to}::date ${typeIs("t.trade_type")}
            ORDER BY t.trade_date DESC, t.id DESC LIMIT ${take}) x`
      : [],
    want("Income")
      ? ctx.db.$queryRaw<IncomeLine[]>`
          SELECT x.* FROM unnest(${portfolioIds}::int[]) AS p(id) CROSS JOIN LATERAL (
            SELECT i.id, i.portfolio_id AS "portfolioId", i.holding_id AS "holdingId", i.paid_date AS "paidDate", i.franked_amount AS "frankedAmount",
                   i.unfranked_amount AS "unfrankedAmount", i.foreign_income AS "foreignIncome", i.withholding_tax AS "withholdingTax", i.foreign_tax_paid AS "foreignTaxPaid",
                   i.currency_code AS "currencyCode", i.is_reinvested AS "isReinvested", i.notes, h.symbol, h.exchange
            FROM income i JOIN holding h ON h.id = i.holding_id
            WHERE i.portfolio_id = p.id AND i.paid_date BETWEEN ${from}::date AND ${to}::date
            ORDER BY i.paid_date DESC, i.id DESC LIMIT ${take}) x`
      : [],
    want("Cash")
      ? ctx.db.$queryRaw<CashLine[]>`
          SELECT x.* FROM unnest(${portfolioIds}::int[]) AS p(id) CROSS JOIN LATERAL (
            SELECT c.id, a.portfolio_id AS "portfolioId", c.cash_account_id AS "cashAccountId", c.type::text AS type, c.date, c.amount, c.notes,
                   a.currency_code AS "currencyCode", a.name AS "accountName"
            FROM cash_transaction c JOIN cash_account a ON a.id = c.cash_account_id
            WHERE a.portfolio_id = p.id AND c.date BETWEEN ${from}::date AND ${to}::date ${typeIs("c.type")}
            ORDER BY c.date DESC, c.id DESC LIMIT ${take}) x`
      : [],
  ]);

  const byPortfolio = new Map<number, PortfolioTransactionView[]>(portfolioIds.map((id) => [id, []]));
  for (const t of trades) byPortfolio.get(t.portfolioId)!.push(tradeLine(t));
  for (const i of income) byPortfolio.get(i.portfolioId)!.push(incomeLine(i));
  for (const c of cash) byPortfolio.get(c.portfolioId)!.push(cashLine(c));
  for (const [id, rows] of byPortfolio) {
    rows.sort((a, b) =>
      a.date < b.date ? 1 : a.date > b.date ? -1 : KIND_ORDER[b.kind] - KIND_ORDER[a.kind] || b.id - a.id,
    );
    byPortfolio.set(id, rows.slice(q.offset, q.offset + q.limit));
  }
  return byPortfolio;
}

interface TradeLine {
  id: number;
  portfolioId: number;
  holdingId: number;
  tradeType: string;
  tradeDate: Date;
  quantity: Decimal;
  price: Decimal;
  brokerage: Decimal;
  currencyCode: string;
  notes: string;
  symbol: string;
  exchange: string;
}

interface IncomeLine {
  id: number;
  portfolioId: number;
  holdingId: number;
  paidDate: Date;
  frankedAmount: Decimal;
  unfrankedAmount: Decimal;
  foreignIncome: Decimal;
  withholdingTax: Decimal;
  foreignTaxPaid: Decimal;
  currencyCode: string;
  isReinvested: boolean;
  notes: string;
  symbol: string;
  exchange: string;
}

interface CashLine {
  id: number;
  portfolioId: number;
  cashAccountId: number;
  type: string;
  date: Date;
  amount: Decimal;
  notes: string;
  currencyCode: string;
  accountName: string;
}

const tradeLine = (t: TradeLine): PortfolioTransactionView => ({
  kind: "Trade",
  id: t.id,
  date: fromDate(t.tradeDate),
  type: t.tradeType,
  holdingId: t.holdingId,
  symbol: t.symbol,
  exchange: t.exchange,
  cashAccountId: null,
  quantity: new Decimal(t.quantity),
  price: new Decimal(t.price),
  amount: tradeCashEffect(t),
  currencyCode: t.currencyCode,
  description: `${t.tradeType} ${new Decimal(t.quantity).abs().toFixed()} ${t.symbol}.${t.exchange}${t.notes ? " — " + t.notes : ""}`,
});

function incomeLine(i: IncomeLine): PortfolioTransactionView {
  const { amount } = incomeCashEffect(i);
  return {
    kind: "Income",
    id: i.id,
    date: fromDate(i.paidDate),
    type: i.isReinvested ? "Reinvested" : "Income",
    holdingId: i.holdingId,
    symbol: i.symbol,
    exchange: i.exchange,
    cashAccountId: null,
    quantity: null,
    price: null,
    amount,
    currencyCode: i.currencyCode,
    description: `${i.isReinvested ? "Reinvested income" : "Income"} from ${i.symbol}.${i.exchange}${i.notes ? " — " + i.notes : ""}`,
  };
}

const cashLine = (c: CashLine): PortfolioTransactionView => ({
  kind: "Cash",
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
  currencyCode: c.currencyCode,
  description: `${c.type} (${c.accountName})${c.notes ? " — " + c.notes : ""}`,
});
