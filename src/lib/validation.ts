import { z } from "zod";
import { DomainError, type FieldError } from "./errors";

/** `buckets.2.targetPct` → `buckets[2].targetPct`; the root is `(body)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(body)";
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/**
 * Validates input inside a service, so REST and GraphQL reject the same input with the same
 * message. Throws VALIDATION_FAILED listing every bad path.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "The request"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const detail = errors.length === 1 ? `${errors[0].path}: ${errors[0].message}` : `${errors.length} fields are invalid.`;
  throw new DomainError("VALIDATION_FAILED", `${what} is invalid: ${detail}`, errors);
}

/** Integer resource ids (portfolio, holding, trade...): accepts 12 or "12", rejects 0, 1.5, "12a". */
export const idSchema = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, "must be a positive integer")])
  .transform((value) => Number(value))
  .pipe(z.number().int("must be a positive integer").positive("must be a positive integer").max(2147483647, "is too large"));

export function parseId(value: unknown, name: string): number {
  return parseInput(z.object({ [name]: idSchema }), { [name]: value }, `The ${name}`)[name] as number;
}

/**
 * Free text that PostgreSQL can store: trimmed, within length bounds, and free of control
 * characters other than tab and line breaks (NUL cannot be stored in a text column at all).
 */
export function text(opts: { min?: number; max: number; trim?: boolean }) {
  const base = opts.trim === false ? z.string() : z.string().trim();
  return base
    .min(opts.min ?? 0, opts.min === 1 ? "must not be empty" : `must be at least ${opts.min} characters`)
    .max(opts.max, `must be at most ${opts.max} characters`)
    .regex(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/, "must not contain control characters");
}
