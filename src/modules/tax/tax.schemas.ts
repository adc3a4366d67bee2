import { z } from "zod";
import { dateInput, dateOutput, financialYearInput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput, positiveRateInput } from "../../lib/money";
import { booleanFlag, idSchema } from "../../lib/validation";
import { PARCEL_METHODS } from "../ledger";
import { INCOME_LABELS } from "./taxable-income";
import { MYTAX_INCOME_LABELS, MYTAX_LABELS } from "./mytax";

/**
 * The tax reports' inputs and answers (docs/reports.md §5). `financialYear` 2025 is the year ending
 * 30 June 2025 (or the portfolio's own year end), from 1986 (lib/dates.ts financialYearInput); a
 * query string gives it as text.
 */
const YEAR_MESSAGE = "must be a year such as 2025 (the year ending 30 June 2025)";
const financialYear = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\d{4}$/)
        .transform(Number),
    ],
    { error: YEAR_MESSAGE },
  )
  .pipe(financialYearInput)
  .describe("The income year: 2025 = 1 July 2024 to 30 June 2025; default the current one");

export const FinancialYearQuery = z
  .strictObject({ financialYear: financialYear.optional() })
  .meta({ id: "FinancialYearQuery" });
export type FinancialYearQuery = z.infer<typeof FinancialYearQuery>;

export const UnrealisedQuery = z
  .strictObject({
    date: dateInput.optional().describe("The valuation date, not in the future; default today"),
    includeCarriedForward: booleanFlag.optional().describe("Apply the losses carried into that year (default false)"),
  })
  .meta({ id: "UnrealisedCapitalGainsQuery" });
export type UnrealisedQuery = z.infer<typeof UnrealisedQuery>;

export const SimulateSellRequest = z
  .strictObject({
    holdingId: idSchema,
    quantity: decimalInput({ scale: 8, min: 0, max: 1e15 }).refine((q) => q.gt(0), "must be more than 0"),
    price: decimalInput({ scale: 8, min: 0, max: 1e15 }).describe("Per unit, in the holding's currency"),
    date: dateInput,
    brokerage: decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount })
      .optional()
      .describe("In the holding's currency; default 0"),
    exchangeRate: positiveRateInput()
      .optional()
      .describe("AUD per unit of the holding's currency; default the FX rule's rate on `date`"),
    method: z
      .enum(PARCEL_METHODS)
      .optional()
      .describe("Default: the method that would apply (holding override > year > default > FIFO)"),
    parcels: z
      .array(
        z.strictObject({
          tradeId: idSchema,
          quantity: decimalInput({ scale: 8, min: 0, max: 1e15 }).refine((q) => q.gt(0), "must be more than 0"),
        }),
      )
      .min(1, "must name at least one parcel")
      .max(10_000, "must name at most 10000 parcels")
      .optional()
      .describe("Manual parcels (acquiring trade id → units), as on a Sell trade; they override the method"),
  })
  .meta({ id: "SimulateSellInput" });
export type SimulateSellRequest = z.infer<typeof SimulateSellRequest>;

const money = z.number();

export const CgtSummaryResponse = z
  .object({
    shortTermGains: money,
    longTermGains: money,
    trustCapitalGains: money.describe("Grossed up: discounted capital gains × 2, plus non-discounted ones"),
    capitalLosses: money,
    lossesAppliedToShortTerm: money,
    lossesAppliedToLongTerm: money,
    carriedForwardLossesAvailable: money,
    carriedForwardLossesApplied: money,
    discount: money,
    totalCapitalGains: money.describe("Label 18H"),
    netCapitalGain: money.describe("Label 18A"),
    netCapitalLossesCarriedForward: money.describe("Label 18V"),
  })
  .meta({ id: "CapitalGainsSummary" });

export const UnconfirmedIncomeResponse = z
  .object({
    count: z.number().int().describe("Income records paid in the report's year that are not confirmed"),
    grossAmount: money.describe(
      "Their gross amounts (franked + unfranked + foreign income) in AUD, each at its record's rate",
    ),
  })
  .describe(
    "What the report leaves out: only confirmed income enters it (docs/rules.md §6.1); confirm these records (PUT /v1/income/{i}/confirm) to count them",
  )
  .meta({ id: "UnconfirmedIncome" });

const disposalFields = {
  acquisitionTradeId: z.number().int().nullable().describe("Null for units a reinvested distribution allotted"),
  acquisitionDate: dateOutput,
  quantity: z.number(),
  costBase: money,
  proceeds: money,
  capitalGain: money.describe("Signed: a loss is negative"),
  isDiscountable: z.boolean(),
};

/** A parcel a simulated sell takes: simulate sell's, and each of the tax planner's what-if sells. */
export const SoldParcelResponse = z.object(disposalFields).meta({ id: "SimulatedParcel" });

export const DisposalResponse = z
  .object({
    holdingId: z.number().int(),
    symbol: z.string(),
    exchange: z.string(),
    eventType: z.enum(["Sell", "Cancellation", "CapitalReturnExcess"]),
    saleTradeId: z.number().int().nullable(),
    ...disposalFields,
    disposalDate: dateOutput,
    method: z
      .string()
      .nullable()
      .describe("The parcel method of a Sell (Manual for chosen parcels); null for other events"),
  })
  .meta({ id: "CapitalGainsDisposal" });

