import type { z } from "zod";
import type { FieldError } from "./domain-errors";

/**
 * Zod's issues as the field errors an answer lists, a misspelt field named with the known one it
 * is nearest to.
 */

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
 * A field left out is `is required` (docs/conventions.md §7.1), whatever its own check says of a
 * value it was not given ("must be a date", "Invalid option: expected one of…"): known from
 * `input`, the value parsed, when given; a rule between fields keeps its own words.
 */
export function fieldErrors(error: z.ZodError, schema?: z.ZodType, input?: unknown): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (input !== undefined && issue.code !== "custom" && issue.path.length > 0 && absentAt(input, issue.path))
      return [{ path: formatPath(issue.path), message: "is required" }];
    // A record's bad key: what its key schema said ("must be an AMIT component name: …"), not zod's "Invalid key in record".
    if (issue.code === "invalid_key")
      return [
        { path: formatPath(issue.path), message: issue.issues.map((i) => i.message).join("; ") || issue.message },
      ];
    if (isMissing(issue)) return [{ path: formatPath(issue.path), message: "is required" }];
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

/** Whether the value at `path` of `input` is left out (absent, or undefined) of an object that is there. */
function absentAt(input: unknown, path: readonly PropertyKey[]): boolean {
  let at: unknown = input;
  for (const part of path.slice(0, -1)) {
    if (at === null || typeof at !== "object") return false;
    at = (at as Record<PropertyKey, unknown>)[part];
  }
  if (at === null || typeof at !== "object" || Array.isArray(at)) return false;
  const last = path[path.length - 1];
  return !Object.hasOwn(at, last) || (at as Record<PropertyKey, unknown>)[last] === undefined;
}

/**
 * Whether the issue is a required field left out: zod says "Invalid input: expected number,
 * received undefined", and of a union (an id is a number or a numeric string) only "Invalid input".
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if (issue.code === "invalid_type") return / received undefined$/.test(issue.message);
  if (issue.code === "invalid_union")
    return (
      issue.errors.length > 0 &&
      issue.errors.every((branch) => branch.length > 0 && branch.every((i) => isMissing(i as z.core.$ZodIssue)))
    );
  return false;
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
