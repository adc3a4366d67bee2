import { ERROR_CODES } from "../lib/domain-errors";

/**
 * The parts of the OpenAPI document every operation shares (openapi.ts builds the operations):
 * the problem+json error responses, the response headers, and the `Problem` schema.
 */
export const PROBLEM_JSON = "application/problem+json";

/** Headers any answer may carry once authentication has run: the rate limit's state. */
export const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/** Statuses answered with problem+json, each one shared response component (docs/conventions.md §5). */
export const PROBLEM_RESPONSES: Record<number, { name: string; description: string; headers?: string[] }> = {
  400: {
    name: "BadRequest",
    description:
      "Invalid input: `errors` lists each bad path (`line N.column` for CSV rows). Also a body that is not what its headers say (malformed JSON or multipart, not UTF-8, an undecodable Content-Encoding), a malformed Idempotency-Key, and text holding NUL or an unpaired surrogate anywhere in the path, query or body.",
  },
  401: { name: "Unauthorized", description: "Missing or unknown API key.", headers: ["WWW-Authenticate"] },
  403: {
    name: "Forbidden",
    description:
      "The key may not do this: a client login key with Read permission on any write, and any client login key on the adviser's own operations (clients and their keys, custom groups, market prices, FX rates, creating and deleting portfolios).",
  },
  404: {
    name: "NotFound",
    description:
      "No such resource in this account (another account's resources answer 404 too), or a resource the body names does not exist.",
  },
  405: {
    name: "MethodNotAllowed",
    description:
      "The path exists, but not with this method; `Allow` lists the methods it takes. Sent before authentication.",
    headers: ["Allow"],
  },
  409: {
    name: "Conflict",
    description:
      "A unique rule would be broken (see the operation's description); the change collided with a concurrent one; or a request with the same Idempotency-Key is still running (`Retry-After`). Nothing was written; it may be retried.",
    headers: ["Retry-After.optional"],
  },
  413: {
    name: "PayloadTooLarge",
    description: "The body is too large: JSON 1 MiB, bulk endpoints (JSON or CSV) 20 MiB, attachments 10 MiB.",
  },
  415: {
    name: "UnsupportedMediaType",
    description:
      "A body of a Content-Type the operation does not take (see its request body); `Accept-Post` names them on a POST. Sent before authentication.",
    headers: ["Accept-Post"],
  },
  422: {
    name: "UnprocessableContent",
    description:
      "Valid input that a business rule forbids (see the operation's description); on a POST, also an Idempotency-Key used in the last 24 hours for a different request.",
  },
  429: {
    name: "TooManyRequests",
    description:
      "Over the key's rate limit (per client address without a valid key); nothing ran. Retry after `Retry-After` seconds.",
    headers: ["Retry-After"],
  },
  500: {
    name: "InternalError",
    description: "A fault of ours; the body never carries internals (the log has them under `requestId`).",
  },
  503: {
    name: "Unavailable",
    description: "The database cannot be reached; nothing ran. Retry after `Retry-After` seconds.",
    headers: ["Retry-After"],
  },
  507: {
    name: "InsufficientStorage",
    description:
      "Out of disk space: the embedded database refuses every write while free space in DATA_DIR is below DISK_FREE_MIN_MB (before authentication); a PostgreSQL server's disk-full error rolls the change back. Reads go on.",
  },
};

