import { FileResponse, type Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { capitalGainsReport, capitalGainsReportPdf } from "./capital-gains.service";
import { myTaxReport, myTaxReportPdf } from "./mytax.service";
import { simulateSell } from "./simulate-sell.service";
import { CAPITAL_GAINS_CSV, TAXABLE_INCOME_CSV, UNREALISED_CSV } from "./tax.csv";
import { taxableIncomeReport } from "./taxable-income.service";
import {
  CapitalGainsResponse,
  FinancialYearQuery,
  MyTaxResponse,
  SimulateSellRequest,
  SimulateSellResponse,
  TaxableIncomeResponse,
  UnrealisedQuery,
  UnrealisedResponse,
} from "./tax.schemas";
import { unrealisedCapitalGainsReport } from "./unrealised.service";

const route = routeTable({ tag: "Reports" });
const pdfFile = (pdf: { fileName: string; data: Uint8Array }) =>
  new FileResponse("application/pdf", pdf.fileName, pdf.data);
const AU_ONLY = "For portfolios in AUD with Australian tax residency (422 otherwise).";

export const taxRoutes: Endpoint[] = [
  route.get(
    "/portfolios/:portfolioId/reports/capital-gains",
    capitalGainsReport,
    "Realised capital gains of a financial year (CGT report)",
    {
      description: `Every CGT event of the year parcel by parcel, and the ITAA 1997 s100-50 summary with labels 18H, 18A and 18V; losses carried in from the portfolio's own earlier years plus those entered in its tax settings (docs/reports.md §5.1, docs/rules.md §4–5). As CSV: one row per parcel sold; as a PDF (the CGT schedule): …/capital-gains/pdf. ${AU_ONLY}`,
      query: FinancialYearQuery,
      response: CapitalGainsResponse,
      csvAnswer: CAPITAL_GAINS_CSV,
    },
  ),
  route.get(
    "/portfolios/:portfolioId/reports/capital-gains/pdf",
    capitalGainsReportPdf,
    "The capital gains report as a PDF (the CGT schedule)",
    {
      description: `A4, fonts embedded: the portfolio, the year and the entity, the capital gains summary with 18H, 18A and 18V, every CGT event parcel by parcel, page numbers (docs/reports.md §5.1). ${AU_ONLY}`,
      query: FinancialYearQuery,
      fileResponse: { types: ["application/pdf"] },
      handler: async (ctx, req) => pdfFile(await capitalGainsReportPdf(ctx, req.params.portfolioId, req.query)),
    },
  ),
  route.get(
    "/portfolios/:portfolioId/reports/unrealised-capital-gains",
    unrealisedCapitalGainsReport,
    "The capital gains if every open parcel were sold on a date",
    {
      description: `Each open parcel sold at that day's valuation price, per holding with nextDiscountDate, and the summary (docs/reports.md §5.2). A date in the future: 400. As CSV: one row per open parcel of a priced holding. ${AU_ONLY}`,
      query: UnrealisedQuery,
      response: UnrealisedResponse,
      csvAnswer: UNREALISED_CSV,
    },
  ),
  route.get(
    "/portfolios/:portfolioId/reports/taxable-income",
    taxableIncomeReport,
    "Confirmed income of a financial year by myTax label",
    {
      description: `Per income record, per holding and in total, with cash interest at 10L; dividends in the year they are paid, trust distributions in the year of entitlement (docs/reports.md §5.3, docs/rules.md §6). As CSV: one row per income record, then per cash account's interest, a column per label. ${AU_ONLY}`,
      query: FinancialYearQuery,
      response: TaxableIncomeResponse,
      csvAnswer: TAXABLE_INCOME_CSV,
    },
  ),
  route.get("/portfolios/:portfolioId/reports/ato-mytax", myTaxReport, "The ATO myTax labels of a financial year", {
    description: `10L 10M 11S 11T 11U 11V 13U 13C 13Q 13R 18H 18A 18V 20E 20M 20O, each once and to the cent, with the capital gains summary and the income totals (docs/reports.md §5.4). ${AU_ONLY}`,
    query: FinancialYearQuery,
    response: MyTaxResponse,
  }),
  route.get("/portfolios/:portfolioId/reports/ato-mytax/pdf", myTaxReportPdf, "The ATO myTax report as a PDF", {
    description: `A4, fonts embedded: the label table, the capital gains summary, the disposals, the income per holding, page numbers. ${AU_ONLY}`,
    query: FinancialYearQuery,
    fileResponse: { types: ["application/pdf"] },
    handler: async (ctx, req) => {
      const pdf = await myTaxReportPdf(ctx, req.params.portfolioId, req.query);
      return new FileResponse("application/pdf", pdf.fileName, pdf.data);
    },
  }),
  route.post("/portfolios/:portfolioId/simulate-sell", simulateSell, "The capital gain of a sell that is not made", {
    description: `The parcels the sell would take, its gain split, discount and assessable gain, and its effect on the year's net capital gain (docs/reports.md §5.5). Writes nothing, so a Read client key may call it. More units than held on that date: 422. ${AU_ONLY}`,
    body: SimulateSellRequest,
    response: SimulateSellResponse,
    status: 200,
    readsOnly: true,
  }),
];
