import { z } from "zod";
import { currencyCode } from "../../lib/codes";
import { dateInput, dateOutput } from "../../lib/dates";
import { acceptingAnswerFields, text, looseEnum } from "../../lib/validation";
import { exchange, exchangeCode, SECURITY_TYPES, symbol } from "../securities/securities.schemas";

const classificationField = text({ min: 1, max: 100 }).nullable().optional();
export const Classification = z.strictObject({
  assetClass: classificationField,
  sector: classificationField,
  industry: classificationField,
});

export const ListHoldingsQuery = z.strictObject({
  includeClosed: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true")
    .or(z.boolean())
    .describe("Include holdings with no units left"),
  date: dateInput.optional().describe("Value on this date (default today)"),
});

export const CreateHoldingInput = z
  .strictObject({
    symbol,
    exchange: exchangeCode
      .default("CUSTOM")
      .describe("A custom investment keeps any code (letters and digits) it is given; default CUSTOM"),
    name: text({ min: 1, max: 200 }),
    currencyCode: currencyCode.optional().describe("Default: the portfolio's base currency"),
    holdingType: looseEnum(SECURITY_TYPES).default("Custom"),
    notes: text({ max: 10_000, trim: false }).optional().nullable(),
    classification: Classification.optional(),
  })
  .meta({ id: "CreateHoldingInput" });

export const UpdateHoldingInput = z
  .strictObject({
    name: text({ min: 1, max: 200 }).optional(),
    notes: text({ max: 10_000, trim: false }).optional().nullable(),
    classification: Classification.optional(),
    drp: z
      .strictObject({ enabled: z.boolean().optional(), rounding: z.enum(["Down", "Nearest", "Up"]).optional() })
      .optional(),
  })
  .meta({ id: "UpdateHoldingInput" });

export const ChangeSymbolInput = z.strictObject({ symbol, exchange }).meta({ id: "ChangeSymbolInput" });

export const HoldingResponse = z
  .object({
    id: z.number().int(),
    portfolioId: z.number().int(),
    symbol: z.string(),
    exchange: z.string(),
    name: z.string(),
    currencyCode: z.string(),
    holdingType: z.enum(SECURITY_TYPES),
    quantity: z.number(),
    costBase: z.number().describe("Base currency"),
    price: z.number().nullable().describe("Holding currency"),
    priceDate: dateOutput.nullable(),
    priceSource: z.enum(["Custom", "Market", "LastTrade", "None"]),
    priceStale: z
      .boolean()
      .describe(
        "The price is older than its exchange's last trading day on or before the valuation date (default today) by more than PRICE_STALE_DAYS calendar days; a custom investment's price never is",
      ),
    pendingCorporateActions: z
      .number()
      .int()
      .describe(
        "Splits or consolidations from the market-data provider, dated on or before the valuation date, neither applied nor dismissed (GET /v1/portfolios/{portfolioId}/corporate-actions?status=Pending): until applied the units are those before the split and the provider's closes those after it, so the market value is off by the ratio",
      ),
    exchangeRate: z.number().nullable().describe("Holding currency → base currency"),
    marketValue: z.number().nullable().describe("Base currency"),
    unrealisedGain: z.number().nullable().describe("Base currency"),
    baseCurrencyCode: z.string(),
    classification: z.object({
      assetClass: z.string().nullable(),
      sector: z.string().nullable(),
      industry: z.string().nullable(),
    }),
    drp: z.object({ enabled: z.boolean(), rounding: z.enum(["Down", "Nearest", "Up"]) }),
    notes: z.string(),
  })
  .meta({ id: "Holding" });

/** The update body: UpdateHoldingInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateHoldingBody = acceptingAnswerFields(UpdateHoldingInput, HoldingResponse);
