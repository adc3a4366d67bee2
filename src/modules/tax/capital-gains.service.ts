import type { Context } from "../../context";
import { today } from "../../lib/dates";
import { renderCapitalGainsPdf } from "./cgt-schedule-pdf";
import type { Decimal } from "../../lib/money";
import { discountPercentOf } from "../ledger/discount";
import { lossLedger, type CgtSummary } from "./cgt";
import {
  loadTaxBook,
  readTaxPortfolio,
  reportYear,
  taxReport,
  yearsOf,
  type TaxBook,
  type TaxPortfolio,
} from "./tax-book";
import type { CapitalGainsReport } from "./disposal-rows";
import { FinancialYearQuery } from "./tax.schemas";

export type { CapitalGainsReport } from "./disposal-rows";
import { unconfirmedIncomeOf, type UnconfirmedIncome } from "./unconfirmed-income";

/**
 * GET /v1/portfolios/{p}/reports/capital-gains, GraphQL `capitalGainsReport` (docs/reports.md §5.1):
 * the year's CGT events parcel by parcel and the s100-50 summary, with the losses the portfolio's
 * own earlier years left unused (the loss ledger) plus those entered in its tax settings.
 */

export async function capitalGainsReport(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<CapitalGainsReport> {
  return (await capitalGainsDocument(ctx, portfolioId, query)).report;
}

/**
 * GET …/reports/capital-gains/pdf: the same report as the CGT schedule an accountant files
 * (cgt-schedule-pdf.ts).
 */
export async function capitalGainsReportPdf(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<{ fileName: string; data: Uint8Array }> {
  const { report, portfolioName } = await capitalGainsDocument(ctx, portfolioId, query);
  return {
    fileName: `capital-gains-${report.portfolioId}-FY${report.financialYear}.pdf`,
    data: await renderCapitalGainsPdf({ ...report, portfolioName }, today()),
  };
}

function capitalGainsDocument(
  ctx: Context,
  portfolioId: unknown,
  query: unknown,
): Promise<{ report: CapitalGainsReport; portfolioName: string }> {
  return taxReport(ctx, FinancialYearQuery, query, async (request) => {
    const { portfolio, book, unconfirmed, financialYear, from, to } = await readTaxPortfolio(
      ctx,
      portfolioId,
      async (portfolio) => {
        const { financialYear, from, to } = reportYear(request.financialYear, portfolio);
        const [book, unconfirmed] = await Promise.all([
          loadTaxBook(ctx, portfolio, to),
          unconfirmedIncomeOf(ctx.db, portfolio.id, from, to),
        ]);
        return { portfolio, book, unconfirmed, financialYear, from, to };
      },
    );
    return {
      report: capitalGainsOf(portfolio, book, financialYear, from, to, unconfirmed),
      portfolioName: portfolio.name,
    };
  });
}

/** The report of one year from a loaded book (myTax reads it too). */
export function capitalGainsOf(
  portfolio: TaxPortfolio,
  book: TaxBook,
  financialYear: number,
  from: string,
  to: string,
  unconfirmedIncome: UnconfirmedIncome,
): CapitalGainsReport {
  const years = lossLedger(yearsOf(book), book.entered, book.discountRate, financialYear);
  return {
    portfolioId: portfolio.id,
    financialYear,
    from,
    to,
    entityType: portfolio.entityType,
    discountPercent: discountPercentOf(book.discountRate),
    summary: years[years.length - 1].summary,
    disposals: book.disposals
      .filter((d) => d.financialYear === financialYear)
      .map(({ financialYear: _, ...row }) => row),
    unconfirmedIncome,
  };
}
