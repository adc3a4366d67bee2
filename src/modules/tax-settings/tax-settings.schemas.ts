import { z } from "zod";
import { financialYearInput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput } from "../../lib/money";
import { crossField, idSchema } from "../../lib/validation";
import { entityType } from "../portfolios/portfolios.schemas";
import { parcelMethod } from "../trades/trades.schemas";

/** Amounts are DECIMAL(19,4): at most 15 integer digits and 4 decimals. */
const lossAmount = decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount });

export const YearMethodInput = z
  .strictObject({ financialYear: financialYearInput, method: parcelMethod })
  .meta({ id: "YearMethodInput" });
export const HoldingMethodOverrideInput = z
  .strictObject({
    holdingId: idSchema.describe("A holding of this portfolio"),
    financialYear: financialYearInput,
    method: parcelMethod,
  })
  .meta({ id: "HoldingMethodOverrideInput" });
export const CarriedForwardLossInput = z
  .strictObject({
    financialYear: financialYearInput,
    amount: lossAmount.describe("In the portfolio's base currency, at least 0, up to 4 decimals"),
  })
  .meta({ id: "CarriedForwardLossInput" });

/** Reports each entry whose key an earlier entry of the list already has, at `<list>[i].<field>`. */
function unique<T>(
  list: T[] | null | undefined,
  listName: string,
  field: string,
  key: (item: T) => string,
  rule: string,
  ctx: z.RefinementCtx,
  valid: (...path: PropertyKey[]) => boolean,
): void {
  if (!Array.isArray(list)) return;
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    // An entry with a bad field has no key to compare yet.
    if (!valid(listName, i)) return;
    const first = seen.get(key(item));
    if (first !== undefined)
      ctx.addIssue({
        code: "custom",
        path: [listName, i, field],
        message: `duplicates ${listName}[${first}] (${rule})`,
      });
    else seen.set(key(item), i);
  });
}

/**
 * Changes to a portfolio's tax settings. Absent (or null) fields stay as they are; a list given
 * replaces the old one as a whole, and an empty list clears it.
 */
export const TaxSettingsInput = z
  .strictObject({
    // A body copied from GET carries it; read-only, the path names the portfolio.
    portfolioId: idSchema
      .nullish()
      .describe("Read-only (a body copied from GET may carry it); the path names the portfolio"),
    entityType: entityType.nullish(),
    defaultMethod: parcelMethod
      .nullish()
      .describe("Parcel method when neither a holding override nor a year's method applies"),
    yearMethods: z
      .array(YearMethodInput)
      .max(1000, "must hold at most 1000 entries")
      .nullish()
      .describe("One per financial year"),
    holdingOverrides: z
      .array(HoldingMethodOverrideInput)
      .max(10_000, "must hold at most 10000 entries")
      .nullish()
      .describe("One per holding and financial year"),
    carriedForwardLosses: z
      .array(CarriedForwardLossInput)
      .max(1000, "must hold at most 1000 entries")
      .nullish()
      .describe("One per financial year"),
  })
  .check(
    crossField((input, ctx, valid) => {
      unique(
        input.yearMethods,
        "yearMethods",
        "financialYear",
        (m) => String(m.financialYear),
        "one method per financial year",
        ctx,
        valid,
      );
      unique(
        input.holdingOverrides,
        "holdingOverrides",
        "financialYear",
        (o) => `${o.holdingId}:${o.financialYear}`,
        "one method per holding and financial year",
        ctx,
        valid,
      );
      unique(
        input.carriedForwardLosses,
        "carriedForwardLosses",
        "financialYear",
        (l) => String(l.financialYear),
        "one amount per financial year",
        ctx,
        valid,
      );
    }),
  )
  .meta({ id: "TaxSettingsInput" });
export type TaxSettingsInput = z.output<typeof TaxSettingsInput>;

export const TaxSettingsResponse = z
  .object({
    portfolioId: z.number().int(),
    entityType,
    defaultMethod: parcelMethod,
    yearMethods: z.array(z.object({ financialYear: z.number().int(), method: parcelMethod })),
    holdingOverrides: z.array(
      z.object({ holdingId: z.number().int(), financialYear: z.number().int(), method: parcelMethod }),
    ),
    carriedForwardLosses: z.array(z.object({ financialYear: z.number().int(), amount: z.number() })),
  })
  .meta({ id: "TaxSettings" });
