import {
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from "@opentelemetry/semantic-conventions";
import { observationOf } from "./request-state";
import type { Tracing, TracingOptions } from "./tracing";

/**
 * The spans are made here, by hand, rather than by the auto-instrumentations (http, express, pg):
 * those patch modules as they are required, so they must be loaded before anything else in the
 * process, which a tracing that is off unless configured (and several apps in one test process)
 * cannot promise; and they would trace PostgreSQL's statements but not the embedded database's.
 * Three places see everything: the first middleware (the request), a wrapper around Apollo's
 * middleware (the operation; ./graphql.ts names it once parsed) and the database's statement
 * observer (src/db.ts: every statement Prisma sends, on either database). The tracer provider is
 * the app's own, not registered globally; only the async context manager is process-wide (one
 * per process, registered by the first app that traces).
 */

/** Longer SQL is cut: the bulk statements' text is long, and their values are parameters anyway. */
const MAX_QUERY_TEXT = 2_000;

function ensureContextManager(): void {
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}

/** The OTLP/HTTP traces URL under the base endpoint (the OTEL_EXPORTER_OTLP_ENDPOINT rule). */
export const tracesUrl = (endpoint: string): string => endpoint.replace(/\/+$/, "") + "/v1/traces";

export function createTracing(options: TracingOptions): Tracing {
  ensureContextManager();
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: tracesUrl(options.endpoint) });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: options.serviceVersion,
    }),
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("portfolio-service", options.serviceVersion);
  const propagator = new W3CTraceContextPropagator();

  return {
    startRequest(req, res, next, state) {
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const span = tracer.startSpan(
        req.method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: req.method,
            [ATTR_URL_PATH]: req.path,
            [ATTR_URL_SCHEME]: req.protocol,
          },
        },
        parent,
      );
      const active = trace.setSpan(parent, span);
      const { traceId, spanId, traceFlags } = span.spanContext();
      state.traceId = traceId;
      // W3C Trace Context level 2's response header: the caller learns the trace its request joined.
      res.setHeader("traceresponse", `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`);
      // The body parsers and on-finished listen for stream events, which Node emits in the
      // socket's async context, not the request's: bound, their listeners run in the span.
      context.bind(active, req);
      context.bind(active, res);
      context.with(active, next);
      return (route, status) => {
        span.setAttribute(ATTR_HTTP_ROUTE, route);
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        span.updateName(`${req.method} ${route}`);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
    },

    graphql(handler) {
      return (req, res, next) => {
        const span = tracer.startSpan("graphql", { kind: SpanKind.INTERNAL }, context.active());
        const state = observationOf(res);
        let ended = false;
        if (state)
          state.graphqlSpan = {
            describe: (name, type) => {
              span.updateName(`${type} ${name}`);
              span.setAttribute("graphql.operation.name", name);
              span.setAttribute("graphql.operation.type", type);
            },
            fail: () => span.setStatus({ code: SpanStatusCode.ERROR }),
            end: () => {
              if (!ended) span.end();
              ended = true;
            },
          };
        context.with(trace.setSpan(context.active(), span), () => handler(req, res, next));
      };
    },

    statement(sql) {
      const active = context.active();
      if (!trace.getSpan(active)) return undefined;
      const operation = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
      const span: Span = tracer.startSpan(
        operation,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
            [ATTR_DB_OPERATION_NAME]: operation,
            [ATTR_DB_QUERY_TEXT]: sql.length > MAX_QUERY_TEXT ? sql.slice(0, MAX_QUERY_TEXT) : sql,
          },
        },
        active,
      );
      return (error) => {
        if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message?.slice(0, 200) });
        span.end();
      };
    },

    shutdown: () => provider.shutdown(),
  };
}
