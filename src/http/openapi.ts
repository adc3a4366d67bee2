import { z } from "zod";
import {
  headerRefs,
  PROBLEM_JSON,
  PROBLEM_RESPONSES,
  PROBLEM_SCHEMA,
  problemResponses,
  RATE_LIMIT_HEADERS,
  ref,
  HEADERS,
} from "./openapi-components";
import { isWrite, type Endpoint } from "./endpoint";
import { CSV_FORMAT_PARAMETER, csvAnswerContent, csvBody } from "./openapi-csv";
import { XLSX_MEDIA_TYPE } from "./router";
import { license, TAG_DESCRIPTIONS } from "./openapi-info";

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests (OpenAPI 3.1 schemas are
 * JSON Schema 2020-12, which zod emits natively). Schemas with a `.meta({ id })` become shared
 * components. test/api/openapi-contract.test.ts drives every operation and checks each answer
 * against this document, so what it says about statuses, bodies and headers must stay true.
 */

/**
 * Operations whose handler answers another success status than `status` (WithStatus), which the
 * Endpoint cannot declare: create-or-update, and a dry run that writes nothing.
 */
const OTHER_SUCCESS: Record<string, { status: number; description: string }> = {
  saveAllocationModel: { status: 200, description: "Updated (the body named an existing model's publicId)" },
  importTrades: {
    status: 200,
    description:
      "Nothing was created: a dry run (`dryRun=true`) whose every check passed, or a file whose every row was a skipped duplicate",
  },
  importIncome: { status: 200, description: "Nothing was created: a dry run (`dryRun=true`) whose every check passed" },
};

/**
 * Every error status `e` can answer (docs/conventions.md §5):
 * - 400, 401, 429, 500 and 503 anywhere: every route checks the text of its path, query and body,
 *   needs a key, spends from a rate-limit bucket and reads the database;
 * - on writes, 403 (a Read client key); on every method but GET, 409 (a concurrent change
 *   collided; Idempotency-Key still running) and 507 (out of disk); on POST 422 (an
 *   Idempotency-Key reused);
 * - 404 with a path id, or a body naming another resource by id;
 * - 413 and 415 with a body; and what the route lists in `errors`.
 */
