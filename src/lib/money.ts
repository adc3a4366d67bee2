import Decimal from "decimal.js";
import { z } from "zod";

/**
 * Decimal end to end. Prisma returns decimal.js-compatible values; we configure one Decimal
 * constructor with enough precision for 18-digit amounts and banker-free half-up rounding.
 */
Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });

export { Decimal };

/** Zero, shared: a Decimal is immutable, so one instance serves every sum and comparison. */
export const ZERO = new Decimal(0);

export function isDecimal(value: unknown): value is Decimal {
  return Decimal.isDecimal(value);
}

/**
 * The largest value each kind of Decimal column stores (prisma/schema.prisma), so a schema refuses
 * an out-of-range input at its own field, naming the maximum, instead of the database answering
 * "a number is out of range" about no field: DECIMAL(24,8) prices and units, DECIMAL(20,10)
 * exchange rates, DECIMAL(19,4) amounts.
 */
export const COLUMN_MAX = {
  units: new Decimal("9999999999999999.99999999"),
  rate: new Decimal("9999999999.9999999999"),
  amount: new Decimal("999999999999999.9999"),
} as const;

/**
 * A decimal input: a JSON number or a string such as "152.39" (docs/conventions.md §4.2). Rejects NaN,
 * Infinity, exponent notation in strings and more than `scale` decimals instead of rounding.
 * `positive`: 0 is refused too — a price or a rate of 0 values a holding at nothing and divides
 * by zero wherever a report converts back (units for an amount, a benchmark's units).
 */
export function decimalInput(opts: {
  scale: number;
  min?: number | Decimal;
  max?: number | Decimal;
  positive?: boolean;
}) {
  // The bounds made once: an import checks every amount of every row against them.
  const min = opts.min === undefined ? undefined : new Decimal(opts.min);
  const max = opts.max === undefined ? undefined : new Decimal(opts.max);
  return z
    .union([z.number(), z.string()], { error: "must be a number or a decimal string" })
    .transform((value, ctx) => {
      const text = typeof value === "number" ? (Number.isFinite(value) ? floatText(value) : "NaN") : value.trim();
      if (!/^-?\d+(\.\d+)?$/.test(text)) {
        ctx.addIssue({ code: "custom", message: "must be a decimal number such as 12.5" });
        return z.NEVER;
      }
      const d = new Decimal(text);
      if (d.decimalPlaces() > opts.scale) {
        ctx.addIssue({ code: "custom", message: `must have at most ${opts.scale} decimal places` });
        return z.NEVER;
      }
      if (opts.positive && (d.isZero() || d.isNegative())) {
        ctx.addIssue({ code: "custom", message: "must be greater than 0" });
        return z.NEVER;
      }
      if ((min && d.lt(min)) || (max && d.gt(max))) {
        ctx.addIssue({
          code: "custom",
          message: `must be between ${opts.positive ? "0 (excluded)" : (min?.toFixed() ?? "-∞")} and ${max?.toFixed() ?? "∞"}`,
        });
        return z.NEVER;
      }
      return d;
    });
}

/**
 * A JSON number's decimal digits: its shortest form, which is the float's own digits unless it
 * needs an exponent (1e-7, 1e+21), which Decimal writes out. (The same text as
 * `new Decimal(v).toFixed()` for every double, without a Decimal for the common case.)
 */
function floatText(value: number): string {
  const shortest = String(value);
  return shortest.includes("e") ? new Decimal(value).toFixed() : shortest;
}

/** A price (DECIMAL(24,8)): a market close, a custom price, a DRP price; above 0, at most 10^15. */
export const positivePriceInput = () => decimalInput({ scale: 8, min: 0, max: 1e15, positive: true });
/** An exchange rate (DECIMAL(20,10)): above 0, at most 10^9, well inside the column. */
export const positiveRateInput = () => decimalInput({ scale: 10, min: 0, max: 1e9, positive: true });

export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}
