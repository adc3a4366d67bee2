import { z } from "zod";
import { ERROR_CODES } from "../lib/errors";
import type { Endpoint } from "./endpoint";

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests (OpenAPI 3.1 schemas are
 * JSON Schema 2020-12, which zod emits natively). Schemas with a `.meta({ id })` become shared
 * components.
 */
const STATUS_TEXT: Record<number, string> = {
  400: "Invalid input: problem+json listing each bad path in `errors`",
  401: "Missing or unknown API key",
  403: "The key may not do this",
  404: "No such resource in this account",
  409: "Conflicts with an existing record",
  413: "Body too large",
  422: "A business rule forbids it",
  429: "Rate limit exceeded; see Retry-After",
};

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
    const params = [...e.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: e.stringParams?.includes(m[1]) ? { type: "string" } : { type: "integer", minimum: 1 },
    }));
    const queryParams = e.query
      ? Object.entries(e.query.shape).map(([name, s]) => ({
          name,
          in: "query",
          required: !(s as z.ZodType).safeParse(undefined).success,
          schema: toSchema(s as z.ZodType, "input"),
        }))
      : [];
    const status = e.status ?? 200;
    const responses: Record<string, unknown> = {
      [status]:
        status === 204
          ? { description: "Done; no body" }
          : e.fileResponse
            ? { description: "The file, with its content type", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }
          : { description: "Success", content: { "application/json": { schema: e.response ? toSchema(e.response, "output") : {} } } },
    };
    if (e.operationId === "saveAllocationModel") {
      responses["200"] = { description: "Updated", content: { "application/json": { schema: toSchema(e.response!, "output") } } };
    }
    for (const code of [...(e.body || params.length ? [400] : []), 401, ...(params.length ? [404] : []), ...(e.errors ?? []), 429]) {
      responses[code] = { description: STATUS_TEXT[code], content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
    }
    paths[path] ??= {};
    paths[path][e.method] = {
      operationId: e.operationId,
      tags: [e.tag],
      summary: e.summary,
      description: e.description,
      parameters: [...params, ...queryParams],
      requestBody: e.upload
        ? { required: true, content: { "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } } } } }
        : e.body
          ? { required: true, content: { "application/json": { schema: toSchema(e.body, "input") } } }
          : undefined,
      responses,
    };
  }

  schemas.Problem = {
    type: "object",
    description: "RFC 9457 problem details",
    required: ["type", "title", "status", "detail", "code"],
    properties: {
      type: { type: "string", format: "uri" },
      title: { type: "string" },
      status: { type: "integer" },
      detail: { type: "string" },
      code: { type: "string", enum: Object.keys(ERROR_CODES) },
      errors: {
        type: "array",
        items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
      },
      requestId: { type: "string" },
    },
  };

  return {
    openapi: "3.1.0",
    info: {
      title: "Portfolio service",
      version: info.version,
      description:
        "Portfolios, holdings, trades, income and cash; valuations, performance, Australian tax reports and allocation models. The same operations are served over GraphQL at /graphql.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { bearer: [] }, { xApiKey: [] }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "Authorization", description: "Authorization: <API_KEY>" },
        bearer: { type: "http", scheme: "bearer" },
        xApiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
    },
  };
}
