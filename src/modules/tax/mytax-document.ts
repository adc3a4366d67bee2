import type { Decimal } from "../../lib/money";
import type { CapitalGainsReport } from "./capital-gains.service";
import type { CgtSummary } from "./cgt";
import type { MyTaxIncomeLabel, MyTaxLine } from "./mytax";
import type { TaxableIncomeReport } from "./taxable-income.service";
import type { UnconfirmedIncome } from "./unconfirmed-income";

/**
 * The myTax report (REST and GraphQL: every label of the year, with the figures they come from) and
 * the document its PDF renders: the types mytax.service.ts builds and mytax-pdf.ts reads.
 */
export interface MyTaxReport {
  portfolioId: number;
  portfolioName: string;
  financialYear: number;
  entityType: string;
  labels: MyTaxLine[];
  capitalGains: CgtSummary;
  /** The income labels to the cent, as `labels` has them; 18H only in `labels` (the trusts' part: capitalGains.trustCapitalGains). */
  taxableIncome: Record<MyTaxIncomeLabel, Decimal>;
  /** Income paid in the year and not confirmed: left out of every label. */
  unconfirmedIncome: UnconfirmedIncome;
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
