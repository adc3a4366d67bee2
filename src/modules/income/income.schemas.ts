import { z } from "zod";
import { currencyCode } from "../../lib/codes";
import { AMIT_COMPONENTS } from "./amit";
import { dateInput, dateOutput, financialYearInput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput, positivePriceInput, positiveRateInput } from "../../lib/money";
import { acceptingAnswerFields, booleanInput, crossField, idSchema, text } from "../../lib/validation";
import { holdingRecordFields } from "../trades/trades.schemas";

/** DECIMAL(19,4): below 10^15. */
const amount = decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount });
const AMIT_NAMES = new Set<string>(AMIT_COMPONENTS);
/** A name outside the vocabulary of docs/rules.md §6.5 is refused at its own path, with the names allowed. */
const componentKey = z.string().refine((name) => AMIT_NAMES.has(name), {
  error: `must be an AMIT component name: ${AMIT_COMPONENTS.join(", ")}`,
  abort: true,
});
export const Components = z
  .record(componentKey, decimalInput({ scale: 4, min: COLUMN_MAX.amount.neg(), max: COLUMN_MAX.amount }))
  .refine((c) => Object.keys(c).length <= 40, "must hold at most 40 components");

export const incomeFields = {
  holdingId: idSchema,
  exDividendDate: dateInput,
  paidDate: dateInput,
  frankedAmount: amount.optional(),
  unfrankedAmount: amount.optional(),
  frankingCredits: amount.optional().describe("Default: frankedAmount × t / (1 − t) at companyTaxRate"),
  companyTaxRate: decimalInput({ scale: 4, min: 0, max: 0.5 })
    .optional()
    .describe("For the franking credit; default 0.30"),
  foreignIncome: amount.optional().describe("Foreign income before foreign tax"),
  foreignTaxPaid: amount.optional().describe("Foreign tax paid on the foreign income"),
  withholdingTax: amount.optional(),
  netAmount: amount.optional().describe("Cash received; alone, it is taken as an unfranked amount"),
  currencyCode: currencyCode.optional().describe("Default: the holding's currency"),
  // Above 0, as a trade's: a rate of 0 counted a foreign income at AUD 0 in the tax reports.
  exchangeRate: positiveRateInput().optional().describe("Base-currency units per unit of the income currency"),
  isTrustIncome: booleanInput.optional(),
  isReinvested: booleanInput.optional(),
  drpQuantity: decimalInput({ scale: 8, min: 0, max: 1e15 })
    .optional()
    .nullable()
    .describe("Units a reinvested distribution allots"),
  drpPrice: positivePriceInput().optional().nullable().describe("Price of those units; default net ÷ units"),
  components: Components.optional().nullable().describe("AMIT statement components (name → amount)"),
  notes: text({ max: 10_000, trim: false }).optional().nullable(),
  isConfirmed: booleanInput
    .optional()
    .describe(
      "Confirmed income enters the tax reports (docs/rules.md §6.1). On create: default false. On update: absent keeps the record's state",
    ),
};

/** The rules between an income's fields; each reads only fields that passed their own checks, so they run in the same pass. */
export function incomeRules(
  i: { [K in keyof typeof incomeFields]?: unknown } & Record<string, unknown>,
  ctx: z.RefinementCtx,
  valid: (...path: PropertyKey[]) => boolean,
) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (
    valid("paidDate") &&
    valid("exDividendDate") &&
    typeof i.paidDate === "string" &&
    typeof i.exDividendDate === "string" &&
    i.paidDate < i.exDividendDate
  ) {
    issue("paidDate", "must not be before the ex-dividend date");
  }
  if (!valid("isReinvested") || !valid("drpQuantity") || !valid("drpPrice")) return;
  const units = i.drpQuantity as { isZero(): boolean } | null | undefined;
  if (i.isReinvested && (!units || units.isZero()))
    issue("drpQuantity", "must be greater than 0 when the income is reinvested");
  if (!i.isReinvested && (i.drpQuantity || i.drpPrice))
    issue("isReinvested", "must be true when drpQuantity or drpPrice is given");
}

export const IncomeInput = z.strictObject(incomeFields).check(crossField(incomeRules)).meta({ id: "IncomeInput" });
export type IncomeInput = z.output<typeof IncomeInput>;

export const ProRataInput = z
  .strictObject({
    financialYear: financialYearInput.describe("FY2025 = 2024-07-01..2025-06-30 (distributions by ex-dividend date)"),
    components: Components.refine((c) => Object.keys(c).length > 0, "must hold at least one component").describe(
      "The annual statement totals (name → amount)",
    ),
  })
  .meta({ id: "ProRataInput" });

export const IncomeResponse = z
  .object({
    ...holdingRecordFields,
    exDividendDate: dateOutput,
    paidDate: dateOutput,
    frankedAmount: z.number(),
    unfrankedAmount: z.number(),
    frankingCredits: z.number(),
    foreignIncome: z.number(),
    foreignTaxPaid: z.number(),
    withholdingTax: z.number(),
    grossAmount: z.number().describe("franked + unfranked + foreign income"),
    netAmount: z.number().describe("gross − withholding tax − foreign tax paid: the cash that arrives"),
    currencyCode: z.string(),
    exchangeRate: z.number(),
    isTrustIncome: z.boolean(),
    isReinvested: z.boolean(),
    drpQuantity: z.number().nullable(),
    drpPrice: z.number().nullable(),
    components: z.record(z.string(), z.number()).nullable(),
    notes: z.string(),
    isConfirmed: z.boolean(),
    origin: z
      .enum(["User", "Provider"])
      .describe("Provider: made from a market-data provider's dividend, unconfirmed until you confirm it"),
    estimated: z
      .array(z.string())
      .describe(
        "Fields the provider did not say and the service estimated (e.g. paidDate, frankedAmount); confirming clears them",
      ),
  })
  .meta({ id: "Income" });

/** The update body: IncomeInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateIncomeBody = acceptingAnswerFields(IncomeInput, IncomeResponse);
