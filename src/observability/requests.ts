import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { Metrics } from "./metrics";
import { identifyRequest, writeRequestLine } from "./request-log";
import { beginObservation, CLIENT_CLOSED_STATUS } from "./request-state";
import type { Tracing } from "./tracing";

/** The metric `method` label: the methods the service answers, anything else one value. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodLabel = (method: string): string => (METHODS.has(method) ? method : "OTHER");

/**
 * The first middleware: gives the request its id and logger, starts its observation (and its
 * span, when tracing), and once the response has ended or the connection closed, settles its
 * route template and duration and records them: the request-duration histogram, the rate-limit
 * refusals, the span, then the request log's line (./request-log.ts). One middleware and one pair
 * of listeners for all of it: each layer and listener is paid by every request.
 */
export function observeRequests(opts: {
  routeOf: (path: string) => string;
  log: Logger;
  metrics?: Metrics;
  tracing?: Tracing;
}): RequestHandler {
  const { routeOf, log, metrics, tracing } = opts;
  return (req, res, next) => {
    const state = beginObservation(res);
    const seen = identifyRequest(req, res, log);
    // Read now: routers strip their mount path from req.url while they run.
    const path = req.path;
    let endSpan: ((route: string, status: number) => void) | undefined;
    let done = false;
    const ended = () => {
      if (done) return;
      done = true;
      res.off("finish", ended);
      res.off("close", ended);
      const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
      const route = (state.route ??= routeOf(path));
      state.ms = Math.round(seconds * 10_000) / 10;
      const status = (state.status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_STATUS);
      if (metrics) {
        metrics.httpDuration.observe({ method: methodLabel(req.method), route, status: String(status) }, seconds);
        if (state.problemCode === "RATE_LIMITED")
          metrics.rateLimitRejections.inc({ transport: route === "/graphql" ? "graphql" : "rest" });
      }
      state.graphqlSpan?.end();
      endSpan?.(route, status);
      writeRequestLine(log, req, seen, state);
    };
    res.on("finish", ended);
    res.on("close", ended);
    if (tracing) endSpan = tracing.startRequest(req, res, next, state);
    else next();
  };
}
