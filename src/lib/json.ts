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

  /** The same error, its path one level further out (the member or index that holds it). */
  within(segment: string): NonFiniteNumberError {
    return new NonFiniteNumberError(this.value, "$" + segment + this.path.slice(1));
  }
}

/** Writes `v`, naming `segment` in the path of a non-finite number found inside it. */
function member(v: unknown, segment: string): string {
  try {
    return stringify(v);
  } catch (error) {
    throw error instanceof NonFiniteNumberError ? error.within(segment) : error;
  }
}

/**
 * JSON with exact decimals: a Decimal is written as a bare JSON number from its own digits
 * (`152.39`, never through a float), as docs/conventions.md §4.2 says. Node 20 has no JSON.rawJSON, hence
 * this small writer. Dates become ISO 8601 strings; undefined object members are omitted. A
 * non-finite number, Decimal or JS, throws NonFiniteNumberError.
 */
export function stringify(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
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
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      if (Array.isArray(value))
        return "[" + value.map((v, i) => (v === undefined ? "null" : member(v, `[${i}]`))).join(",") + "]";
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined || typeof v === "function") continue;
        parts.push(JSON.stringify(k) + ":" + member(v, "." + k));
      }
      return "{" + parts.join(",") + "}";
    }
    default:
      return "null";
  }
}
