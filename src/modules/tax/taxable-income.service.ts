import type { Context } from "../../context";
import { financialYearRange, fromDate, toDate } from "../../lib/dates";
import { businessRule } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { roundMoney } from "../ledger";
import { loadFxTable } from "../ledger/fx-load";
import { INCOME_SELECT, toIncomeView } from "../income/income-view";
import { readTaxPortfolio, reportYear, taxReport, type TaxPortfolio } from "./tax-book";
import { FinancialYearQuery } from "./tax.schemas";
import { unconfirmedIncomeOf, type UnconfirmedIncome } from "./unconfirmed-income";
import { addLabels, allLabels, labelsOf, type IncomeLabel, type Labels } from "./taxable-income";

/**
 * GET /v1/portfolios/{p}/reports/taxable-income, GraphQL `taxableIncomeReport` (docs/reports.md §5.3):
 * the year's confirmed income by myTax label, per record, per holding and in total, and the cash
 * accounts' interest (10L). Company dividends count in the year they are paid, trust distributions
 * in the year of entitlement (ex-dividend date), interest in the year of its date.
 */
export interface TaxableIncomeReport {
  portfolioId: number;
  financialYear: number;
  from: string;
  to: string;
  rows: {
    incomeId: number;
    holdingId: number;
    symbol: string;
    exchange: string;
    exDividendDate: string;
    paidDate: string;
    labels: Labels;
  }[];
  holdings: { holdingId: number; symbol: string; exchange: string; labels: Labels }[];
  interest: { cashAccountId: number; name: string; labels: Labels }[];
  totals: Record<IncomeLabel, Decimal>;
  /** Income paid in the year and not confirmed: left out of every figure above. */
  unconfirmedIncome: UnconfirmedIncome;
}

export function taxableIncomeReport(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<TaxableIncomeReport> {
  return taxReport(ctx, FinancialYearQuery, query, (request) =>
    readTaxPortfolio(ctx, portfolioId, (portfolio) =>
      taxableIncomeOf(ctx, portfolio, reportYear(request.financialYear, portfolio).financialYear),
    ),
  );
}

export async function taxableIncomeOf(
  ctx: Context,
  portfolio: TaxPortfolio,
  financialYear: number,
): Promise<TaxableIncomeReport> {
  const { from, to } = financialYearRange(financialYear, portfolio.financialYearEnd);
  const [fromDay, toDay] = [toDate(from), toDate(to)];
  const [income, interest, unconfirmedIncome] = await Promise.all([
    ctx.db.income.findMany({
      where: {
        portfolioId: portfolio.id,
        isConfirmed: true,
        OR: [
          { isTrustIncome: false, paidDate: { gte: fromDay, lte: toDay } },
          { isTrustIncome: true, exDividendDate: { gte: fromDay, lte: toDay } },
        ],
      },
      select: INCOME_SELECT,
      orderBy: [{ paidDate: "asc" }, { id: "asc" }],
    }),
    ctx.db.cashTransaction.findMany({
      where: {
        type: "InterestPayment",
        date: { gte: fromDay, lte: toDay },
        cashAccount: { portfolioId: portfolio.id },
      },
      select: { date: true, amount: true, cashAccount: { select: { id: true, name: true, currencyCode: true } } },
      orderBy: [{ cashAccountId: "asc" }, { date: "asc" }, { id: "asc" }],
    }),
    unconfirmedIncomeOf(ctx.db, portfolio.id, from, to),
  ]);
  const rows = income.map(toIncomeView).map((r) => ({
    incomeId: r.id,
    holdingId: r.holdingId,
    symbol: r.symbol,
    exchange: r.exchange,
    exDividendDate: r.exDividendDate,
    paidDate: r.paidDate,
    labels: labelsOf(r),
  }));

  const byHolding = new Map<number, TaxableIncomeReport["holdings"][number]>();
  for (const r of rows) {
    const h = byHolding.get(r.holdingId) ?? {
      holdingId: r.holdingId,
      symbol: r.symbol,
      exchange: r.exchange,
      labels: {},
    };
    addLabels(h.labels, r.labels);
    byHolding.set(r.holdingId, h);
  }

  // Interest on a cash account in another currency: at the FX rule's rate on the day it was paid.
  const foreign = interest.filter((t) => t.cashAccount.currencyCode !== portfolio.baseCurrencyCode);
  const fx =
    foreign.length > 0
      ? await loadFxTable(
          ctx.db,
          portfolio,
          foreign.map((t) => fromDate(t.date)),
        )
      : undefined;
  const byAccount = new Map<number, TaxableIncomeReport["interest"][number]>();
  for (const t of interest) {
    const account = byAccount.get(t.cashAccount.id) ?? {
      cashAccountId: t.cashAccount.id,
      name: t.cashAccount.name,
      labels: {},
    };
    const rate =
      t.cashAccount.currencyCode === portfolio.baseCurrencyCode
        ? new Decimal(1)
        : fx!.rateOn(t.cashAccount.currencyCode, portfolio.baseCurrencyCode, fromDate(t.date))?.rate;
    if (!rate)
      throw businessRule(
        `No ${t.cashAccount.currencyCode}/${portfolio.baseCurrencyCode} rate on or before ${fromDate(t.date)} for the interest of cash account ${t.cashAccount.id}: import one.`,
      );
    addLabels(account.labels, { "10L": roundMoney(new Decimal(t.amount).times(rate)) });
    byAccount.set(t.cashAccount.id, account);
  }

  const totals: Labels = {};
  for (const r of rows) addLabels(totals, r.labels);
  for (const a of byAccount.values()) addLabels(totals, a.labels);
  return {
    portfolioId: portfolio.id,
    financialYear,
    from,
    to,
    rows,
    holdings: [...byHolding.values()].sort((a, b) => a.holdingId - b.holdingId),
    interest: [...byAccount.values()],
    totals: allLabels(totals),
    unconfirmedIncome,
  };
}
