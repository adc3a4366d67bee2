import type { Context } from "../../context";
import { today } from "../../lib/dates";
import { capitalGainsOf } from "./capital-gains.service";
import { myTaxIncomeTotals, myTaxLines } from "./mytax";
import type { MyTaxDocument, MyTaxReport } from "./mytax-document";
import { renderMyTaxPdf } from "./mytax-pdf";
import { loadTaxBook, readTaxPortfolio, reportYear, taxReport } from "./tax-book";
import { FinancialYearQuery } from "./tax.schemas";
import { taxableIncomeOf } from "./taxable-income.service";

export type { MyTaxDocument, MyTaxReport } from "./mytax-document";

/**
 * GET /v1/portfolios/{p}/reports/ato-mytax, GraphQL `myTaxReport` (docs/reports.md §5.4): every myTax
 * label in order, to the cent, from the capital gains and taxable income reports of the year.
 * The PDF renders the same report with the disposals and the income per holding.
 */
export async function myTaxReport(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<MyTaxReport> {
  return (await myTaxDocument(ctx, portfolioId, query)).report;
}

/** GET …/reports/ato-mytax/pdf: the same report rendered as a PDF (mytax-pdf.ts). */
export async function myTaxReportPdf(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<{ fileName: string; data: Uint8Array }> {
  const document = await myTaxDocument(ctx, portfolioId, query);
  return {
    fileName: `mytax-${document.report.portfolioId}-FY${document.report.financialYear}.pdf`,
    data: await renderMyTaxPdf(document, today()),
  };
}

export function myTaxDocument(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<MyTaxDocument> {
  return taxReport(ctx, FinancialYearQuery, query, (request) => myTaxDocumentOf(ctx, portfolioId, request));
}

async function myTaxDocumentOf(
  ctx: Context,
  portfolioId: unknown,
  request: FinancialYearQuery,
): Promise<MyTaxDocument> {
  const { portfolio, book, income, financialYear, from, to } = await readTaxPortfolio(
    ctx,
    portfolioId,
    async (portfolio) => {
      const { financialYear, from, to } = reportYear(request.financialYear, portfolio);
      const [book, income] = await Promise.all([
        loadTaxBook(ctx, portfolio, to),
        taxableIncomeOf(ctx, portfolio, financialYear),
      ]);
      return { portfolio, book, income, financialYear, from, to };
    },
  );
  // Both reports read the same unconfirmed records (paid in the year): counted once.
  const capitalGains = capitalGainsOf(portfolio, book, financialYear, from, to, income.unconfirmedIncome);
  return {
    report: {
      portfolioId: portfolio.id,
      portfolioName: portfolio.name,
      financialYear,
      entityType: portfolio.entityType,
      labels: myTaxLines(income.totals, capitalGains.summary),
      capitalGains: capitalGains.summary,
      taxableIncome: myTaxIncomeTotals(income.totals),
      unconfirmedIncome: income.unconfirmedIncome,
    },
    from,
    to,
    discountPercent: capitalGains.discountPercent,
    disposals: capitalGains.disposals,
    income,
  };
}
