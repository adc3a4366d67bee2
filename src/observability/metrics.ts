import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db";
import { keyCacheOf } from "../modules/accounts/key-cache";
import type { SeriesCache } from "../modules/ledger/valuation/series-cache";
import { marketDataMetrics } from "./market-data-metrics";

/**
 * The service's Prometheus metrics (README: Metrics, traces and logs). One registry per app, not
 * prom-client's global one: a process (a test file) may build several apps, each with its own.
 * Loaded only when metrics are on (./index.ts): prom-client requires @opentelemetry/api (for its
 * exemplars), which the service otherwise loads only when tracing.
 * No label holds a key, an account name or an id: routes are templates, operation names are
 * checked and capped, and every other label takes a fixed set of values.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  graphqlDuration: Histogram<"operation_name" | "operation_type" | "outcome">;
  rateLimitRejections: Counter<"transport">;
}

/** Seconds: from a cached read (a few ms) to a large import or a century of daily valuation. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(deps: { db: Database; series: SeriesCache }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpDuration = new Histogram({
    name: "http_server_request_duration_seconds",
    help: "HTTP requests by method, route template and status: how long until the response ended.",
    labelNames: ["method", "route", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const graphqlDuration = new Histogram({
    name: "graphql_operation_duration_seconds",
    help: "GraphQL operations by name (`anonymous`, `invalid`, `other` past the cap), type and outcome.",
    labelNames: ["operation_name", "operation_type", "outcome"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const rateLimitRejections = new Counter({
    name: "rate_limit_rejections_total",
    help: "Requests answered 429 RATE_LIMITED (a key's or an address's bucket, or the analytics queue), by transport.",
    labelNames: ["transport"] as const,
    registers,
  });

  const { db, series } = deps;
  new Gauge({
    name: "db_pool_connections",
    help: "Database connections by state (PostgreSQL: the pool; the embedded database: its one connection).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const counts = db.connections?.() ?? { inUse: 0, idle: 0, waiting: 0 };
      this.set({ state: "in_use" }, counts.inUse);
      this.set({ state: "idle" }, counts.idle);
      this.set({ state: "waiting" }, counts.waiting);
    },
  });

  // The cache counts its own lookups (a plain pair of numbers: the ledger imports nothing of this
  // folder); the counter reports what they grew by since the last scrape.
  const keys = keyCacheOf(db);
  const reported = { series: { hits: 0, misses: 0 }, keys: { hits: 0, misses: 0 } };
  new Counter({
    name: "cache_requests_total",
    help: "Cache lookups by cache and result (hit: answered from the cache, or joined a computation under way).",
    labelNames: ["cache", "result"] as const,
    registers,
    collect() {
      for (const [cache, { hits, misses }] of [
        ["series", series.lookups],
        ["keys", keys.lookups],
      ] as const) {
        this.inc({ cache, result: "hit" }, hits - reported[cache].hits);
        this.inc({ cache, result: "miss" }, misses - reported[cache].misses);
        reported[cache] = { hits, misses };
      }
    },
  });

  marketDataMetrics(db, registers);
  return { registry, httpDuration, graphqlDuration, rateLimitRejections };
}
