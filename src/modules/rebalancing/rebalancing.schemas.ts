import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { decimalInput } from "../../lib/money";
import { idSchema, looseEnum } from "../../lib/validation";
import { publicIdInput } from "../allocation-models/allocation-models.schemas";

/** The rebalance request (docs/reports.md §4.2). */
export const REBALANCE_MODES = ["BuyOnly", "BuyAndSell"] as const;
export const REBALANCE_BANDS = ["Tolerance", "ExactTarget"] as const;

const money = decimalInput({ scale: 4, min: 0, max: 1e14 });

export const RebalanceRequest = z
  .strictObject({
    modelPublicId: publicIdInput
      .optional()
      .describe("The model to rebalance to; default: the portfolio's active model"),
    cashToInvest: money.optional().describe("New money to invest, base currency, ≥ 0; default 0"),
    mode: looseEnum(REBALANCE_MODES)
      .optional()
      .describe("BuyOnly never sells; BuyAndSell (default) sells overweight buckets to fund underweight ones"),
    wholeUnits: z.boolean().optional().describe("Floor quantities to whole units (default true)"),
    minTradeValue: money.optional().describe("Legs worth less than this (base currency) are dropped; default 0"),
    band: looseEnum(REBALANCE_BANDS)
      .optional()
      .describe("Tolerance (default) trades only out-of-band buckets; ExactTarget trades every bucket to target"),
    excludeHoldingIds: z
      .array(idSchema)
      .max(10_000)
      .optional()
      .describe("Holdings left out of the plan: not valued, not traded"),
    taxAware: z
      .boolean()
      .optional()
      .describe(
        "Sell legs take loss parcels first, then discount-eligible ones, and carry estimatedCapitalGain and parcels",
      ),
    asOf: dateInput.optional().describe("Valuation date; default today (UTC)"),
  })
  .meta({ id: "RebalanceInput" });
export type RebalanceRequest = z.output<typeof RebalanceRequest>;

const DriftEntryResponse = z
  .object({
    label: z.string(),
    currentValue: z.number().describe("Base currency"),
    currentPct: z.number(),
    targetPct: z.number(),
    tolerancePct: z.number(),
    driftPct: z.number(),
    status: z.enum(["InBand", "Under", "Over", "Untargeted"]),
  })
  .meta({ id: "DriftEntry" });

const DriftReportResponse = z
  .object({ entries: z.array(DriftEntryResponse), maxDriftPct: z.number(), outOfBandCount: z.number().int() })
  .meta({ id: "DriftReport" });

const LegParcelResponse = z
  .object({
    tradeId: z.number().int().nullable(),
    acquisitionDate: dateOutput,
    units: z.number(),
    costBase: z.number().describe("Base currency"),
    capitalGain: z.number().describe("Base currency, before any discount"),
  })
  .meta({ id: "RebalanceLegParcel" });

const LegResponse = z
  .object({
    holdingId: z.number().int().nullable().describe("null: a security the portfolio does not hold yet"),
    symbol: z.string(),
    exchange: z.string(),
    label: z.string(),
    side: z.enum(["Buy", "Sell"]),
    quantity: z.number(),
    price: z.number().describe("The valuation price on asOf, in currencyCode"),
    currencyCode: z
      .string()
      .describe("The currency of price: the holding's, or the security's for one the portfolio does not hold yet"),
    value: z.number().describe("Base currency"),
    estimatedCapitalGain: z
      .number()
      .optional()
      .describe("taxAware sell legs: the capital gain (loss negative) before any discount"),
    parcels: z.array(LegParcelResponse).optional(),
  })
  .meta({ id: "RebalanceLeg" });

const WarningResponse = z
  .object({
    code: z.enum(["NO_HOLDING_NO_PRICE", "NO_PRICE", "BELOW_MIN_TRADE", "WHOLE_UNITS_CASH"]),
    message: z.string(),
    label: z.string().optional(),
    holdingId: z.number().int().optional(),
  })
  .meta({ id: "RebalanceWarning" });

export const RebalanceResponse = z
  .object({
    portfolioId: z.number().int(),
    modelPublicId: z.string(),
    asOf: dateOutput,
    totalValue: z.number().describe("Base currency: holdings in scope + cashAvailable + cashToInvest"),
    cashAvailable: z.number().describe("The cash accounts' balance, counted only with a Cash bucket"),
    driftReport: DriftReportResponse,
    legs: z.array(LegResponse),
    postTradeDrift: DriftReportResponse,
    cashRemaining: z.number(),
    warnings: z.array(WarningResponse),
  })
  .meta({ id: "RebalanceResult" });

export const DriftOverviewQuery = z
  .strictObject({
    clientId: idSchema
      .optional()
      .describe("Only this client's portfolios (an adviser's account key); a client key sees its own either way"),
  })
  .meta({ id: "DriftOverviewQuery" });

export const DriftOverviewResponse = z
  .array(
    z
      .object({
        portfolioId: z.number().int(),
        portfolioName: z.string(),
        clientId: z.number().int().nullable(),
        modelPublicId: z.string(),
        modelName: z.string(),
        totalValue: z.number().describe("Base currency of the portfolio"),
        maxDriftPct: z.number(),
        outOfBandCount: z.number().int(),
      })
      .meta({ id: "DriftOverviewRow" }),
  )
  .describe("Portfolios with an active model, most drifted first");
