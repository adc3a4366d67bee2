import { z } from "zod";
import { Decimal, decimalInput, isDecimal, sum } from "../../lib/money";
import { acceptingAnswerFields, crossField, text } from "../../lib/validation";

/**
 * Dimensions a model divides a portfolio along (docs/reports.md §4.1). A
 * `customGroup:{id}` model buckets holdings by their label in that custom group.
 */
export const DIMENSIONS = ["holding", "assetClass", "sector", "currency", "exchange", "holdingType"] as const;
export const dimension = z
  .string()
  .refine(
    (d) => (DIMENSIONS as readonly string[]).includes(d) || (customGroupIdOf(d) ?? Infinity) <= 2147483647,
    `must be one of ${DIMENSIONS.join(", ")} or customGroup:{id}`,
  );

/** The custom group a `customGroup:{id}` dimension names; undefined for the other dimensions. */
export function customGroupIdOf(dimension: string): number | undefined {
  const match = /^customGroup:([1-9]\d{0,9})$/.exec(dimension);
  return match ? Number(match[1]) : undefined;
}

const PUBLIC_ID_RULE = "must be a non-empty string of at most 36 characters";
/** A model's publicId in a path or an argument: a UUID as issued, but any id up to 36 characters is looked up. */
export const publicIdInput = z.string({ error: PUBLIC_ID_RULE }).max(36, PUBLIC_ID_RULE).trim().min(1, PUBLIC_ID_RULE);

/** Percentages are stored as DECIMAL(7,4): 0 to 100 with at most 4 decimals. */
const percent = decimalInput({ scale: 4, min: 0, max: 100 });

/** Targets must add up to 100 within this much (docs/reports.md §4.1). */
export const TARGET_SUM_TOLERANCE = new Decimal("0.01");

/** A holding bucket is labelled SYMBOL.EXCHANGE (CBA.ASX, BRK.B.NYSE); "Cash" holds cash accounts. */
const HOLDING_LABEL = /^\S+\.[A-Za-z0-9]+$/;

export const BucketInput = z
  .strictObject({
    label: text({ min: 1, max: 200 }),
    targetPct: percent.describe("Target weight in percent, 0 to 100, up to 4 decimals"),
    tolerancePct: percent.optional().describe("Allowed drift either side of the target, in percent; default 0"),
    sortOrder: z
      .number()
      .int("must be an integer")
      .min(-2147483648)
      .max(2147483647)
      .optional()
      .describe("Display order; default: position in the list"),
  })
  .meta({ id: "BucketInput" });

export const SaveAllocationModelInput = z
  .strictObject({
    publicId: z
      .string()
      .max(36, "must be at most 36 characters")
      .nullish()
      .describe("Absent or empty inserts a model; present updates that model"),
    name: text({ min: 1, max: 200 }),
    notes: text({ max: 10_000, trim: false }).nullish(),
    dimension,
    isActive: z
      .boolean()
      .optional()
      .describe("true makes this the portfolio's active model; absent leaves the flag as it is"),
    buckets: z.array(BucketInput).min(1, "must hold at least 1 bucket").max(500, "must hold at most 500 buckets"),
  })
  .check(
    crossField((model, ctx, valid) => {
      if (!Array.isArray(model.buckets)) return;
      const buckets = model.buckets as unknown[];
      const seen = new Map<string, number>();
      buckets.forEach((b, i) => {
        const label = (b as { label?: unknown } | null)?.label;
        if (!valid("buckets", i, "label") || typeof label !== "string") return;
        const key = label.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["buckets", i, "label"],
            message: `duplicates the label of buckets[${first}] (labels are unique in a model, ignoring case)`,
          });
        } else seen.set(key, i);
        if (valid("dimension") && model.dimension === "holding" && label !== "Cash" && !HOLDING_LABEL.test(label)) {
          ctx.addIssue({
            code: "custom",
            path: ["buckets", i, "label"],
            message: "must be SYMBOL.EXCHANGE (such as CBA.ASX) or Cash in a holding model",
          });
        }
      });
      // With a bucket count out of range, or a target already refused, a sum error would only repeat that problem.
      if (buckets.length === 0 || buckets.length > 500) return;
      const targets = buckets.map((b, i) =>
        valid("buckets", i, "targetPct") ? (b as { targetPct?: unknown }).targetPct : undefined,
      );
      if (!targets.every(isDecimal)) return;
      const total = sum(targets);
      if (total.minus(100).abs().gt(TARGET_SUM_TOLERANCE)) {
        ctx.addIssue({
          code: "custom",
          path: ["buckets"],
          message: `targetPct values must add up to 100 (±0.01); they add up to ${total.toFixed()}`,
        });
      }
    }),
  )
  .meta({ id: "AllocationModelInput" });
export type SaveAllocationModelInput = z.output<typeof SaveAllocationModelInput>;

export const BucketResponse = z
  .object({ label: z.string(), targetPct: z.number(), tolerancePct: z.number(), sortOrder: z.number().int() })
  .meta({ id: "AllocationBucket" });

export const AllocationModelResponse = z
  .object({
    publicId: z.string(),
    portfolioId: z.number().int(),
    name: z.string(),
    notes: z.string(),
    dimension: z.string(),
    isActive: z.boolean(),
    buckets: z.array(BucketResponse),
  })
  .meta({ id: "AllocationModel" });

/** The update body: SaveAllocationModelInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const SaveAllocationModelBody = acceptingAnswerFields(SaveAllocationModelInput, AllocationModelResponse);
