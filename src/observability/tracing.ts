import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { StatementObserver } from "../db";
import type { RequestObservation } from "./request-state";

/**
 * Traces (OpenTelemetry), on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. This file holds types
 * alone; ./otel.ts, which loads the OpenTelemetry packages, is required by ./index.ts when tracing
 * is on and by nothing else: without an endpoint no OpenTelemetry module is loaded and none runs
 * per request.
 */
export interface Tracing {
  /**
   * Starts the request's server span, continuing the caller's trace when it sent a W3C
   * `traceparent`, and runs `next` (the rest of the request) inside it; answers what ends it.
   */
  startRequest(
    req: Request,
    res: Response,
    next: NextFunction,
    state: RequestObservation,
  ): (route: string, status: number) => void;
  /** Apollo's middleware, run inside a span of the GraphQL operation (a child of the request's). */
  graphql(handler: RequestHandler): RequestHandler;
  /** A span per database statement sent inside a request (statements outside one have none). */
  statement: StatementObserver;
  /** Sends the spans not yet exported, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  serviceVersion: string;
  /** Instead of the OTLP exporter (tests: an InMemorySpanExporter); spans are then sent one by one. */
  exporter?: SpanExporter;
}
