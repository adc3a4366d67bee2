import { randomUUID } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { observationOf } from "./request-state";

/** Probes and scrapes come every few seconds and say nothing a metric does not. */
const QUIET_PATHS = new Set(["/health", "/ready", "/metrics"]);

/**
 * One JSON line per request (pino-http), written as the response ends: `requestId`, `route` (the
 * template, never the raw path's ids), `operationName` (GraphQL), `status`, `ms`, `accountId`
 * (never the key, nor the account's name) and `traceId` when tracing. Every other line logged
 * through `req.log` carries the `requestId` too.
 */
export function requestLog(log: Logger): RequestHandler {
  return pinoHttp({
    logger: log,
    genReqId: (req, res) => {
      const given = req.headers["x-request-id"];
      const id = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url ?? "") },
    customAttributeKeys: { responseTime: "ms" },
    // Called when the request starts (the bindings of req.log) and again as its line is written,
    // after the observer has settled the route: the line's own fields then.
    customProps: (req, res) => {
      const state = observationOf(res);
      if (!state?.route) return { requestId: req.id };
      const auth = (req as Request).auth;
      return {
        route: state.route,
        operationName: state.operationName,
        status: state.status,
        accountId: auth?.account.id,
        traceId: state.traceId,
      };
    },
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
