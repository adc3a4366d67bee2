import { isDecimal } from "./money";

/**
 * JSON with exact decimals: a Decimal is written as a bare JSON number from its own digits
 * (`152.39`, never through a float), as API.md §1 requires. Node 20 has no JSON.rawJSON, hence
 * this small writer. Dates become ISO 8601 strings; undefined object members are omitted.
 */
export function stringify(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object": {
      if (isDecimal(value)) return value.toFixed();
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      if (Array.isArray(value)) return "[" + value.map((v) => (v === undefined ? "null" : stringify(v))).join(",") + "]";
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined || typeof v === "function") continue;
        parts.push(JSON.stringify(k) + ":" + stringify(v));
      }
      return "{" + parts.join(",") + "}";
    }
    default:
      return "null";
  }
}
