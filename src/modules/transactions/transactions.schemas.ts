import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { crossField, MAX_OFFSET, queryInt } from "../../lib/validation";
import { TRADE_TYPES } from "../ledger";

export const CASH_TYPES = ["Deposit", "Withdrawal", "InterestPayment", "Fee", "InterestCharged"] as const;
export const LEDGER_KINDS = ["Trade", "Income", "Cash"] as const;
export const TRANSACTION_TYPES = [...LEDGER_KINDS, ...TRADE_TYPES, ...CASH_TYPES] as const;
/** What a ledger line's `type` says: its trade type, `Income` or `Reinvested`, or its cash type. */
export const LINE_TYPES = [...TRADE_TYPES, "Income", "Reinvested", ...CASH_TYPES] as const;

export const TransactionsQuery = z
  .strictObject({
    from: dateInput.optional(),
    to: dateInput.optional(),
    type: z
      .enum(TRANSACTION_TYPES, { error: `must be one of ${TRANSACTION_TYPES.join(", ")}` })
      .optional()
      .describe("Trade, Income, Cash, or one trade or cash transaction type"),
    limit: queryInt({ min: 1, max: 5000, default: 500 }),
    offset: queryInt({ min: 0, max: MAX_OFFSET, default: 0 }),
  })
  .check(
    crossField((q, ctx, valid) => {
      if (valid("from") && valid("to") && q.from && q.to && q.from > q.to)
        ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from", input: q.to });
    }),
  );

export const TransactionResponse = z
  .object({
    kind: z.enum(LEDGER_KINDS),
    id: z.number().int(),
    date: dateOutput,
    type: z.enum(LINE_TYPES),
    holdingId: z.number().int().nullable(),
    symbol: z.string().nullable(),
    exchange: z.string().nullable(),
    cashAccountId: z.number().int().nullable(),
    quantity: z.number().nullable(),
    price: z.number().nullable(),
    amount: z.number().describe("Cash effect in currencyCode: + money in, − money out (0 for non-cash events)"),
    currencyCode: z.string(),
    description: z.string(),
  })
  .meta({ id: "PortfolioTransaction" });
