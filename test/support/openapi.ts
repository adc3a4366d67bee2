import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

/**
 * Checking answers against the served OpenAPI document: its statuses, content types, headers and
 * JSON Schemas (2020-12, compiled with ajv in strict mode), plus a structural check of the
 * document itself, for test/api/openapi-contract.test.ts.
 */
type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Json>>;
  components: {
    schemas: Record<string, Json>;
    responses?: Record<string, Json>;
    headers?: Record<string, Json>;
    parameters?: Record<string, Json>;
    securitySchemes?: Record<string, Json>;
  };
  [key: string]: unknown;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/** Headers the contract speaks of: present on an answer, they must be documented on it. */
const CONTRACT_HEADERS = /^(location|x-total-count|link|retry-after|allow|ratelimit(-.*)?|content-disposition)$/i;
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Absolute base the document's `#/components/schemas/...` references are compiled under. */
const BASE = "https://portfolio-service.dev/openapi.json";

const mediaType = (contentType: string | undefined) => contentType?.split(";")[0].trim().toLowerCase();
const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

export class OpenApiContract {
  readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    // strict: an unknown keyword or format in any schema is an error, not an annotation.
    this.ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: BASE, $defs: this.absolute(doc.components.schemas) });
  }

  /** The schema with its component references made absolute, so it compiles on its own. */
  private absolute<T>(schema: T): T {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}#/$defs/`)) as T;
  }

  validator(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(this.absolute(schema as Json));
      this.compiled.set(key, v);
    }
    return v;
  }

  /** Follows a `#/components/...` reference (one level at a time, until an object without one). */
  resolve<T = Json>(value: unknown): T {
    let v = value as Json;
    for (let i = 0; i < 10 && typeof v?.$ref === "string"; i++) {
      const ref = v.$ref as string;
      if (!ref.startsWith("#/")) throw new Error(`external reference ${ref}`);
      v = ref
        .slice(2)
        .split("/")
        .reduce<unknown>(
          (node, part) => (node as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")],
          this.doc,
        ) as Json;
      if (v === undefined) throw new Error(`unresolved reference ${ref}`);
    }
    return v as T;
  }

  /** The document's operation for an Express route (`/portfolios/:portfolioId`) under /v1. */
  operation(method: string, expressPath: string): Json | undefined {
    return this.doc.paths["/v1" + expressPath.replace(/:(\w+)/g, "{$1}")]?.[method];
  }

  /** Query parameters a URL sends that the operation does not document, or required ones it leaves out. */
  queryViolations(op: Json, url: string): string[] {
    const params = ((op.parameters ?? []) as unknown[])
      .map((p) => this.resolve<{ name: string; in: string; required?: boolean; schema?: Json }>(p))
      .filter((p) => p.in === "query");
    const sent = new URL(url, "http://x").searchParams;
    const out: string[] = [];
    for (const name of new Set(sent.keys())) {
      const p = params.find((x) => x.name === name);
      if (!p) out.push(`query parameter ${name} is not documented`);
      else if (p.schema) {
        const raw = sent.get(name)!;
        // A query value is text; a documented number or boolean is its JSON reading.
        const value =
          /^(-?\d+(\.\d+)?|true|false)$/.test(raw) &&
          JSON.stringify(p.schema).match(/"type":"(integer|number|boolean)"/)
            ? JSON.parse(raw)
            : raw;
        const v = this.validator(p.schema);
        if (!v(value))
          out.push(
            `query parameter ${name}=${raw} does not match its documented schema: ${this.ajv.errorsText(v.errors)}`,
          );
      }
    }
    for (const p of params)
      if (p.required && !sent.has(p.name)) out.push(`required query parameter ${p.name} is not sent`);
    return out;
  }

  /** How a request's body disagrees with the operation's documented request body. */
  requestViolations(op: Json, contentType: string | undefined, body: unknown): string[] {
    const requestBody = op.requestBody
      ? this.resolve<{ content: Record<string, { schema?: unknown }> }>(op.requestBody)
      : undefined;
    const type = mediaType(contentType);
    if (!type) return requestBody ? ["sends no body though one is documented"] : [];
    if (!requestBody) return [`sends a ${type} body, but the operation documents none`];
    const media = requestBody.content[type];
    if (!media)
      return [
        `request content type ${type} is not documented (documented: ${Object.keys(requestBody.content).join(", ")})`,
      ];
    if (isJson(type) && media.schema) {
      const v = this.validator(media.schema);
      if (!v(typeof body === "string" ? JSON.parse(body) : body))
        return [`request body does not match its documented schema: ${this.ajv.errorsText(v.errors)}`];
    }
    return [];
  }

  /** How an answer disagrees with the document: status, content type, body schema, headers. */
  responseViolations(op: Json, answer: Answer): string[] {
    const responses = op.responses as Record<string, unknown>;
    const documented = responses[String(answer.status)];
    if (!documented)
      return [
        `status ${answer.status} is not documented (documented: ${Object.keys(responses).join(", ")}); body ${JSON.stringify(answer.body)?.slice(0, 300)}`,
      ];
    const response = this.resolve<{
      content?: Record<string, { schema?: unknown }>;
      headers?: Record<string, unknown>;
    }>(documented);
    const out: string[] = [];
    const header = (name: string) => {
      const v = answer.headers[name.toLowerCase()];
      return Array.isArray(v) ? v.join(", ") : v;
    };

    const type = mediaType(header("content-type"));
    if (!response.content) {
      if (type || (answer.text ?? "") !== "")
        out.push(
          `${answer.status} is documented without a body, but the answer has one (${type ?? "no content type"})`,
        );
    } else if (!type || !response.content[type]) {
      out.push(
        `content type ${type ?? "(none)"} is not documented for ${answer.status} (documented: ${Object.keys(response.content).join(", ")})`,
      );
    } else if (isJson(type)) {
      const schema = response.content[type].schema;
      if (schema) {
        const v = this.validator(schema);
        if (!v(answer.body))
          out.push(
            `${answer.status} body does not match its documented schema: ${this.ajv.errorsText(v.errors)}; body ${JSON.stringify(answer.body).slice(0, 300)}`,
          );
      }
    }

    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, h]) => [
        name.toLowerCase(),
        this.resolve<{ required?: boolean; schema?: Json }>(h),
      ]),
    );
    for (const [name, h] of Object.entries(headers)) {
      const value = header(name);
      if (value === undefined) {
        if (h.required) out.push(`header ${name} is documented as required on ${answer.status} but absent`);
        continue;
      }
      if (h.schema) {
        const typed = h.schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
        const v = this.validator(h.schema);
        if (!v(typed))
          out.push(
            `header ${name}: ${JSON.stringify(value)} does not match its documented schema: ${this.ajv.errorsText(v.errors)}`,
          );
      }
    }
    for (const name of Object.keys(answer.headers)) {
      if (CONTRACT_HEADERS.test(name) && !headers[name.toLowerCase()])
        out.push(`header ${name} is sent on ${answer.status} but not documented there`);
    }
    return out;
  }

  /** Every schema in the document: components, parameters, headers and media types. */
  *schemas(): Generator<[string, unknown]> {
    for (const [name, s] of Object.entries(this.doc.components.schemas)) yield [`components.schemas.${name}`, s];
    function* walk(node: unknown, at: string): Generator<[string, unknown]> {
      if (!node || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        if (k === "schema") yield [`${at}.schema`, v];
        else if (k !== "schemas") yield* walk(v, `${at}.${k}`);
      }
    }
    yield* walk(this.doc.paths, "paths");
    yield* walk(
      {
        responses: this.doc.components.responses,
        headers: this.doc.components.headers,
        parameters: this.doc.components.parameters,
      },
      "components",
    );
  }
}

