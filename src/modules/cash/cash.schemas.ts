import { z } from "zod";
import { CASH_TRADE_TYPES } from "../ledger/cash-effects";
import { currencyCode } from "../../lib/codes";
import { dateInput, dateOutput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput } from "../../lib/money";
import {
  acceptingAnswerFields,
  crossField,
  idSchema,
  MAX_OFFSET,
  queryInt,
  text,
  looseEnum,
} from "../../lib/validation";

export const CASH_TRANSACTION_TYPES = ["Deposit", "Withdrawal", "InterestPayment", "Fee", "InterestCharged"] as const;
export const cashTransactionType = looseEnum(CASH_TRANSACTION_TYPES);
export type CashTransactionType = (typeof CASH_TRANSACTION_TYPES)[number];

export const CASH_MOVEMENT_SOURCES = ["Cash", "Trade", "Income"] as const;

const name = text({ min: 1, max: 200 });
const institution = text({ max: 200 }).nullable().optional();
const settlementDays = z
  .number({ error: "must be an integer from 0 to 10" })
  .int("must be an integer from 0 to 10")
  .min(0, "must be at least 0")
  .max(10, "must be at most 10");
const notes = text({ max: 10_000, trim: false }).optional().nullable();

/** Amounts keep 4 decimals and fit DECIMAL(19, 4); the type says which way the money goes. */
const amount = decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount }).refine(
  (d) => d.gt(0),
  "must be greater than 0",
);

export const CreateCashAccountInput = z
  .strictObject({
    portfolioId: idSchema,
    name,
    currencyCode,
    institution,
    syncTrades: z
      .boolean()
      .default(false)
      .describe("Settled Buy and Sell trades and capital returns in the account's currency move its cash"),
    syncIncome: z
      .boolean()
      .default(false)
      .describe("Paid income in the account's currency that is not reinvested moves its cash"),
    settlementDays: settlementDays
      .default(2)
      .describe("Business days (Monday to Friday) from trade date to settlement"),
  })
  .meta({ id: "CreateCashAccountInput" });
export type CreateCashAccountInput = z.output<typeof CreateCashAccountInput>;

/** Fields absent stay as they are; the portfolio is fixed (422 if different). */
export const UpdateCashAccountInput = z
  .strictObject({
    portfolioId: idSchema.optional().describe("Accepted only when unchanged"),
    name: name.optional(),
    currencyCode: currencyCode.optional().describe("Refused (422) while the account has cash transactions"),
    institution,
    syncTrades: z.boolean().optional(),
    syncIncome: z.boolean().optional(),
    settlementDays: settlementDays.optional(),
  })
  .meta({ id: "UpdateCashAccountInput" });
export type UpdateCashAccountInput = z.output<typeof UpdateCashAccountInput>;

export const CashTransactionInput = z
  .strictObject({
    cashAccountId: idSchema,
    type: cashTransactionType,
    date: dateInput,
    amount: amount.describe("Greater than 0; the type says which way it goes"),
    notes,
  })
  .meta({ id: "CashTransactionInput" });
export type CashTransactionInput = z.output<typeof CashTransactionInput>;

export const UpdateCashTransactionInput = z
  .strictObject({
    cashAccountId: idSchema.optional().describe("Moves the transaction to this cash account"),
    type: cashTransactionType.optional(),
    date: dateInput.optional(),
    amount: amount.optional(),
    notes,
  })
  .meta({ id: "UpdateCashTransactionInput" });
export type UpdateCashTransactionInput = z.output<typeof UpdateCashTransactionInput>;

/** GET /v1/cash-accounts/{c}/transactions: a page of the ledger, optionally between two dates. */
export const LedgerQuery = z
  .strictObject({
    limit: queryInt({ min: 1, max: 5000, default: 500 }),
    offset: queryInt({ min: 0, max: MAX_OFFSET, default: 0 }),
    from: dateInput.optional().describe("First date to include"),
    to: dateInput.optional().describe("Last date to include"),
  })
  .check(
    crossField((q, ctx, valid) => {
      if (valid("from") && valid("to") && q.from && q.to && q.from > q.to)
        ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    }),
  );
export type LedgerQuery = z.output<typeof LedgerQuery>;

export const CashAccountResponse = z
  .object({
    id: z.number().int(),
    portfolioId: z.number().int(),
    name: z.string(),
    currencyCode: z.string(),
    institution: z.string().nullable(),
    syncTrades: z.boolean(),
    syncIncome: z.boolean(),
    settlementDays: z.number().int(),
    balance: z.number().describe("As of today, in the account's currency"),
  })
  .meta({ id: "CashAccount" });

export const CashMovementResponse = z
  .object({
    id: z
      .number()
      .int()
      .nullable()
      .describe("The cash transaction; null for a movement derived from a trade or income"),
    source: z.enum(CASH_MOVEMENT_SOURCES),
    sourceId: z.number().int().describe("Id of the cash transaction, trade or income record"),
    type: z
      .enum([...CASH_TRANSACTION_TYPES, ...CASH_TRADE_TYPES, "Income"])
      .describe("Deposit, Withdrawal, InterestPayment, Fee, InterestCharged; Buy, Sell, ReturnOfCapital; Income"),
    date: dateOutput.describe("Settlement date of a trade, paid date of income"),
    amount: z.number().describe("Signed: positive in, negative out"),
    description: z.string(),
    balance: z.number().describe("Running balance after this movement"),
  })
  .meta({ id: "CashMovement" });

export const CashTransactionResponse = z
  .object({
    id: z.number().int(),
    cashAccountId: z.number().int(),
    type: cashTransactionType,
    date: dateOutput,
    amount: z.number(),
    notes: z.string(),
  })
  .meta({ id: "CashTransaction" });

/** The update body: UpdateCashAccountInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateCashAccountBody = acceptingAnswerFields(UpdateCashAccountInput, CashAccountResponse);

/** The update body: UpdateCashTransactionInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateCashTransactionBody = acceptingAnswerFields(UpdateCashTransactionInput, CashTransactionResponse);
