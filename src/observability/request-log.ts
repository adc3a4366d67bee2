import { randomUUID } from "node:crypto";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import { CLIENT_CLOSED_STATUS, type RequestObservation } from "./request-state";

declare module "http" {
  interface IncomingMessage {
    /** The request's id: the caller's `x-request-id` when usable, else a new UUID. */
    id: string;
    /** A logger whose lines carry `requestId` and `req` (id, method, url), made when first used. */
    log: Logger;
  }
}

/** Probes and scrapes come every few seconds and say nothing a metric does not. */
const QUIET_PATHS = new Set(["/health", "/ready", "/metrics"]);
/** An `x-request-id` the service adopts: letters, digits, `_`, `.`, `-`, at most 100. */
const CALLER_ID = /^[\w.-]{1,100}$/;

/**
 * What a request's lines say of it: `req` with its id, `method` and `url` as they arrived (read
 * before routers strip their mount paths), and whether its own line is written at all.
 */
export interface LoggedRequest {
  req: { id: string; method: string; url: string };
  quiet: boolean;
}

/**
 * Gives the request its id, echoed as `x-request-id`, and `req.log`, whose lines carry `requestId`
 * and `req`. The child logger is made only when a line is written through it: most requests write
 * none but the line below, and making two child loggers per request (what pino-http does) was a
 * tenth of a small read's time.
 */
export function identifyRequest(req: Request, res: Response, log: Logger): LoggedRequest {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && CALLER_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader("x-request-id", id);
  const seen = { req: { id, method: req.method, url: req.originalUrl ?? req.url }, quiet: QUIET_PATHS.has(req.url) };
  let child: Logger | undefined;
  Object.defineProperty(req, "log", {
    get: () => (child ??= log.child({ requestId: id, req: seen.req })),
    // A middleware that brings its own request logger may still set one.
    set: (given: Logger) => void (child = given),
    configurable: true,
    enumerable: false,
  });
  return seen;
}

/**
 * One JSON line per request, written as the response ends, once the observer (./requests.ts) has
 * settled its route: `requestId`, `route` (the template, never the raw path's ids),
 * `operationName` (GraphQL), `status`, `ms`, `accountId` (never the key, nor the account's name)
 * and `traceId` when tracing. Level: error from 500, warn from 400, info below; a request whose
 * client left first (499) is "request aborted", at info: the client's doing, not the service's.
 */
export function writeRequestLine(log: Logger, req: Request, seen: LoggedRequest, state: RequestObservation): void {
  if (seen.quiet) return;
  const status = state.status ?? 0;
  const fields = {
    requestId: seen.req.id,
    req: seen.req,
    route: state.route,
    operationName: state.operationName,
    status,
    accountId: req.auth?.account.id,
    traceId: state.traceId,
    res: { statusCode: status },
    ms: state.ms,
  };
  if (status === CLIENT_CLOSED_STATUS) log.info(fields, "request aborted");
  else if (status >= 500)
    log.error({ ...fields, err: { type: "Error", message: `failed with status code ${status}` } }, "request errored");
  else if (status >= 400) log.warn(fields, "request completed");
  else log.info(fields, "request completed");
}
