import { z } from "zod";
import { DomainError, type FieldError } from "./domain-errors";
import { fieldErrors } from "./field-errors";
import { isPlainObject, unstorableText } from "./storable-text";

export { closest, fieldErrors, formatPath, knownKeysAt } from "./field-errors";
export { isStorableText, text, UNSTORABLE_MESSAGE, unstorableText } from "./storable-text";

/**
 * An object's (or a list's) cross-field rules, run in the same pass as its fields' own checks so that one
 * answer lists every error: zod skips an object's refinements once any field failed, which made
 * clients fix a body in rounds. The rule sees the partly parsed object; `valid(...path)` says
 * whether the field at that path (relative to the object) passed its own checks, and a rule reads
 * only fields that did (a failed field holds its raw input, or nothing) and checks the shape of
 * any container it walks (a list whose own length check failed is still read).
 */
export function crossField<T>(
  rule: (value: T, ctx: z.core.$RefinementCtx<T>, valid: (...path: PropertyKey[]) => boolean) => void,
): z.core.$ZodCheck<T> {
  return z.superRefine<T>(
    (value, ctx) => {
      const failed = ctx.issues.map((issue) => issue.path ?? []);
      // An issue at the path or below it; one above (a list too long, an unknown key) leaves the field as parsed.
      const valid = (...path: PropertyKey[]) =>
        !failed.some((p) => p.length >= path.length && path.every((part, i) => p[i] === part));
      rule(value, ctx, valid);
    },
    // Not on input of the wrong kind (a string for an object, an object for a list): there are no fields to relate.
    {
      when: (payload) =>
        (isPlainObject(payload.value) || Array.isArray(payload.value)) &&
        !payload.issues.some((i) => i.code === "invalid_type" && !i.path?.length),
    },
  );
}

/**
 * An enum read without regard to case, spaces, `_` or `-` (CSV from spreadsheets and brokers:
 * `buy`, `BUY`, `Return of capital` → ReturnOfCapital). Unknown text fails as the enum does.
 */
export function looseEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  schema: z.ZodType<T[number], string> = z.enum(values) as never,
) {
  const byKey = new Map(values.map((v) => [looseKey(v), v] as const));
  return z.preprocess((v) => (typeof v === "string" ? (byKey.get(looseKey(v)) ?? v) : v), schema);
}
const looseKey = (s: string) => s.replace(/[\s_-]+/g, "").toLowerCase();

/** A code (currency, exchange) read without regard to case: upper-cased before its own checks. */
export function upperCased<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), schema);
}

/** VALIDATION_FAILED naming the one bad field, or counting them. */
export function invalidInput(what: string, errors: FieldError[]): DomainError {
  const detail =
    errors.length === 1 ? `${errors[0].path}: ${errors[0].message}` : `${errors.length} fields are invalid.`;
  return new DomainError("VALIDATION_FAILED", `${what} is invalid: ${detail}`, errors);
}

/**
 * Validates input inside a service, so REST and GraphQL reject the same input with the same
 * message. Throws VALIDATION_FAILED listing every bad path. Text that no column could store is
 * refused first, wherever it sits, so no schema has to remember it (GraphQL arguments included).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "The request"): z.output<S> {
  const unstorable = unstorableText(input);
  if (unstorable.length > 0) throw invalidInput(what, unstorable);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidInput(what, fieldErrors(result.error, schema, input));
}

/** A flag in a query string ("true"/"false") or a JSON/GraphQL Boolean. */
/** A JSON or GraphQL Boolean in a body; anything else is "must be true or false", not zod's "expected boolean". */
export const booleanInput = z.boolean({ error: "must be true or false" });

export const booleanFlag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], {
  error: "must be true or false",
});

/**
 * The largest `offset` a list takes: 2^31−1, GraphQL's Int and the ids' own bound, so both
 * transports take the same offsets and no list could hold more rows than that anyway.
 */
export const MAX_OFFSET = 2_147_483_647;

/**
 * An integer from a query string (REST) or a GraphQL Int, one schema serving both: decimal digits
 * only, within [min, max], the parameter named when refused. z.coerce.number() used JavaScript's
 * Number(), which read `0x10` as 16, `1e3` as 1000 and ` 5` as 5, and took offsets up to 2^53−1.
 */
export function queryInt(opts: { min: number; max: number; default?: number }) {
  const { min, max } = opts;
  const digits = `must be a whole number written in decimal digits, from ${min} to ${max}`;
  const bounded = z
    .number({ error: digits })
    .int(digits)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
  // The default inside the preprocess, so the OpenAPI document shows it.
  return z.preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    opts.default === undefined ? bounded : bounded.default(opts.default),
  );
}

/** Integer resource ids (portfolio, holding, trade...): accepts 12 or "12", rejects 0, 1.5, "12a", "0x10". */
export const idSchema = z
  // The metadata documents (OpenAPI) what the pipe below enforces: an integer in 1..2^31−1.
  .union([
    z.number().meta({ type: "integer", minimum: 1, maximum: 2147483647 }),
    z.string().regex(/^\d{1,10}$/, "must be a positive integer"),
  ])
  .transform((value) => Number(value))
  .pipe(
    z.number().int("must be a positive integer").positive("must be a positive integer").max(2147483647, "is too large"),
  );

export function parseId(value: unknown, name: string): number {
  return parseInput(z.object({ [name]: idSchema }), { [name]: value }, `The ${name}`)[name] as number;
}

/**
 * A write body that also takes the read-only fields of the resource's own answer (`id`,
 * `dateCreated`, `balance`…), so a client can GET a resource, edit it and send it back: those
 * fields are accepted whatever their value and dropped before the service sees them. Every other
 * unknown field is still refused by name. Top-level only: nested objects of the answers that
 * clients send back (buckets, classification, drp) have the same fields as their inputs.
 */
export function acceptingAnswerFields<I extends z.ZodObject, R extends z.ZodObject>(input: I, answer: R) {
  const readOnly = Object.keys(answer.shape).filter((k) => !(k in input.shape));
  const ignored = Object.fromEntries(
    readOnly.map((k) => [
      k,
      z.unknown().optional().describe("Read-only: accepted from the resource's own answer and ignored"),
    ]),
  );
  return input.safeExtend(ignored).transform((value) => {
    const kept = { ...(value as Record<string, unknown>) };
    for (const k of readOnly) delete kept[k];
    return kept as z.output<I>;
  });
}
