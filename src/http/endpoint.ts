import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { Context } from "../context";
import type { CsvView } from "../lib/csv-out";
import { stringify } from "../lib/json";
import { attachmentDisposition } from "./content-disposition";
import type { Page } from "../lib/page";
import { invalidInput, unstorableText } from "../lib/validation";

/**
 * A REST operation: documentation (for /v1/openapi.json) and a handler that unpacks the request
 * and calls one service function. Handlers never decide business outcomes; validation happens in
 * the service so GraphQL rejects the same input the same way.
 */
export interface Endpoint {
  method: "get" | "post" | "put" | "delete";
  /** Express path under /v1, e.g. `/portfolios/:portfolioId`. */
  path: string;
  /** The service function's name: one word from GraphQL field to route (docs/conventions.md §9.1). */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters that are strings; every other `:param` is an integer id. */
  stringParams?: string[];
  query?: z.ZodObject;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Success status; 204 sends no body. */
  status?: 200 | 201 | 202 | 204;
  /**
   * Where a created resource lives, relative to the API root (`/portfolios/12`): sent as
   * `Location` (under the prefix the request used, /v1 or /api/v1) on every 201 answer.
   */
  location?: (created: Record<string, unknown>, params: Record<string, string>) => string;
  /**
   * The handler returns a page `{items, total, limit, offset}`: the body is the bare array
   * (docs/conventions.md §6) and the headers say what is left: `X-Total-Count` and an RFC 8288 `Link`.
   */
  paged?: boolean;
  /**
   * Statuses the operation answers besides those every operation of its kind does (errorStatuses
   * in openapi.ts: 403 on writes; 409 and 507 on every method but GET; 422 on POST; 404 with an
   * id in the path; 413 and 415 with a body; 400, 401, 429, 500 and 503 everywhere).
   */
  errors?: number[];
  /**
   * A POST that computes from what is stored and writes nothing (computeRebalance): a Read client
   * key may call it. It still answers 409 (an Idempotency-Key in use) and 507 (low disk) as POSTs do.
   */
  readsOnly?: true;
  /** Request parsing the route needs before the handler (multipart uploads). */
  middleware?: RequestHandler[];
  /** The body may also be `text/csv` with these columns in its header row (bulk endpoints). */
  csv?: { columns: string[]; required: string[] };
  /** The body may also be an .xlsx workbook (a broker's export), handed to the handler as a Buffer. */
  workbook?: { description: string };
  /** Documents a multipart/form-data body with one `file` field. */
  upload?: boolean;
  /** The success answer holds a secret (a new API key): an Idempotency-Key never stores it. */
  secretAnswer?: boolean;
  /** Documents a binary answer of one of these content types (the handler returns a FileResponse). */
  fileResponse?: { types: readonly string[]; description?: string };
  /**
   * The answer may also be CSV (`Accept: text/csv` or `?format=csv`), for a spreadsheet: the
   * handler's result drawn as CSV (lib/csv-out.ts), sent as an attachment named `fileName`.
   */
  csvAnswer?: CsvView;
  handler: (ctx: Context, req: Request) => Promise<unknown>;
}

/** Whether an operation writes (every method but GET, unless it is marked readsOnly). */
export const isWrite = (e: Pick<Endpoint, "method" | "readsOnly">): boolean => e.method !== "get" && !e.readsOnly;

