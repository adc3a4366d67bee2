import type { CapitalGainsReport } from "./disposal-rows";
import { capitalGainsSections, finishTaxPdf, openTaxPdf } from "./pdf-layout";

/** What the schedule prints: the capital gains report of a year, with its portfolio's name. */
export type CgtScheduleDocument = CapitalGainsReport & { portfolioName: string };

/**
 * The capital gains report (docs/reports.md §5.1) as the CGT schedule an accountant files with the
 * return: A4, the portfolio, the year, the entity and its discount; the capital gains summary with
 * 18H, 18A and 18V; every CGT event parcel by parcel; what the figures leave out; "Page n of m" on
 * every page, fonts embedded (pdf-layout.ts, as the myTax PDF). Rendering only: every figure
 * comes from the report.
 */
export async function renderCapitalGainsPdf(report: CgtScheduleDocument, generatedOn: string): Promise<Uint8Array> {
  const { pdf, bytes } = await openTaxPdf({
    info: {
      Title: `CGT schedule — ${report.portfolioName} — FY${report.financialYear}`,
      Subject: "Capital gains of an income year",
    },
    title: "Capital gains tax schedule",
    subject: report,
    prepared: `Prepared on ${generatedOn} from the portfolio's records. Amounts in AUD.`,
    // A confirmed trust distribution brings capital gains and cost base changes: unconfirmed ones are out.
    unconfirmed: {
      ...report.unconfirmedIncome,
      meaning: "a trust distribution among them may carry capital gains",
    },
  });
  capitalGainsSections(pdf, report.summary, report.disposals, "CGT events");

  finishTaxPdf(
    pdf,
    "Net capital gain by ITAA 1997 s100-50: current-year losses and then losses carried forward come off non-discount gains first, the discount applies to what remains of the discount gains. " +
      "Each sale takes its parcels by the method recorded for it. Not covered: the indexation method, pre-CGT assets, small-business concessions, and anything outside these records.",
    `${report.portfolioName} — CGT schedule FY${report.financialYear}`,
  );
  return bytes;
}
