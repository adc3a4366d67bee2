import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput } from "../../lib/money";
import { idSchema } from "../../lib/validation";
import { PARCEL_METHODS } from "../ledger";
import { CgtSummaryResponse, FinancialYearQuery, SoldParcelResponse } from "../tax/tax.schemas";

/**
 * The end-of-year tax planner's inputs and answers (docs/reports.md §6.1). `asOf` lies in
 * `financialYear` (checked by the service against the portfolio's year end: 400 otherwise).
 */
const financialYear = FinancialYearQuery.shape.financialYear.describe(
  "The income year: 2025 = 1 July 2024 to 30 June 2025; default the year of asOf",
);
const asOf = dateInput.optional().describe("The planning date, in financialYear; default today (UTC)");
const marginalTaxRate = decimalInput({ scale: 4, min: 0, max: 100 })
  .optional()
  .describe("Percent, 0 to 100 (37 = 37 %); without it every estimatedTax and taxSaved is null");

export const TaxPlannerQuery = z.strictObject({ financialYear, asOf, marginalTaxRate }).meta({ id: "TaxPlannerQuery" });
export type TaxPlannerQuery = z.infer<typeof TaxPlannerQuery>;

const quantity = decimalInput({ scale: 8, min: 0, max: 1e15 }).refine((q) => q.gt(0), "must be more than 0");

/** Sells of one what-if: enough for a year's plan, few enough to fold at once. */
export const MAX_WHAT_IF_SELLS = 100;

export const TaxPlannerWhatIfRequest = z
  .strictObject({
    financialYear: FinancialYearQuery.shape.financialYear
      .unwrap()
      .describe("The income year of the sells and of the summaries: 2025 = 1 July 2024 to 30 June 2025"),
    asOf,
    marginalTaxRate,
    sells: z
      .array(
        z.strictObject({
          holdingId: idSchema,
          quantity,
          price: decimalInput({ scale: 8, min: 0, max: 1e15 })
            .optional()
            .describe("Per unit, in the holding's currency; default the valuation price of date"),
          date: dateInput.optional().describe("In financialYear; default asOf"),
          brokerage: decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount })
            .optional()
            .describe("In the holding's currency; default 0"),
          method: z
            .enum(PARCEL_METHODS)
            .optional()
            .describe("Default: the method that would apply (holding override > year > default > FIFO)"),
          parcels: z
            .array(z.strictObject({ tradeId: idSchema, quantity }))
            .min(1, "must name at least one parcel")
            .max(10_000, "must name at most 10000 parcels")
            .optional()
            .describe("Manual parcels (acquiring trade id → units), as on a Sell trade; they override the method"),
        }),
      )
      .min(1, "must hold at least one sell")
      .max(MAX_WHAT_IF_SELLS, `must hold at most ${MAX_WHAT_IF_SELLS} sells`)
      .describe("Sold together, in this order: each takes its parcels after the ones before it"),
  })
  .meta({ id: "TaxPlannerWhatIfInput" });
export type TaxPlannerWhatIfRequest = z.infer<typeof TaxPlannerWhatIfRequest>;

export const TaxPlannerOverviewQuery = z
  .strictObject({
    financialYear,
    asOf,
    clientId: idSchema
      .optional()
      .describe("Only this client's portfolios (an adviser's account key); a client key sees its own either way"),
  })
  .meta({ id: "TaxPlannerOverviewQuery" });
export type TaxPlannerOverviewQuery = z.infer<typeof TaxPlannerOverviewQuery>;

const money = z.number();
const tax = money.nullable().describe("Null without marginalTaxRate");

const parcelFields = {
  holdingId: z.number().int(),
  symbol: z.string(),
  exchange: z.string(),
  acquisitionTradeId: z.number().int().nullable().describe("Null for units a reinvested distribution allotted"),
  acquisitionDate: dateOutput,
  quantity: z.number(),
};

const planHead = {
  portfolioId: z.number().int(),
  financialYear: z.number().int(),
  asOf: dateOutput,
  entityType: z.string(),
  discountPercent: z.number(),
  marginalTaxRate: z.number().nullable(),
};

export const TaxPlannerResponse = z
  .object({
    ...planHead,
    endOfYear: dateOutput,
    realisedToDate: CgtSummaryResponse,
    unrealised: z
      .object({ gains: money, losses: money.describe("A positive amount") })
      .meta({ id: "TaxPlannerUnrealised" }),
    harvest: z.array(
      z
        .object({
          ...parcelFields,
          costBase: money,
          marketValue: money,
          unrealisedLoss: money.describe("A positive amount"),
          netCapitalGainReduction: money.describe(
            "The year's net capital gain less the same with this parcel sold on asOf",
          ),
          taxSaved: tax,
          washSaleRisk: z.boolean().describe("The holding acquired units in the 30 days up to asOf (ATO TR 2008/1)"),
        })
        .meta({ id: "TaxPlannerHarvestRow" }),
    ),
    waitForDiscount: z.array(
      z
        .object({
          ...parcelFields,
          unrealisedGain: money,
          discountEligibleFrom: dateOutput.describe("The first discountable sale date (both end days excluded)"),
          daysToWait: z.number().int(),
          gainIfSoldNow: money,
          gainIfSoldWhenEligible: money.describe("The gain less the discount, at asOf's price"),
          taxSaved: tax,
        })
        .meta({ id: "TaxPlannerWaitRow" }),
    ),
    projectedNetCapitalGain: money.describe("realisedToDate.netCapitalGain: nothing more sold"),
    estimatedTax: tax,
    warnings: z.array(
      z
        .object({
          code: z.enum(["WASH_SALE_RISK", "NO_PRICE"]),
          holdingId: z.number().int(),
          message: z.string(),
        })
        .meta({ id: "TaxPlannerWarning" }),
    ),
  })
  .meta({ id: "TaxPlannerResult" });

export const TaxPlannerWhatIfResponse = z
  .object({
    ...planHead,
    before: CgtSummaryResponse,
    after: CgtSummaryResponse,
    difference: z
      .object({ netCapitalGain: money, netCapitalLossesCarriedForward: money, estimatedTax: tax })
      .describe("after − before")
      .meta({ id: "TaxPlannerWhatIfDifference" }),
    sells: z.array(
      z
        .object({
          holdingId: z.number().int(),
          symbol: z.string(),
          exchange: z.string(),
          date: dateOutput,
          quantity: z.number(),
          price: z.number().describe("Per unit, in the holding's currency"),
          method: z.string().describe("The parcel method (Manual for chosen parcels)"),
          proceeds: money,
          costBase: money,
          capitalGain: money.describe("Signed: a loss is negative"),
          parcels: z.array(SoldParcelResponse),
        })
        .meta({ id: "TaxPlannerWhatIfSell" }),
    ),
  })
  .meta({ id: "TaxPlannerWhatIfResult" });

export const TaxPlannerOverviewResponse = z
  .array(
    z
      .object({
        portfolioId: z.number().int(),
        name: z.string(),
        entityType: z.string(),
        realisedNetCapitalGain: money,
        unrealisedLosses: money,
        largestHarvestReduction: money,
      })
      .meta({ id: "TaxPlannerOverviewRow" }),
  )
  .meta({ id: "TaxPlannerOverview" });