/** The fields each OpenAPI 3.1 object may have (its schema's `unevaluatedProperties: false`); `x-` extensions aside. */
const FIELDS: Record<string, string[]> = {
  document: [
    "openapi",
    "info",
    "jsonSchemaDialect",
    "servers",
    "paths",
    "webhooks",
    "components",
    "security",
    "tags",
    "externalDocs",
  ],
  components: [
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
  ],
  operation: [
    "tags",
    "summary",
    "description",
    "externalDocs",
    "operationId",
    "parameters",
    "requestBody",
    "responses",
    "callbacks",
    "deprecated",
    "security",
    "servers",
  ],
  parameter: [
    "name",
    "in",
    "description",
    "required",
    "deprecated",
    "allowEmptyValue",
    "schema",
    "content",
    "style",
    "explode",
    "allowReserved",
    "example",
    "examples",
  ],
  requestBody: ["description", "content", "required"],
  mediaType: ["schema", "encoding", "example", "examples"],
  response: ["description", "headers", "content", "links"],
  header: [
    "description",
    "required",
    "deprecated",
    "allowEmptyValue",
    "schema",
    "content",
    "style",
    "explode",
    "allowReserved",
    "example",
    "examples",
  ],
  reference: ["$ref", "summary", "description"],
};

/**
 * The OpenAPI 3.1 rules a generator can break, checked by hand after the specification's own
 * schema (schemas/v3.1/schema.json): no field an object may not have, component names of
 * `[a-zA-Z0-9._-]`, media-range content keys, status-code response keys, unique operationIds,
 * path templates matching their path parameters, and every `$ref` resolving.
 */
