import { z } from "zod";
import { ERROR_CODES } from "../lib/errors";
import type { Endpoint } from "./endpoint";

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests (OpenAPI 3.1 schemas are
 * JSON Schema 2020-12, which zod emits natively). Schemas with a `.meta({ id })` become shared
 * components. test/api/openapi-contract.test.ts drives every operation and checks each answer
 * against this document, so what it says about statuses, bodies and headers must stay true.
 */
const PROBLEM_JSON = "application/problem+json";

/** Headers any answer may carry once authentication has run: the rate limit's state. */
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/** Statuses answered with problem+json, each one shared response component (README: Errors). */
const PROBLEM_RESPONSES: Record<number, { name: string; description: string; headers?: string[] }> = {
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
  404: { name: "NotFound", description: "No such resource in this account (another account's resources answer 404 too), or a resource the body names does not exist." },
  405: { name: "MethodNotAllowed", description: "The path exists, but not with this method; `Allow` lists the methods it takes. Sent before authentication.", headers: ["Allow"] },
  409: {
    name: "Conflict",
    description:
      "A unique rule would be broken (see the operation's description); the change collided with a concurrent one; or a request with the same Idempotency-Key is still running (`Retry-After`). Nothing was written; it may be retried.",
    headers: ["Retry-After.optional"],
  },
  413: { name: "PayloadTooLarge", description: "The body is too large: JSON 1 MiB, bulk endpoints (JSON or CSV) 20 MiB, attachments 10 MiB." },
  415: { name: "UnsupportedMediaType", description: "A body of a Content-Type the operation does not take (see its request body); `Accept-Post` names them on a POST. Sent before authentication.", headers: ["Accept-Post"] },
  422: {
    name: "UnprocessableContent",
    description: "Valid input that a business rule forbids (see the operation's description); on a POST, also an Idempotency-Key used in the last 24 hours for a different request.",
  },
  429: { name: "TooManyRequests", description: "Over the key's rate limit (per client address without a valid key); nothing ran. Retry after `Retry-After` seconds.", headers: ["Retry-After"] },
  500: { name: "InternalError", description: "A fault of ours; the body never carries internals (the log has them under `requestId`)." },
  503: { name: "Unavailable", description: "The database cannot be reached; nothing ran. Retry after `Retry-After` seconds.", headers: ["Retry-After"] },
  507: {
    name: "InsufficientStorage",
    description: "Out of disk space: the embedded database refuses every write while free space in DATA_DIR is below DISK_FREE_MIN_MB (before authentication); a PostgreSQL server's disk-full error rolls the change back. Reads go on.",
  },
};

const seconds = (description: string, required = false) => ({ description, ...(required ? { required } : {}), schema: { type: "integer", minimum: 0 } });
const HEADERS: Record<string, { description: string; required?: boolean; schema: object }> = {
  "Retry-After": seconds("Seconds to wait before retrying", true),
  "Retry-After.optional": seconds("Seconds to wait before retrying, when waiting will help"),
  "RateLimit-Limit": seconds("Requests the bucket holds when full (the burst); sent on every answer once the key is known, while the rate limit is on"),
  "RateLimit-Remaining": seconds("Requests left in the bucket"),
  "RateLimit-Reset": seconds("Seconds until the bucket is full again"),
  "WWW-Authenticate": { description: 'The scheme to use: `Bearer realm="portfolio-service"`, with `error="invalid_token"` when a key was given but is not valid', required: true, schema: { type: "string" } },
  Allow: { description: "The methods this path takes, comma-separated", required: true, schema: { type: "string" } },
  "Accept-Post": { description: "On a POST: the media types the operation takes, comma-separated", schema: { type: "string" } },
  "X-Total-Count": { description: "How many rows the list has in all, whatever `limit` and `offset` asked for", required: true, schema: { type: "integer", minimum: 0 } },
  Link: { description: "RFC 8288 links to the `first`, `prev`, `next` and `last` pages, relative to the request (only `offset` and `limit` change)", required: true, schema: { type: "string" } },
  "Idempotent-Replayed": { description: "`true` on the kept answer to a retry with the same Idempotency-Key (nothing ran again)", schema: { type: "string", enum: ["true"] } },
};
/** A header's name on the wire (the components key may say more, as "Retry-After.optional"). */
const wireName = (key: string) => key.replace(/\.optional$/, "");

/** Sample cells for the example row of a CSV body, by column name. */
const CSV_SAMPLES: Record<string, string> = {
  date: "2024-06-28",
  type: "Buy",
  symbol: "CBA",
  exchange: "ASX",
  quantity: "100",
  price: "120.50",
  close: "120.50",
  brokerage: "9.95",
  currency: "AUD",
  base: "USD",
  quote: "AUD",
  rate: "1.5",
};

/**
 * Operations whose handler answers another success status than `status` (WithStatus), which the
 * Endpoint cannot declare: create-or-update, and a dry run that writes nothing.
 */
const OTHER_SUCCESS: Record<string, { status: number; description: string }> = {
  saveAllocationModel: { status: 200, description: "Updated (the body named an existing model's publicId)" },
  importTrades: { status: 200, description: "Nothing was created: a dry run (`dryRun=true`) whose every check passed, or a file whose every row was a skipped duplicate" },
};

