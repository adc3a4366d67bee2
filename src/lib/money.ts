import Decimal from "decimal.js";
import { z } from "zod";

/**
 * Decimal end to end. Prisma returns decimal.js-compatible values; we configure one Decimal
 * constructor with enough precision for 18-digit amounts and banker-free half-up rounding.
 */
Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });

export { Decimal };

export function isDecimal(value: unknown): value is Decimal {
  return Decimal.isDecimal(value);
}

/**
 * A decimal input: a JSON number or a string such as "152.39" (API.md §1 money). Rejects NaN,
 * Infinity, exponent notation in strings and more than `scale` decimals instead of rounding.
 */
export function decimalInput(opts: { scale: number; min?: number; max?: number; label?: string }) {
  return z
    .union([z.number(), z.string()], { error: "must be a number or a decimal string" })
    .transform((value, ctx) => {
      // A JSON number arrives as a float; its shortest decimal form may use an exponent (1e-7).
      const text = typeof value === "number" ? (Number.isFinite(value) ? new Decimal(value).toFixed() : "NaN") : value.trim();
      if (!/^-?\d+(\.\d+)?$/.test(text)) {
        ctx.addIssue({ code: "custom", message: "must be a decimal number such as 12.5" });
        return z.NEVER;
      }
      const d = new Decimal(text);
      if (d.decimalPlaces() > opts.scale) {
        ctx.addIssue({ code: "custom", message: `must have at most ${opts.scale} decimal places` });
        return z.NEVER;
      }
      if ((opts.min !== undefined && d.lt(opts.min)) || (opts.max !== undefined && d.gt(opts.max))) {
        ctx.addIssue({ code: "custom", message: `must be between ${opts.min ?? "-∞"} and ${opts.max ?? "∞"}` });
        return z.NEVER;
      }
      return d;
    });
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total = new Decimal(0);
  for (const v of values) total = total.plus(v);
  return total;
}