/** A handler's answer when its status depends on the outcome (create-or-update: 201 or 200). */
export class WithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A file answer: its bytes with their content type. */
export class FileResponse {
  constructor(
    readonly contentType: string,
    readonly fileName: string,
    readonly data: Uint8Array,
    /** Headers that say more of the file (what an export left out). */
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A JSON answer, written straight to the response: Express's res.send would look up the type,
 * test freshness and consider an ETag (off) on every answer, for the same headers.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = stringify(body);
  // A conditional request is answered as res.send answers it: `If-None-Match: *` on a GET is fresh
  // (304) though the service sends no ETag.
  const { headers } = res.req;
  if (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined)
    return void res.status(status).type("application/json").send(text);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/**
 * Text no column can store (NUL, unpaired surrogates) is refused for every route at once, in the
 * path, the query and the body (JSON or CSV), before any handler can hand it to the database.
 * Services refuse it again in parseInput, which is where GraphQL arguments meet it.
 */
function assertStorableText(req: Request): void {
  const errors = [...unstorableText(req.params), ...unstorableText(req.query), ...unstorableText(req.body)].slice(
    0,
    20,
  );
  if (errors.length > 0) throw invalidInput("The request", errors);
}

/** A page of a longer list, as a service returns it (`paged` endpoints). */
type PageResult = Page<unknown>;

/**
 * RFC 8288 links to the first, previous, next and last pages, as references relative to the
 * request's own path and query (only `offset` and `limit` change), so they hold behind any proxy.
 * Pages step by `limit` from the request's offset; "last" is the last such step that has rows.
 */
export function pageLinks(originalUrl: string, page: Pick<PageResult, "total" | "limit" | "offset">): string {
  const { total, limit, offset } = page;
  const url = new URL(originalUrl, "http://x");
  const at = (o: number) => {
    url.searchParams.set("offset", String(o));
    url.searchParams.set("limit", String(limit));
    return `${url.pathname}?${url.searchParams}`;
  };
  const last =
    total === 0
      ? 0
      : offset < total
        ? offset + Math.floor((total - 1 - offset) / limit) * limit
        : Math.floor((total - 1) / limit) * limit;
  const links: [string, number][] = [["first", 0]];
  if (offset > 0) links.push(["prev", Math.max(0, Math.min(offset - limit, last))]);
  if (offset + limit < total) links.push(["next", offset + limit]);
  links.push(["last", last]);
  return links.map(([rel, o]) => `<${at(o)}>; rel="${rel}"`).join(", ");
}

function isPage(value: unknown): value is PageResult {
  return (
    !!value &&
    typeof value === "object" &&
    Array.isArray((value as PageResult).items) &&
    Number.isInteger((value as PageResult).total)
  );
}

/**
 * Whether the caller asked a CSV answer: `?format=csv` (taken off the query the handler sees), or
 * an Accept header that prefers text/csv to JSON. `format` is csv or json, or a 400.
 */
function wantsCsv(req: Request): boolean {
  const { format, ...rest } = req.query as Record<string, unknown>;
  if (format !== undefined) {
    if (format !== "csv" && format !== "json")
      throw invalidInput("The query", [{ path: "format", message: "must be csv or json" }]);
    Object.defineProperty(req, "query", { value: rest, configurable: true });
    return format === "csv";
  }
  return req.accepts(["application/json", "text/csv"]) === "text/csv";
}

export function endpoint(spec: Endpoint) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      assertStorableText(req);
      if (spec.secretAnswer) res.locals.secretAnswer = true;
      const csv = spec.csvAnswer && wantsCsv(req);
      let result = await spec.handler(req.ctx!, req);
      if (spec.paged) {
        if (!isPage(result)) throw new Error(`${spec.operationId} is paged but its handler returned no page`);
        res.setHeader("X-Total-Count", String(result.total));
        res.setHeader("Link", pageLinks(req.originalUrl, result));
        result = result.items;
      }
      if (csv) {
        res.status(200).type("text/csv; charset=utf-8");
        res.setHeader("Content-Disposition", attachmentDisposition(spec.csvAnswer!.fileName));
        return void res.send(spec.csvAnswer!.render(result));
      }
      const created = result instanceof WithStatus ? result.status === 201 : spec.status === 201;
      const body = result instanceof WithStatus ? result.body : result;
      if (created && spec.location && body && typeof body === "object")
        res.setHeader(
          "Location",
          req.baseUrl + spec.location(body as Record<string, unknown>, req.params as Record<string, string>),
        );
      if (result instanceof WithStatus) return sendJson(res, result.status, result.body);
      if (result instanceof FileResponse) {
        res.status(200).type(result.contentType);
        res.setHeader("Content-Disposition", attachmentDisposition(result.fileName));
        for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
        return void res.end(Buffer.from(result.data));
      }
      if (spec.status === 204) return void res.status(204).end();
      sendJson(res, spec.status ?? 200, result);
    } catch (error) {
      next(error);
    }
  };
}
