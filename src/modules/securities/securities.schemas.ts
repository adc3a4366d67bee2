import { z } from "zod";
import { closest } from "../../lib/field-errors";
import { queryInt } from "../../lib/validation";

export const SECURITY_TYPES = ["Stock", "Etf", "Fund", "Crypto", "Custom", "Cash"] as const;

/** A ticker as exchanges print it: letters, digits and . - (BRK.B, 360, ETPMAG). Upper-cased. */
export const symbol = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(20, "must be at most 20 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9.\-]*$/, "must be letters, digits, . or -, such as CBA or BRK.B")
  .transform((s) => s.toUpperCase());

/** The currency an exchange trades in, for securities not in the master list. */
export const EXCHANGE_CURRENCY: Record<string, string> = {
  ASX: "AUD",
  CXA: "AUD",
  NSX: "AUD",
  NZX: "NZD",
  NASDAQ: "USD",
  NYSE: "USD",
  NYSEARCA: "USD",
  AMEX: "USD",
  BATS: "USD",
  OTC: "USD",
  LSE: "GBP",
  TSX: "CAD",
  HKEX: "HKD",
  SGX: "SGD",
  TSE: "JPY",
  XETRA: "EUR",
  EURONEXT: "EUR",
};

/**
 * The exchanges a request may name (README "Known exchanges"): those the service knows a currency
 * for, and CUSTOM for custom investments. A code outside them is a typo far more often than a new
 * exchange (`AX` for ASX made a second BHP holding), so it is refused, naming the one meant.
 */
export const LISTED_EXCHANGES: readonly string[] = [...Object.keys(EXCHANGE_CURRENCY), "CUSTOM"];

/**
 * Any exchange code as stored (letters and digits, upper-cased): what names a holding already
 * recorded, a custom investment's own code included. A new listed security takes `exchange`.
 */
export const exchangeCode = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(10, "must be at most 10 characters")
  .regex(/^[A-Za-z0-9]+$/, "must be letters and digits, such as ASX")
  .transform((s) => s.toUpperCase());

/** An exchange a listed security trades on, or CUSTOM (LISTED_EXCHANGES, in any case). Upper-cased. */
export const exchange = exchangeCode
  .superRefine((code, ctx) => {
    if (LISTED_EXCHANGES.includes(code)) return;
    const near = closest(code, LISTED_EXCHANGES);
    ctx.addIssue({
      code: "custom",
      message: `is not a known exchange${near ? `; did you mean ${near}?` : ""} (one of ${LISTED_EXCHANGES.join(", ")})`,
    });
  })
  .meta({ type: "string", enum: [...LISTED_EXCHANGES], description: "An exchange code, in any case" });

export const SearchSecuritiesQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(50, "must be at most 50 characters")
    .describe("Symbol or words of the name"),
  exchange: exchange.optional().describe("Only this exchange"),
  limit: queryInt({ min: 1, max: 100, default: 20 }),
});

export const SecurityResponse = z
  .object({
    symbol: z.string(),
    exchange: z.string(),
    name: z.string(),
    currencyCode: z.string(),
    securityType: z.enum(SECURITY_TYPES),
  })
  .meta({ id: "Security" });
