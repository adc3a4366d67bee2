import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import { buildContext, type AnalyticsBudget, type Context, type KeyChanges, type MarketDataJobs } from "../context";
import type { PrismaClient } from "../db";
import type { SeriesCache } from "../modules/ledger/valuation/series-cache";

/**
 * An AbortSignal that aborts when the client goes away before its answer is sent: the response
 * closes without having finished (a hang-up, a timeout, a reset). A finished answer never aborts it.
 * Services carry it on the context down to the slices of their computations (lib/slices.ts).
 */
export function requestSignal(_req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else res.once("close", () => void (res.writableFinished || controller.abort()));
  return controller.signal;
}

/** What every request's Context is built from besides the request: the process's shared parts. */
export interface ContextDeps {
  db: PrismaClient;
  log: Logger;
  series: SeriesCache;
  analytics?: AnalyticsBudget;
  marketData?: MarketDataJobs;
  /** The key cache the requests authenticate through (http/auth.ts): told of key changes at once. */
  keys?: KeyChanges;
}

/**
 * The Context of an HTTP request, REST and GraphQL alike: its authenticated key, its logger and
 * id, and the signal that stops its work when the client hangs up. UNAUTHENTICATED without a key.
 */
export function requestContext(deps: ContextDeps, req: Request, res: Response): Context {
  return buildContext({
    ...deps,
    auth: req.auth,
    // Read when the context first logs: req.log makes its child logger on first use.
    get log() {
      return req.log ?? deps.log;
    },
    requestId: req.id,
    // Made when a service first reads it: a controller and a close listener on every request
    // was a measurable part of a small read's time. Made after a hang-up, it is aborted at once.
    signal: () => requestSignal(req, res),
  });
}
