import { z } from "zod";
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

/** An exchange code (ASX, NASDAQ, NYSE, LSE, NZX...; CUSTOM for custom investments). Upper-cased. */
export const exchange = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(10, "must be at most 10 characters")
  .regex(/^[A-Za-z0-9]+$/, "must be letters and digits, such as ASX")
  .transform((s) => s.toUpperCase());

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
