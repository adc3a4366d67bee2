import fc from "fast-check";
import { MAX_INPUT_DEPTH } from "../../src/http/depth";

/**
 * Hostile inputs for the fuzz suites: values that broke a service once or would break a careless
 * one, and mutations that plant them anywhere inside a valid body, so a generated request gets
 * past the shape checks and reaches the deep validation (a bucket's label, a parcel's quantity).
 */

/**
 * The fast-check settings of every property. The seed is fixed by default, so a run is
 * reproducible; on failure fast-check prints the seed and path, and FUZZ_SEED with FUZZ_PATH (and
 * jest -t naming the route or field) replays that very case. FUZZ_RUNS=500 runs longer by hand.
 */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
export const SEED = Number(process.env.FUZZ_SEED ?? 20_240_229);
export const FUZZ_OPTIONS = {
  seed: SEED,
  numRuns: RUNS,
  ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
};

/** A JSON number written as given, beyond what a float can say (1e400 parses to Infinity). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** JSON text planted as given inside a body: nesting too deep for any recursive writer (toJsonText included). */
export class RawJson {
  constructor(readonly text: string) {}
}

const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
/** Nesting past the limit: just past it, and deep enough to overflow a recursive walk (`[` × 5,000 did). */
export const DEEP_JSON_TEXTS = [
  arrays(MAX_INPUT_DEPTH + 1),
  objects(MAX_INPUT_DEPTH + 1),
  arrays(5_000),
  objects(5_000),
  arrays(100_000),
  objects(50_000),
];

/** `valid` with a value nested past the limit planted in it (in its first row when it is a list). */
export function withDeepValue(valid: unknown, deepText: string): unknown {
  if (Array.isArray(valid)) return [withDeepValue(valid[0] ?? {}, deepText), ...valid.slice(1)];
  if (valid && typeof valid === "object")
    return ownObject([...Object.entries(valid), ["nested", new RawJson(deepText)]]);
  return new RawJson(deepText);
}

/** Query-string integers that JavaScript's Number() reads but decimal digits do not say (row 10 of issue 20). */
export const HOSTILE_INTEGER_TEXTS = [
  "0x10",
  "0X1F",
  "1e3",
  "1E2",
  "0b11",
  "0o17",
  "1_000",
  "+5",
  " 7",
  "7 ",
  "1.0",
  "-0",
  "Infinity",
  "NaN",
  "",
  "9007199254740991",
  "99999999999999999999",
  "2147483648",
];

/** Whether a query-string integer must be refused: not decimal digits, or past every documented bound (2^31−1). */
export const badQueryInteger = (text: string): boolean => !/^\d+$/.test(text) || Number(text) > 2_147_483_647;

const HUGE = "x".repeat(100_000);

export const HOSTILE_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00",
  "\udbff",
  "\ud83d\ude00",
  "\u202e",
  "\ufeff",
  "\u00a0",
  "'; DROP TABLE portfolio; --",
  "%",
  "_",
  "\\",
  "%00",
  "\\u0000",
  "(",
  "[",
  "*",
  "\\m",
  "a{99999}",
  "2024-02-30",
  "2023-02-29",
  "0000-01-01",
  "9999-12-31",
  "1899-12-31",
  "2201-01-01",
  "2024-13-01",
  "2024-1-1",
  "2024-02-29T00:00:00Z",
  "+002024-01-01",
  "-000001-01-01",
  "1e400",
  "-1e400",
  "NaN",
  "Infinity",
  "-0",
  "0x10",
  "1,5",
  " 12 ",
  "0.123456789012345678901234567890",
  "123456789012345678901234567890",
  "-99999999999999999999.9999",
  "1".repeat(400),
  "customGroup:1",
  "customGroup:2147483648",
  "customGroup:99999999999",
  "customGroup:",
  "holding",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "AUD",
  "aud",
  "XXX",
  "Buy",
  "buy",
  "Sell",
  "Split",
  "Cancellation",
  "FIFO",
  "Read",
  "ReadWrite",
  "Admin",
  "CUSTOM",
  "ASX",
  "CBA.ASX",
  "Cash",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "01",
  "-1",
  "0",
  "2147483648",
  "1.5",
  HUGE,
];

export const HOSTILE_NUMBERS: unknown[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  1e-7,
  5e-324,
  -5e-324,
  1e21,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  1e15,
  999999999999999.9,
  0.1 + 0.2,
  new RawNumber("1e400"),
  new RawNumber("-1e400"),
  new RawNumber("0.123456789012345678901234567890"),
  new RawNumber("123456789012345678901234567890"),
  new RawNumber("-0.0"),
  new RawNumber("1E-400"),
];

/** Keys that a careless merge would turn into a prototype change. */
export const PROTO_KEYS = ["__proto__", "constructor", "prototype"];

/** Any UTF-16 code unit, lone surrogates and NUL included, and now and then a plain one. */
const codeUnit = fc.oneof(
  fc.nat(0xffff).map((c) => String.fromCharCode(c)),
  fc.constantFrom("\u0000", "\ud800", "\udc00", "a", "1", " "),
);
export const anyText = (maxLength: number, minLength = 0) => fc.string({ unit: codeUnit, minLength, maxLength });

export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: anyText(12) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

/** An object with own keys as given, `__proto__` included (an object literal would set the prototype instead). */
export function ownObject(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A leaf, or small arrays and objects of them keyed by the schema's field names and prototype keys. */
export function hostileValue(keys: string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom(...keys, ...PROTO_KEYS), fc.string({ maxLength: 6 }));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      hostileLeaf,
      fc.array(tie("value"), { maxLength: 3 }),
      fc.array(fc.tuple(key, tie("value")), { maxLength: 3 }).map(ownObject),
    ),
  }));
  return value;
}

