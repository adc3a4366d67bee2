import { z } from "zod";
import { countryCode, currencyCode } from "../../lib/codes";
import { acceptingAnswerFields, text, looseEnum } from "../../lib/validation";

export const ENTITY_TYPES = ["Individual", "Trust", "SMSF", "Company"] as const;
export const entityType = looseEnum(ENTITY_TYPES);

/** "MM-DD", a real calendar day (29 February excluded: a year end must exist every year). */
export const financialYearEnd = z
  .string()
  .regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "must be MM-DD, such as 06-30")
  .refine((v) => {
    const [m, d] = v.split("-").map(Number);
    return d <= new Date(Date.UTC(2001, m, 0)).getUTCDate();
  }, "is not a day of the year");

const name = text({ min: 1, max: 200 });

export const CreatePortfolioInput = z
  .strictObject({
    name,
    baseCurrencyCode: currencyCode.default("AUD"),
    taxResidency: countryCode.default("AU"),
    entityType: entityType.default("Individual"),
    financialYearEnd: financialYearEnd
      .optional()
      .describe("Defaults from the tax residency: AU 06-30, NZ 03-31, GB 04-05, else 12-31"),
  })
  .meta({ id: "CreatePortfolioInput" });
export type CreatePortfolioInput = z.output<typeof CreatePortfolioInput>;

/** Fields absent stay as they are. The base currency is fixed at creation (422 if changed). */
export const UpdatePortfolioInput = z
  .strictObject({
    name: name.optional(),
    entityType: entityType.optional(),
    taxResidency: countryCode.optional(),
    financialYearEnd: financialYearEnd.optional(),
    baseCurrencyCode: currencyCode.optional().describe("Accepted only when unchanged"),
  })
  .meta({ id: "UpdatePortfolioInput" });
export type UpdatePortfolioInput = z.output<typeof UpdatePortfolioInput>;

export const PortfolioResponse = z
  .object({
    id: z.number().int(),
    name: z.string(),
    dateCreated: z.iso.datetime(),
    baseCurrencyCode: z.string(),
    taxResidency: z.string(),
    entityType: entityType,
    financialYearEnd: z.string(),
  })
  .meta({ id: "Portfolio" });

/** Where a financial year ends by default for a tax residency. */
export const DEFAULT_YEAR_END: Record<string, string> = {
  AU: "06-30",
  NZ: "03-31",
  GB: "04-05",
  ZA: "02-28",
  IN: "03-31",
};

/** The update body: UpdatePortfolioInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdatePortfolioBody = acceptingAnswerFields(UpdatePortfolioInput, PortfolioResponse);
