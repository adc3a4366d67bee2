import { z } from "zod";
import { currencyCode } from "../../lib/codes";
import { dateInput, dateOutput } from "../../lib/dates";
import { positivePriceInput, positiveRateInput } from "../../lib/money";
import { acceptingAnswerFields, crossField, looseEnum, upperCased } from "../../lib/validation";
import { exchange, symbol } from "../securities/securities.schemas";

/**
 * Prices keep 8 decimals (DECIMAL(24, 8)), rates 10 (DECIMAL(20, 10)) (docs/conventions.md §4.2). Both above
 * 0: a close of 0 is no price (the reports would divide by it), and the CSV rows go through these
 * same schemas.
 */
const price = positivePriceInput();
const rate = positiveRateInput();

export const MAX_CUSTOM_PRICES = 10_000;
export const MAX_BULK_ROWS = 50_000;

export const CustomPriceInput = z
  .strictObject({ date: dateInput, price: price.describe("Per unit, in the holding's currency") })
  .meta({ id: "CustomPriceInput" });
export type CustomPriceInput = z.output<typeof CustomPriceInput>;

export const CustomPricesInput = z
  .array(CustomPriceInput)
  .min(1, "must have at least 1 price")
  .max(MAX_CUSTOM_PRICES, `must have at most ${MAX_CUSTOM_PRICES} prices`)
  .meta({ id: "CustomPricesInput" });

/** Fields absent stay as they are. */
export const UpdateCustomPriceInput = z
  .strictObject({ date: dateInput.optional(), price: price.optional() })
  .meta({ id: "UpdateCustomPriceInput" });

/** One closing price; symbol and exchange are upper-cased. */
export const MarketPriceRow = z
  .strictObject({
    symbol,
    exchange,
    date: dateInput,
    close: price.describe("Closing price, in the security's currency"),
  })
  .meta({ id: "MarketPriceInput" });
export type MarketPriceRow = z.output<typeof MarketPriceRow>;
export const MARKET_PRICE_COLUMNS = ["symbol", "exchange", "date", "close"] as const;

/** One exchange rate: one `base` buys `rate` of `quote` on `date`. */
export const FxRateRow = z
  .strictObject({
    base: upperCased(currencyCode),
    quote: upperCased(currencyCode),
    date: dateInput,
    rate: rate.describe("Units of quote per unit of base"),
  })
  .check(
    crossField((r, ctx, valid) => {
      if (valid("base") && valid("quote") && r.base === r.quote)
        ctx.addIssue({ code: "custom", path: ["quote"], message: "must differ from base" });
    }),
  )
  .meta({ id: "FxRateInput" });
export type FxRateRow = z.output<typeof FxRateRow>;
export const FX_RATE_COLUMNS = ["base", "quote", "date", "rate"] as const;

/** Bulk bodies as documented: a JSON array, or text/csv with the same columns as its header. */
export const MarketPricesBulkInput = z
  .array(MarketPriceRow)
  .max(MAX_BULK_ROWS)
  .describe("Or text/csv with header symbol,exchange,date,close");
export const FxRatesBulkInput = z
  .array(FxRateRow)
  .max(MAX_BULK_ROWS)
  .describe("Or text/csv with header base,quote,date,rate");

const range = {
  from: dateInput.optional().describe("First date (inclusive)"),
  to: dateInput.optional().describe("Last date (inclusive)"),
};
const rangeRule = crossField<{ from?: string; to?: string }>((q, ctx, valid) => {
  if (valid("from") && valid("to") && q.from && q.to && q.from > q.to)
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
});

/** Whose rows a price or rate list shows: the account's imports (default), the provider's, or both as the price rule reads them. */
export const MARKET_ROW_SOURCES = ["Account", "Provider"] as const;
export const MARKET_ROW_FILTERS = [...MARKET_ROW_SOURCES, "All"] as const;
const source = looseEnum(MARKET_ROW_FILTERS)
  .optional()
  .describe(
    "Account (default): the account's imported rows; Provider: the market-data provider's, stored for the installation; All: both as the price rule reads them, the account's winning on a date both have",
  );

export const MarketPricesQuery = z.strictObject({ symbol, exchange, ...range, source }).check(rangeRule);
export const FxRatesQuery = z
  .strictObject({ base: currencyCode, quote: currencyCode, ...range, source })
  .check(rangeRule);
const rowSource = z.enum(MARKET_ROW_SOURCES).describe("Whose row it is: the account's import or the provider's");

export const CustomPriceResponse = z
  .object({ id: z.number().int(), holdingId: z.number().int(), date: dateOutput, price: z.number() })
  .meta({ id: "CustomPrice" });

export const MarketPriceResponse = z
  .object({ symbol: z.string(), exchange: z.string(), date: dateOutput, close: z.number(), source: rowSource })
  .meta({ id: "MarketPrice" });

export const FxRateResponse = z
  .object({ base: z.string(), quote: z.string(), date: dateOutput, rate: z.number(), source: rowSource })
  .meta({ id: "FxRate" });

export const UpsertResponse = z
  .object({ upserted: z.number().int().describe("Rows inserted or replaced") })
  .meta({ id: "UpsertResult" });

/** How many unheld securities a market-price import names in its answer. */
export const MAX_UNHELD_LISTED = 20;

export const MarketPricesUpsertResponse = z
  .object({
    upserted: z.number().int().describe("Rows inserted or replaced"),
    unheld: z
      .number()
      .int()
      .describe(
        "Securities of the import that no holding of the account has: their prices are stored (for trades to come) but value nothing yet; a typo in a symbol or exchange shows here",
      ),
    unheldSecurities: z
      .array(z.object({ symbol: z.string(), exchange: z.string() }).meta({ id: "UnheldSecurity" }))
      .describe(`The first ${MAX_UNHELD_LISTED} of them, by symbol and exchange`),
  })
  .meta({ id: "MarketPricesUpsertResult" });

/** The update body: UpdateCustomPriceInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateCustomPriceBody = acceptingAnswerFields(UpdateCustomPriceInput, CustomPriceResponse);
