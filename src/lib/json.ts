import { isDecimal } from "./money";

/**
 * A NaN or ±Infinity met while writing an answer. JSON has no such numbers: written bare they make
 * the whole body unparseable (with a 200), written as null they pass for "no value" (which several
 * report fields document with a meaning of their own). Either hides a division the service failed
 * to guard, so the answer is refused instead: a 500 whose log line names the field.
 */
export class NonFiniteNumberError extends Error {
  constructor(
    readonly value: string,
    readonly path = "$",
  ) {
    super(
      `A non-finite number (${value}) at ${path} cannot be written as JSON: a report divided by zero or overflowed.`,
    );
    this.name = "NonFiniteNumberError";
  }
}

/**
 * JSON with exact decimals: a Decimal is written as a bare JSON number from its own digits
 * (`152.39`, never through a float), as docs/conventions.md §4.2 says. Node 20 has no JSON.rawJSON, hence
 * this small writer. Dates become ISO 8601 strings; undefined object members are omitted. A
 * non-finite number, Decimal or JS, throws NonFiniteNumberError naming where it is.
 */
export function stringify(value: unknown): string {
  try {
    return write(value);
  } catch (error) {
    // Where it is, found only now: tracking the path while writing cost every answer a fifth of
    // its writing time for an error that a correct report never raises.
    throw error instanceof NonFiniteNumberError ? new NonFiniteNumberError(error.value, pathOf(value) ?? "$") : error;
  }
}

/**
 * What JSON.stringify would escape in a string: `"`, `\`, control characters, and surrogates (it
 * escapes a lone one; a pair it leaves, and so does the slow path here). A string with none of
 * them is written as it is: calling JSON.stringify for every string was two fifths of writing a
 * list of short rows.
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function write(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : '"' + value + '"';
    case "number":
      if (!Number.isFinite(value)) throw new NonFiniteNumberError(String(value));
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object": {
      if (isDecimal(value)) {
        if (!value.isFinite()) throw new NonFiniteNumberError(value.toString());
        return value.toFixed();
      }
      // An ISO 8601 string holds nothing JSON escapes.
      if (value instanceof Date) return '"' + value.toISOString() + '"';
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + write(value[i]);
        return out + "]";
      }
      let out = "{";
      let first = true;
      for (const k of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined || typeof v === "function") continue;
        out += (first ? "" : ",") + quotedKey(k) + write(v);
        first = false;
      }
      return out + "}";
    }
    default:
      return "null";
  }
}

/**
 * `"name":` for an object's key, quoted once per process: answers repeat the same few hundred field
 * names on every row, and quoting each again was half the time of writing a list of plain rows. At
 * most KEY_CACHE_MAX are kept, so keys that come from data (a map by symbol) cannot grow it without
 * bound; past that, keys are quoted each time.
 */
const KEY_CACHE_MAX = 10_000;
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key) + ":";
    if (quotedKeys.size < KEY_CACHE_MAX) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** The path (`$.legs[0].quantity`) of the first non-finite number `write` meets in `value`. */
function pathOf(value: unknown, path = "$"): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null || value instanceof Date) return undefined;
  if (isDecimal(value)) return value.isFinite() ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOf(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    const found = typeof v === "function" ? undefined : pathOf(v, `${path}.${k}`);
    if (found) return found;
  }
  return undefined;
}