const ref = (kind: "schemas" | "responses" | "headers" | "parameters", name: string) => ({ $ref: `#/components/${kind}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}` });
const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [wireName(name), ref("headers", name)]));

/**
 * Every error status `e` can answer (see the README's error table):
 * - 400, 401, 429, 500 and 503 anywhere: every route checks the text of its path, query and body,
 *   needs a key, spends from a rate-limit bucket and reads the database;
 * - on writes, 403 (a Read client key), 409 (a concurrent change collided; Idempotency-Key still
 *   running) and 507 (out of disk), and on POST 422 (an Idempotency-Key reused);
 * - 404 with a path id, or a body naming another resource by id;
 * - 413 and 415 with a body; and what the route lists in `errors`.
 */
export function errorStatuses(e: Endpoint, opts: { hasBody: boolean; namesIds: boolean }): number[] {
  const write = e.method !== "get";
  const statuses = new Set<number>([
    400,
    401,
    ...(write ? [403, 409, 507] : []),
    ...(e.method === "post" ? [422] : []),
    ...(/:\w+/.test(e.path) || opts.namesIds ? [404] : []),
    ...(opts.hasBody ? [413, 415] : []),
    ...(e.errors ?? []),
    429,
    500,
    503,
  ]);
  return [...statuses].sort((a, b) => a - b);
}

function csvBody(csv: NonNullable<Endpoint["csv"]>) {
  const columns = csv.columns.map((c) => (csv.required.includes(c) ? `\`${c}\` (required)` : `\`${c}\``)).join(", ");
  return {
    schema: {
      type: "string",
      description: `CSV, UTF-8. The first line is the header naming the columns, in any order: ${columns}. One row per line after it; errors name a cell as \`line N.column\` (the header is line 1). An empty cell is an absent value.`,
    },
    example: [csv.columns.join(","), csv.columns.map((c) => CSV_SAMPLES[c] ?? "").join(",")].join("\n") + "\n",
  };
}

/** A property anywhere in a body schema that names another resource by id (404 when it does not exist). */
function namesIds(schema: unknown, components: Record<string, unknown>, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return false;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") return namesIds(components[s.$ref.replace("#/components/schemas/", "")], components, seen);
  // sourceId names a seeded source: an unknown one is a 400, not a missing resource.
  if (s.properties && Object.keys(s.properties).some((k) => /Ids?$/.test(k) && k !== "sourceId")) return true;
  return Object.values(s).some((v) => (Array.isArray(v) ? v.some((x) => namesIds(x, components, seen)) : namesIds(v, components, seen)));
}

/** A query value is text, never JSON null: drop the `null` branches zod emits for nullish fields. */
function withoutNull(schema: Record<string, unknown>): Record<string, unknown> {
  const { anyOf, ...rest } = schema;
  if (!Array.isArray(anyOf)) return schema;
  const branches = (anyOf as Record<string, unknown>[]).filter((b) => b.type !== "null").map(withoutNull);
  if (branches.length !== 1) return { ...rest, anyOf: branches };
  // One branch left: it is the schema (its own keywords win over the wrapper's type, if any).
  return { ...rest, ...branches[0] };
}