export function errorStatuses(e: Endpoint, opts: { hasBody: boolean; namesIds: boolean }): number[] {
  const statuses = new Set<number>([
    400,
    401,
    ...(isWrite(e) ? [403] : []),
    ...(e.method !== "get" ? [409, 507] : []),
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

/** A property anywhere in a body schema that names another resource by id (404 when it does not exist). */
function namesIds(schema: unknown, components: Record<string, unknown>, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return false;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string")
    return namesIds(components[s.$ref.replace("#/components/schemas/", "")], components, seen);
  // sourceId names a seeded source: an unknown one is a 400, not a missing resource.
  if (s.properties && Object.keys(s.properties).some((k) => /Ids?$/.test(k) && k !== "sourceId")) return true;
  return Object.values(s).some((v) =>
    Array.isArray(v) ? v.some((x) => namesIds(x, components, seen)) : namesIds(v, components, seen),
  );
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
    const {
      $defs,
      $schema: _dialect,
      ...rest
    } = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<
      string,
      unknown
    > & { $defs?: Record<string, unknown> };
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
      schema: e.stringParams?.includes(m[1])
        ? { type: "string", minLength: 1 }
        : { type: "integer", minimum: 1, maximum: 2147483647 },
    }));
    const queryParams = e.query
      ? Object.entries(e.query.shape).map(([name, s]) => {
          const { description, ...schema } = withoutNull(toSchema(s as z.ZodType, "input")) as { description?: string };
          return {
            name,
            in: "query",
            required: !(s as z.ZodType).safeParse(undefined).success,
            ...(description ? { description } : {}),
            schema,
          };
        })
      : [];

    const content: Record<string, unknown> = {};
    if (e.upload) {
      content["multipart/form-data"] = {
        schema: {
          type: "object",
          required: ["file"],
          properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
        },
      };
    } else if (e.body) {
      content["application/json"] = { schema: toSchema(e.body, "input") };
      if (e.csv) content["text/csv"] = csvBody(e.csv);
      if (e.workbook)
        content[XLSX_MEDIA_TYPE] = {
          schema: { type: "string", contentMediaType: XLSX_MEDIA_TYPE, description: e.workbook.description },
        };
    }
    const hasBody = Object.keys(content).length > 0;

    const status = e.status ?? 200;
    const success = (code: number, description: string): Record<string, unknown> => {
      const headers: Record<string, unknown> = headerRefs(RATE_LIMIT_HEADERS);
      if (code === 201 && e.location) {
        headers.Location = {
          description: "Where the new resource is, under the prefix the request used (/v1 or /api/v1)",
          required: true,
          schema: { type: "string", format: "uri-reference" },
        };
      }
      if (e.paged) Object.assign(headers, headerRefs(["X-Total-Count", "Link"]));
      if (e.method === "post") Object.assign(headers, headerRefs(["Idempotent-Replayed"]));
      if (code === 204) return { description: "Done; no body", headers };
      if (e.fileResponse) {
        headers["Content-Disposition"] = {
          description: 'attachment; filename="…"',
          required: true,
          schema: { type: "string" },
        };
        return {
          description,
          headers,
          content: Object.fromEntries(
            e.fileResponse.types.map((type) => [type, { schema: { type: "string", contentMediaType: type } }]),
          ),
        };
      }
      return {
        description,
        headers,
        content: {
          "application/json": { schema: e.response ? toSchema(e.response, "output") : {} },
          ...(e.csvAnswer ? { "text/csv": csvAnswerContent(e.csvAnswer) } : {}),
        },
      };
    };
    const responses: Record<string, unknown> = {
      [status]: success(
        status,
        e.fileResponse
          ? (e.fileResponse.description ?? "The file, with the content type it was uploaded as")
          : status === 201
            ? "Created"
            : "Success",
      ),
    };
    const other = OTHER_SUCCESS[e.operationId];
    if (other) responses[other.status] = success(other.status, other.description);
    const jsonBody = content["application/json"] as { schema: unknown } | undefined;
    for (const code of errorStatuses(e, { hasBody, namesIds: namesIds(jsonBody?.schema, schemas) })) {
      responses[code] = PROBLEM_RESPONSES[code]
        ? ref("responses", PROBLEM_RESPONSES[code].name)
        : { description: "Error", content: { [PROBLEM_JSON]: { schema: ref("schemas", "Problem") } } };
    }

    const headerParams = e.method === "post" ? [ref("parameters", "IdempotencyKey")] : [];
    if (e.csvAnswer) queryParams.push(CSV_FORMAT_PARAMETER);
    paths[path] ??= {};
    paths[path][e.method] = {
      operationId: e.operationId,
      tags: [e.tag],
      summary: e.summary,
      ...(e.description ? { description: e.description } : {}),
      ...(params.length + queryParams.length + headerParams.length
        ? { parameters: [...params, ...queryParams, ...headerParams] }
        : {}),
      ...(hasBody ? { requestBody: { required: true, content } } : {}),
      responses,
    };
  }

  schemas.Problem = PROBLEM_SCHEMA;
  // Only the response and header components something refers to: an unused one is a lint warning.
  const refersTo = (json: unknown, kind: "responses" | "headers") => {
    const text = JSON.stringify(json);
    return ([name]: [string, unknown]) => text.includes(`"${ref(kind, name).$ref}"`);
  };
  const responses = Object.fromEntries(Object.entries(problemResponses()).filter(refersTo(paths, "responses")));
  const headers = Object.fromEntries(Object.entries(HEADERS).filter(refersTo({ paths, responses }, "headers")));

  return {
    openapi: "3.1.0",
    info: {
      title: "Portfolio service",
      version: info.version,
      description:
        "Portfolios, holdings, trades, income and cash; valuations, performance, Australian tax reports and allocation models. The same operations are served over GraphQL at /graphql.\n\n" +
        "Every error is `application/problem+json` (schema `Problem`), and each operation lists every status it can answer. A method a path does not take answers 405 `METHOD_NOT_ALLOWED` (a `Problem`) with `Allow`, before authentication; OPTIONS answers 204 with `Allow`; HEAD is answered wherever GET is; an unknown path answers 404. Every answer carries `x-request-id` (a given `X-Request-Id` of 1 to 100 letters, digits, `_`, `.` or `-` is kept).\n\n" +
        "The documentation is in the repository's `docs/` folder: `docs/conventions.md` (keys, errors and their codes, paging, Idempotency-Key, dates and decimals, limits, GraphQL), `docs/reports.md` (every report's inputs and outputs) and `docs/rules.md` (the rules behind the numbers). Descriptions below cite their sections, as `docs/rules.md §4`.",
      license: license(),
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { bearer: [] }, { xApiKey: [] }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) =>
      TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name },
    ),
    paths,
    components: {
      schemas,
      responses,
      headers,
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
