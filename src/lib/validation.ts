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

/**
 * One field error per issue. A field the schema does not know (a strict object's
 * `unrecognized_keys`) is one error per field at its full path, `buckets[2].labell`, naming the
 * closest known field when the schema is given and one is near (a typo, not a different field).
 */
export function fieldErrors(error: z.ZodError, schema?: z.ZodType): FieldError[] {
  return error.issues.flatMap((issue) => {
    // A record's bad key: what its key schema said ("must be an AMIT component name: …"), not zod's "Invalid key in record".
    if (issue.code === "invalid_key")
      return [
        { path: formatPath(issue.path), message: issue.issues.map((i) => i.message).join("; ") || issue.message },
      ];
    if (issue.code !== "unrecognized_keys") return [{ path: formatPath(issue.path), message: issue.message }];
    const known = schema ? knownKeysAt(schema, issue.path) : [];
    return issue.keys.map((key) => {
      const near = closest(key, known);
      return {
        path: formatPath([...issue.path, key]),
        message: `is not a known field${near ? `; did you mean ${near}?` : ""}`,
      };
    });
  });
}

/** The keys of the object schema(s) that could sit at `path` below `schema`: wrappers, arrays, records, unions and pipes are looked through. */
export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  const visit = (s: z.core.$ZodType | undefined, rest: readonly PropertyKey[], depth: number): void => {
    if (!s || depth > 64) return;
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    const next = (inner: unknown, r = rest) => visit(inner as z.core.$ZodType | undefined, r, depth + 1);
    switch (def.type) {
      case "object": {
        const shape = def.shape as Record<string, z.core.$ZodType>;
        if (rest.length === 0) Object.keys(shape).forEach((k) => keys.add(k));
        else next(shape[String(rest[0])], rest.slice(1));
        return;
      }
      case "array":
        if (rest.length > 0) next(def.element, rest.slice(1));
        return;
      case "record":
        if (rest.length > 0) next(def.valueType, rest.slice(1));
        return;
      case "tuple":
        if (rest.length > 0) next((def.items as z.core.$ZodType[])[Number(rest[0])], rest.slice(1));
        return;
      case "union":
        (def.options as z.core.$ZodType[]).forEach((o) => next(o));
        return;
      case "intersection":
        next(def.left);
        next(def.right);
        return;
      case "pipe":
        next(def.in);
        next(def.out);
        return;
      case "lazy":
        next((def.getter as () => unknown)());
        return;
      default:
        // optional, nullable, default, prefault, catch, readonly, nonoptional...
        if ("innerType" in def) next(def.innerType);
    }
  };
  visit(schema, path, 0);
  return [...keys];
}

/** The known name nearest to a misspelt one (case ignored), if it is within a typo's distance. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  // One edit in 4 letters, at most 3: `brokrage` → brokerage, `labell` → label, never `foo` → name.
  return best !== undefined && bestDistance <= Math.min(3, Math.max(1, Math.floor(best.length / 4))) ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (`pirce` → price). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 100 || b.length > 100) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

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
  throw invalidInput(what, fieldErrors(result.error, schema));
}

/**
 * NUL, or a UTF-16 surrogate without its partner. Neither can be stored: PostgreSQL refuses NUL
 * in text (SQLSTATE 22021), and a lone surrogate has no UTF-8 form (drivers silently write U+FFFD).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired UTF-16 surrogates";

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Parsed JSON, a query string or GraphQL input, not a Date, Decimal or Buffer (any realm's Object.prototype). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

interface Visit {
  value: unknown;
  key?: PropertyKey;
  parent?: Visit;
}

/**
 * Every string in a decoded input (object keys too) that a text column cannot store, as field
 * errors in document order, at most `max`. Walks with its own stack, so a body nested 100,000
 * deep cannot overflow the call stack; only plain objects and arrays are entered.
 */
export function unstorableText(value: unknown, root: PropertyKey[] = [], max = 20): FieldError[] {
  const errors: FieldError[] = [];
  const pathOf = (visit: Visit) => {
    const path: PropertyKey[] = [];
    for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.push(v.key);
    return formatPath([...root, ...path.reverse()]);
  };
  const stack: Visit[] = [{ value }];
  while (stack.length > 0 && errors.length < max) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof visit.key === "string" && UNSTORABLE.test(visit.key))
      errors.push({ path: pathOf(visit), message: `is a field name that ${UNSTORABLE_MESSAGE}` });
    if (typeof v === "string") {
      if (UNSTORABLE.test(v)) errors.push({ path: pathOf(visit), message: UNSTORABLE_MESSAGE });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit });
    } else if (isPlainObject(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: v[keys[i]], key: keys[i], parent: visit });
    }
  }
  return errors;
}

/** A flag in a query string ("true"/"false") or a JSON/GraphQL Boolean. */
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
 * Free text that PostgreSQL can store: trimmed, within length bounds, and free of control
 * characters other than tab and line breaks (NUL cannot be stored in a text column at all) and of
 * unpaired surrogates (which have no UTF-8 form).
 */
export function text(opts: { min?: number; max: number; trim?: boolean }) {
  const base = opts.trim === false ? z.string() : z.string().trim();
  return base
    .min(opts.min ?? 0, opts.min === 1 ? "must not be empty" : `must be at least ${opts.min} characters`)
    .max(opts.max, `must be at most ${opts.max} characters`)
    .regex(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/, "must not contain control characters")
    .refine(isStorableText, UNSTORABLE_MESSAGE);
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
