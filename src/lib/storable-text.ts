import { z } from "zod";
import type { FieldError } from "./domain-errors";
import { formatPath } from "./field-errors";

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
export function isPlainObject(v: unknown): v is Record<string, unknown> {
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