type Path = (string | number)[];

/** Every path inside a JSON value, the root included. */
export function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

export type Mutation =
  | { kind: "replace"; path: Path; value: unknown }
  | { kind: "delete"; path: Path }
  | { kind: "add"; path: Path; key: string; value: unknown }
  | { kind: "wrap"; path: Path; inArray: boolean };

const clone = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function applyOne(root: unknown, m: Mutation): unknown {
  const wrap = (v: unknown) => (m.kind === "wrap" ? (m.inArray ? [v] : { value: v }) : undefined);
  if (m.path.length === 0) {
    if (m.kind === "replace") return m.value;
    if (m.kind === "wrap") return wrap(root);
  }
  let parent: unknown = root;
  for (const part of m.path.slice(0, m.kind === "add" ? undefined : -1)) {
    if (!parent || typeof parent !== "object") return root;
    parent = (parent as Record<string | number, unknown>)[part];
  }
  if (!parent || typeof parent !== "object") return root;
  const target = parent as Record<string | number, unknown>;
  const last = m.path[m.path.length - 1];
  if (m.kind === "add") {
    // Earlier mutations may have turned the container into an array: keys go on objects only.
    if (!Array.isArray(target))
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
  } else if (m.kind === "replace") target[last] = m.value;
  else if (m.kind === "wrap") target[last] = wrap(target[last]);
  else if (Array.isArray(target)) target.splice(Number(last), 1);
  else delete target[last];
  return root;
}

/** A valid body with one to three mutations planted in it, the mutations alongside for the report. */
export function mutatedBody(valid: unknown, keys: string[]): fc.Arbitrary<{ body: unknown; mutations: Mutation[] }> {
  const paths = pathsOf(valid);
  const containers = paths.filter((p) => {
    let v: unknown = valid;
    for (const part of p) v = (v as Record<string | number, unknown>)[part];
    return v !== null && typeof v === "object" && !Array.isArray(v);
  });
  const value = hostileValue(keys);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant("replace" as const), path: fc.constantFrom(...paths), value }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), path: fc.constantFrom(...paths) }) },
    {
      weight: containers.length ? 3 : 0,
      arbitrary: fc.record({
        kind: fc.constant("add" as const),
        path: fc.constantFrom(...(containers.length ? containers : [[]])),
        key: fc.constantFrom(...keys, ...PROTO_KEYS),
        value,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("wrap" as const),
        path: fc.constantFrom(...paths),
        inArray: fc.boolean(),
      }),
    },
  );
  return fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((mutations) => ({ body: mutations.reduce(applyOne, clone(valid)), mutations }));
}

/** JSON text with RawNumbers written as given. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawNumber || value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return "[" + value.map((v) => (v === undefined ? "null" : toJsonText(v))).join(",") + "]";
  if (value && typeof value === "object") {
    return (
      "{" +
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => JSON.stringify(k) + ":" + toJsonText(v))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(value) ?? "null";
}

/** Bodies that are not JSON a service expects at all: broken, deep, huge, or JSON that is only barely. */
export const HOSTILE_JSON_TEXTS = [
  "{",
  '{"a":}',
  "[1,]",
  '{"a":1}{"b":2}',
  "\u0000",
  "\ufeff{}",
  "null",
  '"text"',
  "123",
  "[]",
  "{}",
  "true",
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  ...DEEP_JSON_TEXTS,
  JSON.stringify({ name: "n".repeat(900_000) }),
  JSON.stringify({ name: "too large" + " ".repeat(1_100_000) }),
  '{"name":"\\ud800","labels":["\\udfff"]}',
  '{"name":"a\\u0000b"}',
];

/** Declared types a JSON route must refuse or read safely. */
export const HOSTILE_CONTENT_TYPES = [
  "text/plain",
  "text/csv",
  "application/x-www-form-urlencoded",
  "application/xml",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=nope",
  "application/merge-patch+json",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
];

/** Encodings declared over bytes that are not encoded so, or not known at all. */
export const HOSTILE_ENCODINGS = ["gzip", "deflate", "br", "compress", "identity, gzip", "zstd", "x-gzip"];

/**
 * Path segments (already percent-encoded) that are not a valid id: NUL, invalid UTF-8, encoded
 * lone surrogates, out-of-range numbers, traversal. None may name a real row, so a DELETE stays harmless.
 */
export const HOSTILE_SEGMENTS = [
  "0",
  "-1",
  "1.5",
  "1e3",
  "abc",
  "%00",
  "a%00b",
  "%FF",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%80",
  "2147483648",
  "99999999999999999999",
  "%20",
  "%201",
  "__proto__",
  "constructor",
  "..",
  "%2e%2e",
  "1%2F2",
  "%F0%9F%98%80",
  "null",
  "%5B%5D",
  "%7B%7D",
  "x".repeat(5000),
  "0x1",
  "+1",
  "%E2%80%AE",
];

/** Any text as a path segment or query value: its UTF-8 bytes, all percent-encoded. */
export const percentEncode = (text: string): string =>
  [...Buffer.from(text, "utf8")].map((b) => "%" + b.toString(16).padStart(2, "0").toUpperCase()).join("");

export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_SEGMENTS),
  anyText(12, 1)
    .filter((s) => !/^\d+$/.test(s))
    .map(percentEncode),
);
