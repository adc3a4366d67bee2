import { z } from "zod";

/** ISO 4217 codes as the runtime's ICU knows them (AUD, USD, NZD...). */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code in capitals, such as AUD")
  .refine((code) => CURRENCIES.has(code), "is not an ISO 4217 currency code");

/** ISO 3166-1 alpha-2 country of tax residency (AU, NZ, GB...). */
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be a two-letter ISO 3166 country code in capitals, such as AU")
  .refine((code) => {
    const name = regionNames.of(code);
    return !!name && name !== code && name !== "Unknown Region";
  }, "is not an ISO 3166 country code");
