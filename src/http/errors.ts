import type { NextFunction, Request, Response } from "express";
import { DomainError, ERROR_CODES, toDomainError } from "../lib/errors";
import { stringify } from "../lib/json";

/**
 * The REST side of the error mapping: every error becomes application/problem+json (RFC 9457)
 * `{type, title, status, detail, code, errors?, requestId}`. 5xx details are replaced by a generic
 * text and logged with their stack, never sent.
 */
export function problem(res: Response, error: DomainError, requestId?: string): void {
  const { status, title } = ERROR_CODES[error.code];
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
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
        requestId,
      }),
    );
}

/** Express's own errors (body parser) carry `type` and `status`; multer's carry `code`. */
function fromHttpError(error: { type?: string; status?: number; limit?: number; name?: string; code?: string; field?: string }): DomainError | undefined {
  if (error.name === "MulterError") {
    if (error.code === "LIMIT_FILE_SIZE") return new DomainError("PAYLOAD_TOO_LARGE", "The file is larger than the 10 MiB allowed.");
    return new DomainError("VALIDATION_FAILED", `The upload is invalid: send one file in the multipart field "file" (${error.code ?? "bad upload"}${error.field ? ", field " + error.field : ""}).`, [{ path: error.field ?? "file", message: "must be the one file field" }]);
  }
  if (error.type === "entity.parse.failed") return new DomainError("VALIDATION_FAILED", "The request body is not valid JSON.");
  if (error.type === "entity.too.large") return new DomainError("PAYLOAD_TOO_LARGE", `The request body is larger than the ${error.limit ?? "allowed"} bytes allowed.`);
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported") return new DomainError("VALIDATION_FAILED", "The request body's encoding is not supported; send UTF-8 JSON.");
  return undefined;
}

export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const domain = (error && typeof error === "object" ? fromHttpError(error as never) : undefined) ?? toDomainError(error);
  if (domain.status >= 500) req.log?.error({ err: error }, "request failed");
  if (res.headersSent) return void res.end();
  problem(res, domain, req.id as string | undefined);
}

export function notFoundHandler(req: Request, res: Response): void {
  problem(res, new DomainError("NOT_FOUND", `No route ${req.method} ${req.path}. The API lives under /v1; see /docs.`), req.id as string | undefined);
}
