import { z } from "zod";

/** ISO 4217 codes as the runtime's ICU knows them (AUD, USD, NZD...). */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

function isRegion(code: string): boolean {
  try {
    const name = regionNames.of(code);
    return !!name && name !== code && name !== "Unknown Region";
  } catch {
    return false;
  }
}

/** One message per bad code: the shape first, then whether the code exists. */
function code(shape: RegExp, shapeMessage: string, exists: (code: string) => boolean, existsMessage: string) {
  return z.string().superRefine((value, ctx) => {
    if (!shape.test(value)) ctx.addIssue({ code: "custom", message: shapeMessage });
    else if (!exists(value)) ctx.addIssue({ code: "custom", message: existsMessage });
  });
}

export const currencyCode = code(
  /^[A-Z]{3}$/,
  "must be a three-letter ISO 4217 code in capitals, such as AUD",
  (c) => CURRENCIES.has(c),
  "is not an ISO 4217 currency code",
);

/** ISO 3166-1 alpha-2 country of tax residency (AU, NZ, GB...). */
export const countryCode = code(
  /^[A-Z]{2}$/,
  "must be a two-letter ISO 3166 country code in capitals, such as AU",
  isRegion,
  "is not an ISO 3166 country code",
);