const seconds = (description: string, required = false) => ({
  description,
  ...(required ? { required } : {}),
  schema: { type: "integer", minimum: 0 },
});
export const HEADERS: Record<string, { description: string; required?: boolean; schema: object }> = {
  "Retry-After": seconds("Seconds to wait before retrying", true),
  "Retry-After.optional": seconds("Seconds to wait before retrying, when waiting will help"),
  "RateLimit-Limit": seconds(
    "Requests the bucket holds when full (the burst); sent on every answer once the key is known, while the rate limit is on",
  ),
  "RateLimit-Remaining": seconds("Requests left in the bucket"),
  "RateLimit-Reset": seconds("Seconds until the bucket is full again"),
  "WWW-Authenticate": {
    description:
      'The scheme to use: `Bearer realm="portfolio-service"`, with `error="invalid_token"` when a key was given but is not valid',
    required: true,
    schema: { type: "string" },
  },
  Allow: { description: "The methods this path takes, comma-separated", required: true, schema: { type: "string" } },
  "Accept-Post": {
    description: "On a POST: the media types the operation takes, comma-separated",
    schema: { type: "string" },
  },
  "X-Total-Count": {
    description: "How many rows the list has in all, whatever `limit` and `offset` asked for",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  Link: {
    description:
      "RFC 8288 links to the `first`, `prev`, `next` and `last` pages, relative to the request (only `offset` and `limit` change)",
    required: true,
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description: "`true` on the kept answer to a retry with the same Idempotency-Key (nothing ran again)",
    schema: { type: "string", enum: ["true"] },
  },
};

/** A header's name on the wire (the components key may say more, as "Retry-After.optional"). */
export const wireName = (key: string) => key.replace(/\.optional$/, "");

export const ref = (kind: "schemas" | "responses" | "headers" | "parameters", name: string) => ({
  $ref: `#/components/${kind}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
});
export const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [wireName(name), ref("headers", name)]));

/** RFC 9457 problem details, as every error answers them. */
export const PROBLEM_SCHEMA = {
  type: "object",
  description: "RFC 9457 problem details",
  required: ["type", "title", "status", "detail", "code"],
  properties: {
    type: {
      type: "string",
      format: "uri",
      description: "Names the code: https://portfolio-service.dev/problems/<code in kebab case>",
    },
    title: { type: "string" },
    status: { type: "integer", description: "The HTTP status" },
    detail: { type: "string" },
    code: { type: "string", enum: Object.keys(ERROR_CODES), description: "Stable error code (docs/conventions.md §5)" },
    errors: {
      type: "array",
      description: "Each bad input field",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: {
            type: "string",
            description:
              "Dotted with indexes, e.g. `buckets[2].targetPct`; `(body)` for the whole body; `line N` or `line N.column` in CSV",
          },
          message: { type: "string" },
          line: {
            type: "integer",
            minimum: 1,
            description:
              "Bulk bodies: the offending row's line (CSV: the header is line 1; JSON: the array position + 1)",
          },
        },
        additionalProperties: false,
      },
    },
    errorCount: {
      type: "integer",
      minimum: 101,
      description: "How many bad fields there were, when more than the first 100 that `errors` lists",
    },
    requestId: { type: "string", description: "The request's id, also in the `x-request-id` header" },
  },
  additionalProperties: false,
};

/**
 * The problem+json response of one error status, naming the codes it can carry; its headers as
 * references to the document's header components, or `inline` (for a response no operation lists).
 */
function problemResponse(status: number, inline = false): Record<string, unknown> {
  const r = PROBLEM_RESPONSES[status];
  const codes = Object.entries(ERROR_CODES)
    .filter(([, c]) => c.status === status)
    .map(([code]) => code);
  // 405, 415 and 507 (embedded database) are refused before authentication: no bucket is known.
  const rateLimited = ![405, 415].includes(status);
  const names = [...(r.headers ?? []), ...(rateLimited ? RATE_LIMIT_HEADERS : [])];
  return {
    description: r.description,
    headers: inline ? Object.fromEntries(names.map((name) => [wireName(name), HEADERS[name]])) : headerRefs(names),
    content: {
      [PROBLEM_JSON]: {
        schema: {
          type: "object",
          allOf: [ref("schemas", "Problem")],
          properties: { status: { const: status }, ...(codes.length ? { code: { enum: codes } } : {}) },
        },
      },
    },
  };
}

/** One response component per error status an operation can answer (405 is no operation's: below). */
export function problemResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(PROBLEM_RESPONSES)
      .filter(([status]) => Number(status) !== 405)
      .map(([status, r]) => [r.name, problemResponse(Number(status))]),
  );
}

/**
 * The 405 answer: a path's, for a method it does not take, so no operation lists it and the
 * document has no component for it (an unused component is a lint warning); info.description
 * describes it, and test/api/openapi-contract.test.ts checks 405 answers against this.
 */
export const METHOD_NOT_ALLOWED_RESPONSE = problemResponse(405, true);
