import { z } from "zod";
import { currencyCode } from "../../lib/codes";
import { dateInput, dateOutput } from "../../lib/dates";
import { COLUMN_MAX, decimalInput, positiveRateInput } from "../../lib/money";
import {
  acceptingAnswerFields,
  crossField,
  idSchema,
  looseEnum,
  MAX_OFFSET,
  queryInt,
  text,
  upperCased,
} from "../../lib/validation";
import { PARCEL_METHODS, TRADE_TYPES } from "../ledger";
import { exchange, SECURITY_TYPES, symbol } from "../securities/securities.schemas";

/** Read in any case and spacing, as every enumeration a request names (`buy`, `Return of capital`). */
export const tradeType = looseEnum(TRADE_TYPES);
export const parcelMethod = looseEnum(PARCEL_METHODS);

/** Quantities and prices keep up to 8 decimals, amounts 4, exchange rates 10 (docs/conventions.md §4.2). */
export const quantityInput = decimalInput({ scale: 8, min: -1e15, max: 1e15 });
export const priceInput = decimalInput({ scale: 8, min: 0, max: 1e15 });
/** DECIMAL(19,4): below 10^15. */
export const amountInput = decimalInput({ scale: 4, min: 0, max: COLUMN_MAX.amount });
/** Above 0: a rate of 0 would count the trade at nothing in the base currency. */
export const rateInput = positiveRateInput();

/** Types whose units leave the holding: a negative quantity is accepted and means the same. */
const OUTGOING = new Set(["Sell", "TransferOut", "Consolidation", "Cancellation"]);
/** Types that carry no price or brokerage. */
const UNPRICED = new Set(["Split", "Consolidation", "Cancellation"]);
/** A Bonus carries no brokerage; its price, when given, is the cost of a bonus taxed as a dividend or paid up (s130-20). */
const NO_BROKERAGE = new Set([...UNPRICED, "Bonus"]);
/** Types whose price is an amount per unit that adjusts the cost base. */
const ADJUSTMENTS = new Set(["ReturnOfCapital", "CostBaseIncrease", "CostBaseDecrease"]);

export const ParcelPick = z.strictObject({
  tradeId: idSchema.describe("The acquiring trade whose parcel the units come from"),
  quantity: decimalInput({ scale: 8, min: 0, max: 1e15 }),
});

const tradeFields = {
  portfolioId: idSchema,
  holdingId: idSchema.optional().describe("The holding; or give symbol and exchange"),
  symbol: symbol.optional(),
  exchange: exchange.optional(),
  name: text({ min: 1, max: 200 })
    .optional()
    .describe("Name for a holding this trade creates, when the security is not in the master list"),
  holdingType: looseEnum(SECURITY_TYPES)
    .optional()
    .describe("Type for a holding this trade creates (default: the master list's, else Stock)"),
  tradeType,
  tradeDate: dateInput,
  quantity: quantityInput
    .optional()
    .describe(
      "Units; negative accepted for units leaving. Split/Consolidation: units gained/lost. Cancellation: optional (all units; given, it must be the units held)",
    ),
  price: priceInput
    .optional()
    .describe(
      "Per unit, trade currency. ReturnOfCapital/CostBase*: the amount per unit. Bonus: absent for a bonus issue that is not a dividend (the parcels' cost base spreads over the bonus units); the cost per unit of a bonus taxed as a dividend or paid up",
    ),
  brokerage: amountInput.optional(),
  currencyCode: currencyCode.optional().describe("Trade currency; default: the holding's"),
  exchangeRate: rateInput
    .optional()
    .describe("Base-currency units per unit of the trade currency; default: the FX table on the trade date"),
  sourceId: z.uuid("must be a Source id (GET /v1/sources)").optional().nullable(),
  notes: text({ max: 10_000, trim: false }).optional().nullable(),
  acquisitionDate: dateInput
    .optional()
    .nullable()
    .describe(
      "Bonus, TransferIn, OpeningBalance: the acquisition date the parcel keeps (a Bonus without a price over units held makes no parcel: its units keep their parcels' dates)",
    ),
  parcels: z.array(ParcelPick).max(10_000).optional().nullable().describe("Sell, TransferOut: manual parcel selection"),
  reference: text({ min: 1, max: 100 })
    .optional()
    .nullable()
    .describe(
      "The broker's reference (contract note, confirmation or transaction number): an import row whose reference the portfolio holds is a duplicate",
    ),
};

/**
 * The rules between a trade's fields. Each reads only fields that passed their own checks
 * (`valid`), so they run in the same pass and a body's errors come in one answer.
 */
