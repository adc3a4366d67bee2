import type { Prisma } from "../../../generated/prisma/client";
import { toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { incomeAmounts, roundMoney } from "../ledger";

/**
 * What a tax report leaves out (docs/reports.md §5): income records paid in the report's year that
 * are not confirmed. Only confirmed income enters the reports (docs/rules.md §6.1); a report that
 * says nothing of the others reads as complete when a provider's dividends still wait to be checked.
 */
export interface UnconfirmedIncome {
  /** Records paid in the year and not confirmed. */
  count: number;
  /** Their gross amounts (franked + unfranked + foreign income), in the base currency at each record's rate. */
  grossAmount: Decimal;
}

export async function unconfirmedIncomeOf(
  db: Prisma.TransactionClient,
  portfolioId: number,
  from: string,
  to: string,
): Promise<UnconfirmedIncome> {
  const rows = await db.income.findMany({
    where: { portfolioId, isConfirmed: false, paidDate: { gte: toDate(from), lte: toDate(to) } },
    select: {
      frankedAmount: true,
      unfrankedAmount: true,
      foreignIncome: true,
      withholdingTax: true,
      foreignTaxPaid: true,
      exchangeRate: true,
    },
  });
  let grossAmount = new Decimal(0);
  for (const r of rows) {
    const { grossAmount: gross } = incomeAmounts(r);
    // Each record rounded as the labels round it (taxable-income.ts).
    grossAmount = grossAmount.plus(roundMoney(gross.times(new Decimal(r.exchangeRate))));
  }
  return { count: rows.length, grossAmount };
}