export function buildOpenApi(endpoints: Endpoint[], info: { version: string }) {
  const schemas: Record<string, unknown> = {};
  const toSchema = (schema: z.ZodType, io: "input" | "output") => {
    const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" });
    const { $defs, $schema: _dialect, ...rest } = JSON.parse(
      JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'),
    ) as Record<string, unknown> & { $defs?: Record<string, unknown> };
    Object.assign(schemas, $defs ?? {});
    return rest;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const path = "/v1" + e.path.replace(/:(\w+)/g, "{$1}");
    const params: object[] = [...e.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: e.stringParams?.includes(m[1]) ? { type: "string", minLength: 1 } : { type: "integer", minimum: 1, maximum: 2147483647 },
    }));
    const queryParams = e.query
      ? Object.entries(e.query.shape).map(([name, s]) => {
          const { description, ...schema } = withoutNull(toSchema(s as z.ZodType, "input")) as { description?: string };
          return { name, in: "query", required: !(s as z.ZodType).safeParse(undefined).success, ...(description ? { description } : {}), schema };
        })
      : [];

    const content: Record<string, unknown> = {};
    if (e.upload) {
      content["multipart/form-data"] = { schema: { type: "object", required: ["file"], properties: { file: { type: "string", contentMediaType: "application/octet-stream" } } } };
    } else if (e.body) {
      content["application/json"] = { schema: toSchema(e.body, "input") };
      if (e.csv) content["text/csv"] = csvBody(e.csv);
    }
    const hasBody = Object.keys(content).length > 0;

    const status = e.status ?? 200;
    const success = (code: number, description: string): Record<string, unknown> => {
      const headers: Record<string, unknown> = headerRefs(RATE_LIMIT_HEADERS);
      if (code === 201 && e.location) {
        headers.Location = { description: "Where the new resource is, under the prefix the request used (/v1 or /api/v1)", required: true, schema: { type: "string", format: "uri-reference" } };
      }
      if (e.paged) Object.assign(headers, headerRefs(["X-Total-Count", "Link"]));
      if (e.method === "post") Object.assign(headers, headerRefs(["Idempotent-Replayed"]));
      if (code === 204) return { description: "Done; no body", headers };
      if (e.fileResponse) {
        headers["Content-Disposition"] = { description: 'attachment; filename="…"', required: true, schema: { type: "string" } };
        return { description, headers, content: Object.fromEntries(e.fileResponse.types.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])) };
      }
      return { description, headers, content: { "application/json": { schema: e.response ? toSchema(e.response, "output") : {} } } };
    };
    const responses: Record<string, unknown> = {
      [status]: success(status, e.fileResponse ? "The file, with the content type it was uploaded as" : status === 201 ? "Created" : "Success"),
    };
    const other = OTHER_SUCCESS[e.operationId];
    if (other) responses[other.status] = success(other.status, other.description);
    const jsonBody = content["application/json"] as { schema: unknown } | undefined;
    for (const code of errorStatuses(e, { hasBody, namesIds: namesIds(jsonBody?.schema, schemas) })) {
      responses[code] = PROBLEM_RESPONSES[code] ? ref("responses", PROBLEM_RESPONSES[code].name) : { description: "Error", content: { [PROBLEM_JSON]: { schema: ref("schemas", "Problem") } } };
    }

    const headerParams = e.method === "post" ? [ref("parameters", "IdempotencyKey")] : [];
    paths[path] ??= {};
    paths[path][e.method] = {
      operationId: e.operationId,
      tags: [e.tag],
      summary: e.summary,
      ...(e.description ? { description: e.description } : {}),
      ...(params.length + queryParams.length + headerParams.length ? { parameters: [...params, ...queryParams, ...headerParams] } : {}),
      ...(hasBody ? { requestBody: { required: true, content } } : {}),
      responses,
    };
  }

  schemas.Problem = {
    type: "object",
    description: "RFC 9457 problem details",
    required: ["type", "title", "status", "detail", "code"],
    properties: {
      type: { type: "string", format: "uri", description: "Names the code: https://portfolio-service.dev/problems/<code in kebab case>" },
      title: { type: "string" },
      status: { type: "integer", description: "The HTTP status" },
      detail: { type: "string" },
      code: { type: "string", enum: Object.keys(ERROR_CODES), description: "Stable error code (README: Errors)" },
      errors: {
        type: "array",
        description: "Each bad input field",
        items: {
          type: "object",
          required: ["path", "message"],
          properties: {
            path: { type: "string", description: "Dotted with indexes, e.g. `buckets[2].targetPct`; `(body)` for the whole body; `line N` or `line N.column` in CSV" },
            message: { type: "string" },
            line: { type: "integer", minimum: 1, description: "Bulk bodies: the offending row's line (CSV: the header is line 1; JSON: the array position + 1)" },
          },
          additionalProperties: false,
        },
      },
      requestId: { type: "string", description: "The request's id, also in the `x-request-id` header" },
    },
    additionalProperties: false,
  };

  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(PROBLEM_RESPONSES)) {
    const codes = Object.entries(ERROR_CODES)
      .filter(([, c]) => c.status === Number(status))
      .map(([code]) => code);
    // 405, 415 and 507 (embedded database) are refused before authentication: no bucket is known.
    const rateLimited = ![405, 415].includes(Number(status));
    responses[r.name] = {
      description: r.description,
      headers: headerRefs([...(r.headers ?? []), ...(rateLimited ? RATE_LIMIT_HEADERS : [])]),
      content: {
        [PROBLEM_JSON]: {
          schema: {
            type: "object",
            allOf: [ref("schemas", "Problem")],
            properties: { status: { const: Number(status) }, ...(codes.length ? { code: { enum: codes } } : {}) },
          },
        },
      },
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Portfolio service",
      version: info.version,
      description:
        "Portfolios, holdings, trades, income and cash; valuations, performance, Australian tax reports and allocation models. The same operations are served over GraphQL at /graphql.\n\n" +
        "Every error is `application/problem+json` (schema `Problem`), and each operation lists every status it can answer. A method a path does not take answers 405 with `Allow` (response `MethodNotAllowed`); OPTIONS answers 204 with `Allow`; HEAD is answered wherever GET is; an unknown path answers 404. Every answer carries `x-request-id` (a given `X-Request-Id` of 1 to 100 letters, digits, `_`, `.` or `-` is kept).",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { bearer: [] }, { xApiKey: [] }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses,
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "1 to 255 printable ASCII characters, bare or as a quoted string. A retry with the same key and the same request (same account, within 24 hours) gets the first answer again with `Idempotent-Replayed: true`, and nothing runs again; the same key on a different request answers 422.",
          schema: { type: "string", minLength: 1, maxLength: 512 },
        },
      },
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "Authorization", description: "Authorization: <API_KEY>" },
        bearer: { type: "http", scheme: "bearer" },
        xApiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
    },
  };
}
