import { z } from "zod";
import { dateOutput } from "../../lib/dates";
import { CORPORATE_ACTION_STATUSES, CORPORATE_ACTION_TYPES } from "./corporate-actions";

export const corporateActionStatus = z.enum(CORPORATE_ACTION_STATUSES);
export const corporateActionType = z.enum(CORPORATE_ACTION_TYPES);

/** GET /v1/portfolios/{p}/corporate-actions: all of them, or those of one status. */
export const CorporateActionsQuery = z.strictObject({
  status: corporateActionStatus.optional().describe("Only the actions of this status; absent: all"),
});
export type CorporateActionsQuery = z.output<typeof CorporateActionsQuery>;

export const CorporateActionResponse = z
  .object({
    id: z.number().int(),
    holdingId: z.number().int(),
    symbol: z.string(),
    exchange: z.string(),
    type: corporateActionType.describe("Split: more units after; Consolidation: fewer"),
    date: dateOutput.describe("The date it takes effect (the ex-date): it applies to the units held at its start"),
    numerator: z.number().int().describe("Units after, for every `denominator` units before"),
    denominator: z.number().int(),
    status: corporateActionStatus.describe("Pending until applied or dismissed"),
    tradeId: z
      .number()
      .int()
      .nullable()
      .describe(
        "The Split or Consolidation trade applying it recorded; null until applied (or once that trade is deleted)",
      ),
  })
  .meta({ id: "CorporateAction" });