export function structuralProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const contract = new OpenApiContract(doc);
  if (!/^3\.1\.\d+$/.test(doc.openapi)) problems.push(`openapi is ${doc.openapi}, not 3.1.x`);
  if (!doc.info?.title || !doc.info?.version) problems.push("info needs title and version");
  const refs = (node: unknown, at: string) => {
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") {
        try {
          contract.resolve({ $ref: v });
        } catch (e) {
          problems.push(`${at}: ${(e as Error).message}`);
        }
      } else refs(v, `${at}.${k}`);
    }
  };
  refs(doc, "#");

  const fields = (object: unknown, kind: string, at: string) => {
    if (!object || typeof object !== "object") return problems.push(`${at}: not an object`);
    const allowed = typeof (object as Json).$ref === "string" ? FIELDS.reference : FIELDS[kind];
    for (const k of Object.keys(object))
      if (!allowed.includes(k) && !k.startsWith("x-")) problems.push(`${at}: ${kind} has no field ${k}`);
  };
  const content = (value: unknown, at: string) => {
    for (const [type, media] of Object.entries((value ?? {}) as Json)) {
      if (!/^[\w.+*-]+\/[\w.+*-]+$/.test(type)) problems.push(`${at}: content key ${type} is not a media range`);
      fields(media, "mediaType", `${at} ${type}`);
    }
  };
  fields(doc, "document", "#");
  fields(doc.components, "components", "#/components");
  for (const [kind, entries] of Object.entries(doc.components)) {
    for (const name of Object.keys(entries ?? {}))
      if (!/^[a-zA-Z0-9._-]+$/.test(name)) problems.push(`components.${kind}: name ${name} is not [a-zA-Z0-9._-]+`);
  }
  for (const [name, r] of Object.entries(doc.components.responses ?? {})) {
    fields(r, "response", `components.responses.${name}`);
    content(r.content, `components.responses.${name}`);
  }
  for (const [name, h] of Object.entries(doc.components.headers ?? {}))
    fields(h, "header", `components.headers.${name}`);
  for (const [name, p] of Object.entries(doc.components.parameters ?? {}))
    fields(p, "parameter", `components.parameters.${name}`);

  const operationIds = new Set<string>();
  const schemes = doc.components.securitySchemes ?? {};
  for (const requirement of (doc.security ?? []) as Json[])
    for (const name of Object.keys(requirement))
      if (!schemes[name]) problems.push(`security names unknown scheme ${name}`);
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith("/")) problems.push(`path ${path} does not start with /`);
    const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (!HTTP_METHODS.includes(method)) {
        problems.push(`${at}: ${method} is not an HTTP method`);
        continue;
      }
      fields(op, "operation", at);
      for (const p of (op.parameters ?? []) as unknown[]) fields(p, "parameter", `${at} parameter`);
      if (op.requestBody) {
        fields(op.requestBody, "requestBody", `${at} requestBody`);
        content((op.requestBody as Json).content, `${at} requestBody`);
      }
      for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
        fields(r, "response", `${at} ${status}`);
        content((r as Json).content, `${at} ${status}`);
        for (const [name, h] of Object.entries(((r as Json).headers ?? {}) as Json))
          fields(h, "header", `${at} ${status} header ${name}`);
      }
      const id = op.operationId as string | undefined;
      if (!id) problems.push(`${at}: no operationId`);
      else if (operationIds.has(id)) problems.push(`${at}: operationId ${id} is used twice`);
      else operationIds.add(id);

      const params = ((op.parameters ?? []) as unknown[]).map((p) =>
        contract.resolve<{ name: string; in: string; required?: boolean; schema?: unknown; content?: unknown }>(p),
      );
      const seen = new Set<string>();
      for (const p of params) {
        if (!p.name || !["path", "query", "header", "cookie"].includes(p.in))
          problems.push(`${at}: parameter ${JSON.stringify(p)} needs a name and a valid "in"`);
        if (seen.has(`${p.in}:${p.name}`)) problems.push(`${at}: parameter ${p.in} ${p.name} listed twice`);
        seen.add(`${p.in}:${p.name}`);
        if (!p.schema === !p.content)
          problems.push(`${at}: parameter ${p.name} needs exactly one of schema and content`);
        if (p.in === "path" && (p.required !== true || !templated.includes(p.name)))
          problems.push(`${at}: path parameter ${p.name} must be required and in the template`);
        if (p.in === "header" && ["accept", "content-type", "authorization"].includes(p.name.toLowerCase()))
          problems.push(`${at}: header parameter ${p.name} is ignored by OpenAPI`);
      }
      for (const name of templated)
        if (!params.some((p) => p.in === "path" && p.name === name))
          problems.push(`${at}: {${name}} has no path parameter`);

      if (op.requestBody) {
        const body = contract.resolve<{ content?: Json }>(op.requestBody);
        if (!body.content || Object.keys(body.content).length === 0)
          problems.push(`${at}: requestBody without content`);
      }
      const responses = (op.responses ?? {}) as Json;
      if (Object.keys(responses).length === 0) problems.push(`${at}: no responses`);
      for (const [status, r] of Object.entries(responses)) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${at}: response key ${status}`);
        const response = contract.resolve<{ description?: unknown; headers?: Json; content?: Json }>(r);
        if (typeof response.description !== "string") problems.push(`${at} ${status}: response needs a description`);
        for (const [name, h] of Object.entries(response.headers ?? {})) {
          const header = contract.resolve<Json>(h);
          if ("name" in header || "in" in header)
            problems.push(`${at} ${status}: header ${name} must not have name or in`);
          if (name.toLowerCase() === "content-type")
            problems.push(`${at} ${status}: a Content-Type header is ignored by OpenAPI`);
          if (!header.schema === !header.content)
            problems.push(`${at} ${status}: header ${name} needs exactly one of schema and content`);
        }
      }
    }
  }
  return problems;
}