function tradeRules(
  t: Omit<z.infer<z.ZodObject<typeof tradeFields>>, "portfolioId">,
  ctx: z.RefinementCtx,
  valid: (...path: PropertyKey[]) => boolean,
) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  const ok = (field: keyof typeof tradeFields) => valid(field);
  if (ok("holdingId") && ok("symbol") && ok("exchange") && t.holdingId === undefined && (!t.symbol || !t.exchange))
    issue("symbol", "give holdingId, or symbol and exchange");
  if (ok("parcels") && t.parcels) {
    const picked = new Set<number>();
    t.parcels.forEach((p, i) => {
      if (picked.has(p.tradeId))
        ctx.addIssue({
          code: "custom",
          path: ["parcels", i, "tradeId"],
          message: "picks the same parcel twice; give it once with the total quantity",
        });
      picked.add(p.tradeId);
    });
  }
  // The rest depends on the trade type.
  if (!ok("tradeType")) return;
  const q = t.quantity;
  if (t.tradeType !== "Cancellation" && ok("quantity")) {
    if (!q) issue("quantity", "is required");
    else if (q.isZero()) issue("quantity", "must not be zero");
    else if (q.isNegative() && !OUTGOING.has(t.tradeType)) issue("quantity", `must be positive for a ${t.tradeType}`);
  }
  if (UNPRICED.has(t.tradeType) && ok("price") && t.price && !t.price.isZero())
    issue("price", `must be 0 or absent for a ${t.tradeType}`);
  if (NO_BROKERAGE.has(t.tradeType) && ok("brokerage") && t.brokerage && !t.brokerage.isZero())
    issue("brokerage", `must be 0 or absent for a ${t.tradeType}`);
  if (ok("price")) {
    if (ADJUSTMENTS.has(t.tradeType) && (!t.price || t.price.isZero()))
      issue("price", `is the amount per unit of the ${t.tradeType} and must be positive`);
    if ((t.tradeType === "Buy" || t.tradeType === "Sell") && !t.price) issue("price", "is required");
  }
  if (ok("parcels") && t.parcels?.length && t.tradeType !== "Sell" && t.tradeType !== "TransferOut")
    issue("parcels", "apply to a Sell or TransferOut only");
  if (ok("acquisitionDate") && t.acquisitionDate) {
    if (!["Bonus", "TransferIn", "OpeningBalance"].includes(t.tradeType))
      issue("acquisitionDate", "applies to Bonus, TransferIn and OpeningBalance only");
    else if (ok("tradeDate") && t.acquisitionDate > t.tradeDate)
      issue("acquisitionDate", "must not be after the trade date");
  }
}

export const TradeInput = z.strictObject(tradeFields).check(crossField(tradeRules)).meta({ id: "TradeInput" });
export type TradeInput = z.output<typeof TradeInput>;

/**
 * A row of a bulk import: the same fields; the portfolio comes from the path. Files come from
 * spreadsheets and brokers, so the type, holding type and currency are read without regard to
 * case (`buy`, `SELL`, `Return of capital`, `usd`).
 */
export const ImportRow = z
  .strictObject({
    ...tradeFields,
    portfolioId: idSchema.optional(),
    tradeType: looseEnum(TRADE_TYPES),
    holdingType: looseEnum(SECURITY_TYPES).optional(),
    currencyCode: upperCased(currencyCode).optional(),
  })
  .check(crossField(tradeRules));

/** The fields of an answer that name a record of a holding (a trade, an income record) and its security. */
export const holdingRecordFields = {
  id: z.number().int(),
  holdingId: z.number().int(),
  portfolioId: z.number().int(),
  symbol: z.string(),
  exchange: z.string(),
};

export const TradeResponse = z
  .object({
    ...holdingRecordFields,
    tradeType,
    tradeDate: dateOutput,
    quantity: z.number().describe("Negative for units leaving"),
    price: z.number(),
    brokerage: z.number(),
    value: z.number().describe("|quantity| × price, trade currency"),
    currencyCode: z.string(),
    exchangeRate: z.number(),
    sourceId: z.string().nullable(),
    notes: z.string(),
    acquisitionDate: dateOutput.nullable(),
    reference: z.string().nullable().describe("The broker's reference, when the trade has one"),
    parcels: z.array(z.object({ tradeId: z.number().int(), quantity: z.number() })),
    hasAttachment: z.boolean(),
  })
  .meta({ id: "Trade" });

export const ListQuery = z.strictObject({
  limit: queryInt({ min: 1, max: 5000, default: 500 }),
  offset: queryInt({ min: 0, max: MAX_OFFSET, default: 0 }),
});

export { OUTGOING };

/** The update body: TradeInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateTradeBody = acceptingAnswerFields(TradeInput, TradeResponse);
