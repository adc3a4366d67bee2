import { createHash } from "node:crypto";
import { getOperationAST, parse, type DocumentNode } from "graphql";
import { fragmentsOf, rootFields } from "../graphql/root-fields";

/**
 * Pure helpers of the `Idempotency-Key` header (IETF draft "The Idempotency-Key HTTP Header
 * Field"): reading the key, the request's fingerprint, and what a GraphQL request is.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/**
 * The key, or null when the header is malformed. The draft makes the field a Structured Field
 * String (`Idempotency-Key: "8e03..."`); most clients send the bare value (Stripe's style), so
 * both are accepted and name the same key: `"abc"` and `abc` are one key.
 */
export function parseIdempotencyKey(header: string): string | null {
  let key = header;
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const inner = key.slice(1, -1);
    // sf-string (RFC 8941 §3.3.3): only \" and \\ are escapes; a lone quote or backslash is invalid.
    if (!/^(?:[^"\\]|\\["\\])*$/.test(inner)) return null;
    key = inner.replace(/\\(["\\])/g, "$1");
  }
  return PRINTABLE_ASCII.test(key) ? key : null;
}

/**
 * JSON with object members sorted, so a retry that orders its members differently is the same
 * request. Walks with its own stack, never recursion: the body was checked for depth already
 * (src/http/depth.ts), and this stays safe whoever calls it. Same text as JSON.stringify gives for
 * parsed JSON, members sorted (stored fingerprints depend on it).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Values still to write, and the punctuation between them; a string entry is text as it stands.
  const todo: ({ value: unknown } | string)[] = [{ value }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== "object") {
      out.push(JSON.stringify(v) ?? "null");
    } else if (Array.isArray(v)) {
      out.push("[");
      todo.push("]");
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] === undefined ? null : v[i] });
        if (i > 0) todo.push(",");
      }
    } else {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      out.push("{");
      todo.push("}");
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push({ value: record[keys[i]] }, JSON.stringify(keys[i]) + ":");
        if (i > 0) todo.push(",");
      }
    }
  }
  return out.join("");
}

/**
 * SHA-256 of what makes two requests the same request: method, path with query, media type (its
 * parameters dropped: a multipart boundary differs on every send) and the parsed body (JSON
 * canonicalised, CSV text as sent). A multipart upload's file is still unread at this point, so
 * its fingerprint covers method, path and media type only.
 */
export function requestFingerprint(input: {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}): string {
  const mediaType = (input.contentType ?? "").split(";")[0].trim().toLowerCase();
  const body =
    typeof input.body === "string"
      ? "text:" + input.body
      : input.body === undefined
        ? ""
        : "json:" + canonicalJson(input.body);
  return createHash("sha256")
    .update(canonicalJson([input.method, input.path, mediaType, body]))
    .digest("hex");
}

/** The config's ceiling for GRAPHQL_MAX_TOKENS: past it, Apollo refuses the document anyway. */
const MAX_TOKENS = 100_000;

/**
 * The root fields of the mutation a GraphQL POST body runs, or null when it runs no mutation (a
 * query, or a body Apollo will refuse: not parseable, no such operation, a batch).
 */
export function graphqlMutationFields(body: unknown): string[] | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== "string") return null;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_TOKENS });
  } catch {
    return null;
  }
  const operation = getOperationAST(document, typeof operationName === "string" ? operationName : undefined);
  if (!operation || operation.operation !== "mutation") return null;
  return [...new Set(rootFields(operation, fragmentsOf(document)).map((f) => f.name.value))];
}
