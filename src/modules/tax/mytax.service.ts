import type { Context } from "../../context";
import { financialYearRange, today } from "../../lib/dates";
import type { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { capitalGainsOf, type CapitalGainsReport } from "./capital-gains.service";
import type { CgtSummary } from "./cgt";
import { myTaxLines, type MyTaxLine } from "./mytax";
import { renderMyTaxPdf } from "./mytax-pdf";
import { currentFinancialYear, loadTaxBook, readTaxPortfolio } from "./tax-book";
import { FinancialYearQuery } from "./tax.schemas";
import type { IncomeLabel } from "./taxable-income";
import { taxableIncomeOf, type TaxableIncomeReport } from "./taxable-income.service";
import { heavyWork } from "../../lib/heavy-work";

/**
 * GET /v1/portfolios/{p}/reports/ato-mytax, GraphQL `myTaxReport` (REPORTS.md §5.4): every myTax
 * label in order, to the cent, from the capital gains and taxable income reports of the year.
 * The PDF renders the same report with the disposals and the income per holding.
 */
export interface MyTaxReport {
  portfolioId: number;
  portfolioName: string;
  financialYear: number;
  entityType: string;
  labels: MyTaxLine[];
  capitalGains: CgtSummary;
  taxableIncome: Record<IncomeLabel, Decimal>;
}

/** What the PDF shows beyond the JSON report. */
export interface MyTaxDocument {
  report: MyTaxReport;
  from: string;
  to: string;
  discountPercent: Decimal;
  disposals: CapitalGainsReport["disposals"];
  income: TaxableIncomeReport;
}

export async function myTaxReport(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<MyTaxReport> {
  return (await myTaxDocument(ctx, portfolioId, query)).report;
}

/** GET …/reports/ato-mytax/pdf: the same report rendered as a PDF (mytax-pdf.ts). */
export async function myTaxReportPdf(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<{ fileName: string; data: Uint8Array }> {
  const document = await myTaxDocument(ctx, portfolioId, query);
  return { fileName: `mytax-${document.report.portfolioId}-FY${document.report.financialYear}.pdf`, data: await renderMyTaxPdf(document, today()) };
}

export function myTaxDocument(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<MyTaxDocument> {
  return heavyWork(ctx, () => myTaxDocumentNow(ctx, portfolioId, query));
}

async function myTaxDocumentNow(ctx: Context, portfolioId: unknown, query: unknown): Promise<MyTaxDocument> {
  const request = parseInput(FinancialYearQuery, query ?? {}, "The query");
  const { portfolio, book, income, financialYear, from, to } = await readTaxPortfolio(ctx, portfolioId, async (portfolio) => {
    const financialYear = request.financialYear ?? currentFinancialYear(portfolio);
    const { from, to } = financialYearRange(financialYear, portfolio.financialYearEnd);
    const [book, income] = await Promise.all([loadTaxBook(ctx, portfolio, to), taxableIncomeOf(ctx, portfolio, financialYear)]);
    return { portfolio, book, income, financialYear, from, to };
  });
  const capitalGains = capitalGainsOf(portfolio, book, financialYear, from, to);
  return {
    report: {
      portfolioId: portfolio.id,
      portfolioName: portfolio.name,
      financialYear,
      entityType: portfolio.entityType,
      labels: myTaxLines(income.totals, capitalGains.summary),
      capitalGains: capitalGains.summary,
      taxableIncome: income.totals,
    },
    from,
    to,
    discountPercent: capitalGains.discountPercent,
    disposals: capitalGains.disposals,
    income,
  };
}
