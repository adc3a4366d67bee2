import type http from "node:http";
import type { ApolloServerPlugin } from "@apollo/server";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { ObservabilityConfig } from "../config";
import type { Database } from "../db";
import { endpoints } from "../http/router";
import type { SeriesCache } from "../modules/ledger/valuation/series-cache";
import { observabilityPlugin } from "./graphql";
import { metricsRoute, startMetricsServer } from "./metrics-endpoint";
import { observeRequests } from "./requests";
import { routeTemplates } from "./routes";

/** How long a shutdown waits for the last spans to reach the collector. */
const FLUSH_LIMIT_MS = 2_000;
/** How the app is seen from outside (README: Metrics, traces and logs): what createApp mounts. */
export interface Observability {
  /** The first middleware: every request's id, route, duration, span and log line. */
  requests: RequestHandler;
  /** GET /metrics on the service's port, behind METRICS_TOKEN; absent without the token. */
  metricsRoute?: RequestHandler;
  /** The server of METRICS_PORT, listening. */
  metricsServer?: http.Server;
  graphqlPlugin: ApolloServerPlugin;
  /** Apollo's middleware, inside a span of the operation when tracing; as it is otherwise. */
  graphql(handler: RequestHandler): RequestHandler;
  /** Closes the metrics server and sends the spans not yet exported. */
  stop(): Promise<void>;
}

/**
 * Metrics are collected only when something can read them (METRICS_TOKEN or METRICS_PORT), and
 * tracing runs only with an OTLP endpoint (or a test's exporter): with neither, a request pays for
 * its route template and its log line alone.
 */
export async function startObservability(opts: {
  config: Partial<ObservabilityConfig>;
  db: Database;
  series: SeriesCache;
  log: Logger;
  version: string;
  host?: string;
  /** Tests: spans go here instead of to an OTLP endpoint (tracing on even without one). */
  traceExporter?: SpanExporter;
}): Promise<Observability> {
  const { config, db } = opts;
  const metrics =
    config.metricsToken || config.metricsPort !== undefined
      ? (await import("./metrics")).createMetrics({ db, series: opts.series })
      : undefined;
  const tracing =
    config.otlpEndpoint || opts.traceExporter
      ? (await import("./otel")).createTracing({
          endpoint: config.otlpEndpoint ?? "",
          serviceName: config.serviceName ?? "portfolio-service",
          serviceVersion: opts.version,
          exporter: opts.traceExporter,
        })
      : undefined;
  if (tracing) db.observeStatements?.(tracing.statement);
  let metricsServer: http.Server | undefined;
  if (metrics && config.metricsPort !== undefined) {
    metricsServer = await startMetricsServer(metrics.registry, config.metricsPort, opts.host ?? "0.0.0.0");
    const address = metricsServer.address();
    opts.log.info(
      { port: typeof address === "object" && address ? address.port : config.metricsPort },
      "metrics served",
    );
  }
  return {
    requests: observeRequests({ routeOf: routeTemplates(endpoints), log: opts.log, metrics, tracing }),
    metricsRoute: metrics && config.metricsToken ? metricsRoute(metrics.registry, config.metricsToken) : undefined,
    metricsServer,
    graphqlPlugin: observabilityPlugin(metrics),
    graphql: (handler) => (tracing ? tracing.graphql(handler) : handler),
    stop: async () => {
      if (tracing) db.observeStatements?.(undefined);
      await Promise.all([
        metricsServer && new Promise<void>((resolve) => metricsServer.close(() => resolve())),
        // The last spans are flushed, but an unreachable collector must not hold the shutdown (the
        // database still has to close cleanly after this): at most FLUSH_LIMIT_MS.
        tracing &&
          Promise.race([
            tracing.shutdown().catch(() => undefined),
            new Promise<void>((resolve) => setTimeout(resolve, FLUSH_LIMIT_MS).unref()),
          ]),
      ]);
    },
  };
}
