import type { NextFunction, Request, Response } from "express";
import { DomainError, ERROR_CODES } from "../lib/domain-errors";
import { errorExtensions } from "../graphql/format-error";
import { toDomainError } from "../lib/to-domain-error";
import { stringify } from "../lib/json";
import { noteProblem } from "../observability/request-state";

/**
 * The REST side of the error mapping: every error becomes application/problem+json (RFC 9457)
 * `{type, title, status, detail, code, errors?, requestId}`. 5xx details are replaced by a generic
 * text and logged with their stack, never sent.
 */
export function problem(res: Response, error: DomainError, requestId?: string): void {
  const { status, title } = ERROR_CODES[error.code];
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  noteProblem(res, error.code);
  res
    .status(status)
    .type("application/problem+json")
    .send(
      stringify({
        type: `https://portfolio-service.dev/problems/${error.code.toLowerCase().replace(/_/g, "-")}`,
        title,
        status,
        detail: error.message,
        code: error.code,
        errors: error.errors,
        errorCount: error.errorCount,
        requestId,
      }),
    );
}

/**
 * Busboy (under multer) rejects a malformed multipart body with plain Errors; these are its
 * messages (busboy 1.6), and multer's own when the client stops sending mid-upload.
 */
const MULTIPART_ERRORS =
  /^(Multipart: Boundary not found|Malformed part header|Malformed content type|Malformed urlencoded form|Missing Content-Type|Unsupported content type: .*|Unexpected end of (form|file)|Request (aborted|closed|error))$/s;

type HttpLikeError = {
  type?: string;
  status?: number;
  expose?: boolean;
  limit?: number;
  name?: string;
  code?: string;
  errno?: number;
  field?: string;
  message?: string;
  /** A JSON number a float would round (./lossless-json.ts). */
  number?: string;
  /** A name given twice in one JSON object, and the path of that object (./lossless-json.ts). */
  repeated?: string;
  at?: string;
};

/**
 * Express's own errors (body parser, router) carry `type` and `status`; multer's carry `code`;
 * zlib's (a body that is not what its Content-Encoding says) carry `errno`. All are the client's
 * doing, so none may become a 500.
 */
function fromHttpError(error: HttpLikeError): DomainError | undefined {
  if (error instanceof DomainError) return undefined;
  if (error.name === "MulterError") {
    if (error.code === "LIMIT_FILE_SIZE")
      return new DomainError("PAYLOAD_TOO_LARGE", "The file is larger than the 10 MiB allowed.");
    return new DomainError(
      "VALIDATION_FAILED",
      `The upload is invalid: send one file in the multipart field "file" (${error.code ?? "bad upload"}${error.field ? ", field " + error.field : ""}).`,
      [{ path: error.field ?? "file", message: "must be the one file field" }],
    );
  }
  if (error.name === "Error" && MULTIPART_ERRORS.test(error.message ?? "")) {
    return new DomainError(
      "VALIDATION_FAILED",
      `The upload is not well-formed multipart/form-data (${error.message}); send one file in the field "file".`,
      [{ path: "file", message: "must be a well-formed multipart/form-data body" }],
    );
  }
  if (error.type === "entity.parse.failed")
    return new DomainError("VALIDATION_FAILED", "The request body is not valid JSON.");
  if (error.type === "entity.too.large")
    return new DomainError(
      "PAYLOAD_TOO_LARGE",
      `The request body is larger than the ${error.limit ?? "allowed"} bytes allowed.`,
    );
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported")
    return new DomainError("VALIDATION_FAILED", "The request body's encoding is not supported; send UTF-8 JSON.");
  if (error.type === "entity.number.inexact")
    return new DomainError("VALIDATION_FAILED", `The request is refused: ${error.message}`, [
      {
        path: "(body)",
        message: `holds ${error.number}, which a JSON number cannot carry exactly: send it as a string`,
      },
    ]);
  if (error.type === "entity.name.repeated")
    return new DomainError("VALIDATION_FAILED", `The request is refused: ${error.message}`, [
      { path: error.at ?? "(body)", message: `names "${error.repeated}" twice; send each field once` },
    ]);
  if (error.type === "entity.utf8.invalid")
    return new DomainError(
      "VALIDATION_FAILED",
      'The request body is not valid UTF-8. Send UTF-8 (Excel: save as "CSV UTF-8"), or name a CSV file\'s own charset in its Content-Type (text/csv; charset=windows-1252, as Excel saves "CSV").',
    );
  if (typeof error.errno === "number" && /^(Z_|ERR_)/.test(error.code ?? "")) {
    return new DomainError(
      "VALIDATION_FAILED",
      `The request body cannot be decompressed as its Content-Encoding says (${error.message}); send it uncompressed, or gzip, deflate or br as declared.`,
    );
  }
  if (error.name === "URIError")
    return new DomainError("VALIDATION_FAILED", "The URL is not valid percent-encoded UTF-8.");
  // Anything else body-parser or the router refused (an aborted or short body...): still a 400.
  if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
    return new DomainError(
      "VALIDATION_FAILED",
      `The request cannot be read: ${error.expose ? error.message : "bad request"}.`,
    );
  }
  return undefined;
}

/** Any error as a DomainError, logged once (5xx with its stack; an outage or a full disk in one line). */
function logged(error: unknown, req: Request): DomainError {
  const domain =
    (error && typeof error === "object" ? fromHttpError(error as never) : undefined) ?? toDomainError(error);
  if (domain.code === "UNAVAILABLE" || domain.code === "INSUFFICIENT_STORAGE") {
    // The database gone or the disk full: one line per request, not a stack each (an outage of
    // ten seconds is thousands of them). The cause's last line says which (Prisma ends with it).
    const cause = error instanceof Error ? error.message.trim().split("\n").pop() : undefined;
    req.log?.warn({ code: domain.code, cause }, "request refused");
  } else if (domain.code === "CLIENT_CLOSED") {
    // The request's own line ("request aborted", 499) was written at the hang-up.
    req.log?.info({ statusCode: domain.status, code: domain.code }, "client closed the request; its work was stopped");
  } else if (domain.status >= 500) req.log?.error({ err: error }, "request failed");
  return domain;
}

export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const domain = logged(error, req);
  if (res.headersSent) return void res.end();
  problem(res, domain, req.id);
}

/**
 * The GraphQL side of a refusal made before Apollo runs (405, 415, an unreadable or oversized
 * body, a lost database, an Idempotency-Key problem): the same HTTP status, but a GraphQL response
 * `{errors: [{message, extensions: {code, errors?, requestId}}]}` that GraphQL clients can read
 * (docs/conventions.md §9.3), not problem+json. 5xx messages are generic, as in problem().
 */
export function graphqlErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const domain = logged(error, req);
  if (res.headersSent) return void res.end();
  const { status } = ERROR_CODES[domain.code];
  for (const [name, value] of Object.entries(domain.headers ?? {})) res.setHeader(name, value);
  noteProblem(res, domain.code);
  const extensions = { ...errorExtensions(domain), requestId: req.id };
  res
    .status(status)
    .type("application/json")
    .send(stringify({ errors: [{ message: domain.message, extensions }] }));
}

export function notFoundHandler(req: Request, res: Response): void {
  problem(
    res,
    new DomainError("NOT_FOUND", `No route ${req.method} ${req.path}. The API lives under /v1; see /docs.`),
    req.id,
  );
}