export const CapitalGainsResponse = z
  .object({
    portfolioId: z.number().int(),
    financialYear: z.number().int(),
    from: dateOutput,
    to: dateOutput,
    entityType: z.string(),
    discountPercent: z.number().describe("The CGT discount, percent to two decimals: 50, 33.33 (an SMSF's 33⅓) or 0"),
    summary: CgtSummaryResponse,
    disposals: z.array(DisposalResponse),
    unconfirmedIncome: UnconfirmedIncomeResponse,
  })
  .meta({ id: "CapitalGainsReport" });

const labelMap = z.partialRecord(z.enum(INCOME_LABELS), money).describe("myTax label → amount (non-zero ones)");
/** Every income label, zeros included. */
const labelTotals = z
  .object(
    Object.fromEntries(INCOME_LABELS.map((l) => [l, money])) as Record<(typeof INCOME_LABELS)[number], typeof money>,
  )
  .describe("Every label, zeros included");

export const UnrealisedResponse = z
  .object({
    portfolioId: z.number().int(),
    date: dateOutput,
    financialYear: z.number().int(),
    entityType: z.string(),
    discountPercent: z.number().describe("The CGT discount, percent to two decimals: 50, 33.33 (an SMSF's 33⅓) or 0"),
    summary: CgtSummaryResponse,
    holdings: z.array(
      z
        .object({
          holdingId: z.number().int(),
          symbol: z.string(),
          exchange: z.string(),
          quantity: z.number(),
          marketValue: money,
          costBase: money,
          unrealisedGain: money,
          shortTermGain: money,
          longTermGain: money,
          capitalLoss: money,
          nextDiscountDate: dateOutput.nullable(),
          parcels: z.array(z.object({ ...disposalFields, disposalDate: dateOutput }).meta({ id: "UnrealisedParcel" })),
        })
        .meta({ id: "UnrealisedHolding" }),
    ),
    unpricedHoldings: z
      .array(
        z
          .object({
            holdingId: z.number().int(),
            symbol: z.string(),
            exchange: z.string(),
            quantity: z.number(),
            costBase: money,
          })
          .meta({ id: "UnpricedHolding" }),
      )
      .describe(
        "Holdings with open parcels and no price or rate on the day: out of the figures (nothing to sell them at), named here",
      ),
  })
  .meta({ id: "UnrealisedCapitalGainsReport" });

export const TaxableIncomeResponse = z
  .object({
    portfolioId: z.number().int(),
    financialYear: z.number().int(),
    from: dateOutput,
    to: dateOutput,
    rows: z.array(
      z
        .object({
          incomeId: z.number().int(),
          holdingId: z.number().int(),
          symbol: z.string(),
          exchange: z.string(),
          exDividendDate: dateOutput,
          paidDate: dateOutput,
          labels: labelMap,
        })
        .meta({ id: "TaxableIncomeRow" }),
    ),
    holdings: z.array(
      z
        .object({ holdingId: z.number().int(), symbol: z.string(), exchange: z.string(), labels: labelMap })
        .meta({ id: "TaxableIncomeHolding" }),
    ),
    interest: z.array(
      z
        .object({ cashAccountId: z.number().int(), name: z.string(), labels: labelMap })
        .meta({ id: "TaxableIncomeInterest" }),
    ),
    totals: labelTotals,
    unconfirmedIncome: UnconfirmedIncomeResponse,
  })
  .meta({ id: "TaxableIncomeReport" });

export const MyTaxResponse = z
  .object({
    portfolioId: z.number().int(),
    portfolioName: z.string(),
    financialYear: z.number().int(),
    entityType: z.string(),
    labels: z.array(
      z
        .object({
          label: z.enum(MYTAX_LABELS.map((l) => l.label) as [string, ...string[]]),
          section: z.string(),
          description: z.string(),
          amount: money.describe("Whole cents"),
        })
        .meta({ id: "MyTaxLabel" }),
    ),
    capitalGains: CgtSummaryResponse,
    taxableIncome: z
      .object(
        Object.fromEntries(MYTAX_INCOME_LABELS.map((l) => [l, money])) as Record<
          (typeof MYTAX_INCOME_LABELS)[number],
          typeof money
        >,
      )
      .describe(
        "The income labels to the cent, as `labels` has them; not 18H, which is the year's total capital gains (the trusts' part: capitalGains.trustCapitalGains)",
      ),
    unconfirmedIncome: UnconfirmedIncomeResponse,
  })
  .meta({ id: "MyTaxReport" });

export const SimulateSellResponse = z
  .object({
    holdingId: z.number().int(),
    symbol: z.string(),
    date: dateOutput,
    quantity: z.number(),
    method: z.string(),
    proceeds: money,
    costBase: money,
    capitalGain: money,
    shortTermGain: money,
    longTermGain: money,
    capitalLoss: money,
    discount: money,
    assessableCapitalGain: money.describe("The sale alone, as if it were the year's only CGT event"),
    parcels: z.array(SoldParcelResponse),
    yearToDate: z
      .object({ financialYear: z.number().int(), netCapitalGainBefore: money, netCapitalGainAfter: money })
      .meta({ id: "SimulateSellYearToDate" }),
  })
  .meta({ id: "SimulateSellResult" });
