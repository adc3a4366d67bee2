import path from "node:path";
import { Cron } from "croner";
import { z } from "zod";

/**
 * What one GraphQL operation may ask for, checked before anything runs (README: Limits and
 * protections). The defaults sit far above what the API's own clients send.
 */
export interface GraphQLLimits {
  /** Deepest nesting of fields; a fragment spread counts as a level; introspection's __schema is exempt. */
  maxDepth: number;
  /** Aliased fields in one operation, fragments included (`__typename` aliases are free). */
  maxAliases: number;
  /** Lexical tokens in the document; the parser stops at the first token past it. */
  maxTokens: number;
  /** Estimated objects loaded (src/graphql/cost.ts). */
  maxCost: number;
  /** Cost units per rate-limit token: a GraphQL request spends ceil(cost / costPerToken), at least 1. */
  costPerToken: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxDepth: 15,
  maxAliases: 50,
  maxTokens: 5_000,
  maxCost: 200_000,
  costPerToken: 4_000,
};

/** Room for a checkpoint and a large import's WAL (20,000 trades write some 20 MiB) with margin. */
export const DEFAULT_DISK_FREE_MIN_MB = 100;
/** Memory for computed daily series per process (README: Analytics). */
export const DEFAULT_SERIES_CACHE_MB = 256;

/**
 * How much one analytics computation may ask for, and how many run at once (README: Limits and
 * protections). The sizes sit far above any real portfolio: 20,000 points is 54 years of daily
 * points (any period at all weekly or monthly), 36,600 days is a century of daily valuation; the
 * points are the costly part (each is valued in Decimal), the days are Float64 arrays. The gate
 * keeps a few computations running per process (Node runs them on one thread: more at once only
 * hold more memory) and lets no key take more than its share of them.
 */
export interface AnalyticsLimits {
  /** Points in one series (timeseries, holding timeseries, benchmark). */
  maxPoints: number;
  /** Days of one daily valuation: from the first day it needs (the first event, or the day before `from`) to `to`. */
  maxDays: number;
  /** Heavy computations running at once in the process; more wait in a queue. */
  maxConcurrent: number;
  /** Of them, for one API key; the key's next ones wait. */
  maxConcurrentPerKey: number;
  /** Computations waiting in the process; beyond: 503 with Retry-After. */
  maxQueued: number;
  /** Computations one key may have waiting; beyond: 429 with Retry-After. */
  maxQueuedPerKey: number;
}

export const DEFAULT_ANALYTICS_LIMITS: AnalyticsLimits = {
  maxPoints: 20_000,
  maxDays: 36_600,
  maxConcurrent: 4,
  maxConcurrentPerKey: 2,
  maxQueued: 32,
  maxQueuedPerKey: 8,
};

/** When the market-data refresh runs (docs/data.md §1.3): weekdays at 7 pm in Sydney, after the ASX close. */
export const DEFAULT_MARKET_DATA_SCHEDULE = "0 19 * * 1-5";
export const MARKET_DATA_TIMEZONE = "Australia/Sydney";

function validCron(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true, timezone: MARKET_DATA_TIMEZONE }).stop();
    return true;
  } catch {
    return false;
  }
}

/** Where market data comes from and when (docs/data.md §1). URLs come from here only. */
export interface MarketDataConfig {
  provider: "yahoo" | "replay" | "none";
  url: string;
  fxProvider: "rba" | "yahoo" | "replay" | "none";
  fxUrl: string;
  /** Recorded responses for `replay` (yahoo/<symbol>.json, rba/f11.1-data.csv). */
  replayDir?: string;
  /** A cron pattern in Australia/Sydney, or "off". */
  schedule: string;
  /** A price older than the exchange's last trading day by more than this many days is stale. */
  staleDays: number;
}

/** How the service is seen from outside (README: Metrics, traces and logs). */
export interface ObservabilityConfig {
  /** GET /metrics on the service's port answers a request bearing this token; unset: no /metrics there. */
  metricsToken?: string;
  /** A port of its own serving GET /metrics without a token (for a scraper on a private network). */
  metricsPort?: number;
  /** The OTLP/HTTP collector's base URL (traces go to `<url>/v1/traces`); unset: no tracing at all. */
  otlpEndpoint?: string;
  /** The `service.name` of the spans. */
  serviceName: string;
}

/** Unset and empty mean the same: not configured. */
const unsetIfEmpty = z.literal("").transform(() => undefined);

/** Every environment variable the service reads, parsed once at start (README: Configuration). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_DIR: z.string().default("./data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BOOTSTRAP_API_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(10),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(50),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.maxDepth),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(DEFAULT_GRAPHQL_LIMITS.maxAliases),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(100_000).default(DEFAULT_GRAPHQL_LIMITS.maxTokens),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.maxCost),
  GRAPHQL_COST_PER_TOKEN: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.costPerToken),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  DISK_FREE_MIN_MB: z.coerce.number().min(0).default(DEFAULT_DISK_FREE_MIN_MB),
  SERIES_CACHE_MB: z.coerce.number().min(1).default(DEFAULT_SERIES_CACHE_MB),
  ANALYTICS_MAX_POINTS: z.coerce.number().int().min(1).default(DEFAULT_ANALYTICS_LIMITS.maxPoints),
  ANALYTICS_MAX_DAYS: z.coerce.number().int().min(2).default(DEFAULT_ANALYTICS_LIMITS.maxDays),
  ANALYTICS_MAX_CONCURRENT: z.coerce.number().int().min(1).default(DEFAULT_ANALYTICS_LIMITS.maxConcurrent),
  ANALYTICS_MAX_CONCURRENT_PER_KEY: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_ANALYTICS_LIMITS.maxConcurrentPerKey),
  ANALYTICS_MAX_QUEUED: z.coerce.number().int().min(0).default(DEFAULT_ANALYTICS_LIMITS.maxQueued),
  ANALYTICS_MAX_QUEUED_PER_KEY: z.coerce.number().int().min(0).default(DEFAULT_ANALYTICS_LIMITS.maxQueuedPerKey),
  MARKET_DATA_PROVIDER: z.enum(["yahoo", "replay", "none"]).default("yahoo"),
  MARKET_DATA_URL: z.url({ protocol: /^https?$/ }).default("https://query1.finance.yahoo.com"),
  FX_PROVIDER: z.enum(["rba", "yahoo", "replay", "none"]).default("rba"),
  FX_DATA_URL: z.url({ protocol: /^https?$/ }).default("https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv"),
  MARKET_DATA_REPLAY_DIR: z.string().optional(),
  MARKET_DATA_SCHEDULE: z
    .string()
    .default(DEFAULT_MARKET_DATA_SCHEDULE)
    .refine((v) => v === "off" || validCron(v), "must be a cron pattern (e.g. '0 19 * * 1-5') or 'off'"),
  PRICE_STALE_DAYS: z.coerce.number().int().min(0).max(365).default(3),
  TRUST_PROXY: z.string().optional(),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins = parseCorsOrigins(value);
      if (typeof origins === "string") {
        ctx.addIssue({ code: "custom", message: origins });
        return z.NEVER;
      }
      return origins;
    }),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional().or(unsetIfEmpty),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional().or(unsetIfEmpty),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .or(unsetIfEmpty),
  OTEL_SERVICE_NAME: z.string().min(1).default("portfolio-service"),
});

/**
 * CORS_ORIGINS: a comma list of exact origins (`https://app.example.com,http://localhost:5173`),
 * or `*` alone for any origin. Unset or empty: no cross-origin access at all. Returns the list, or
 * what is wrong with it.
 */
export function parseCorsOrigins(value: string | undefined): string[] | string {
  const entries = (value ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  if (entries.includes("*"))
    return entries.length === 1 ? ["*"] : "'*' allows every origin and cannot be combined with others";
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    // Browsers send the origin serialised as URL.origin does (lower-case host, no default port,
    // no path): only that exact form can ever match.
    if (!origin || origin === "null")
      return `'${entry}' is not an origin such as https://app.example.com (scheme, host and port only)`;
    if (origin !== entry)
      return `'${entry}' must be written as its origin, '${origin}' (scheme, host and port only, no path or trailing slash)`;
  }
  return entries;
}

export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server URL, or undefined for the embedded PGlite database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  bootstrapApiKey?: string;
  /** Requests per second per API key; 0 turns the limit off. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  graphqlLimits: GraphQLLimits;
  dbPoolSize: number;
  shutdownTimeoutMs: number;
  /**
   * On SIGTERM, how long /ready answers 503 while the process still serves, before it stops
   * accepting connections: the load balancer's health check takes it out of rotation meanwhile.
   */
  shutdownDelayMs: number;
  /** How long a new PostgreSQL connection may take before the request answers 503. */
  dbConnectTimeoutMs: number;
  /** Embedded database only: writes are refused (507) below this much free space in DATA_DIR. */
  diskFreeMinMb: number;
  /** Memory for computed daily series (analytics), per process. */
  seriesCacheMb: number;
  analyticsLimits: AnalyticsLimits;
  marketData: MarketDataConfig;
  trustProxy?: string;
  /** Origins a browser may call the API from (exact, or ["*"]); empty: none, and no CORS headers. */
  corsOrigins: string[];
  observability: ObservabilityConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = result.data;
  if ((e.MARKET_DATA_PROVIDER === "replay" || e.FX_PROVIDER === "replay") && !e.MARKET_DATA_REPLAY_DIR)
    throw new Error(
      "Invalid configuration:\n  MARKET_DATA_REPLAY_DIR: the replay provider needs a directory of recorded responses",
    );
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    throw new Error(
      "Invalid configuration:\n  METRICS_PORT: must differ from PORT (the metrics have a port of their own)",
    );
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    bootstrapApiKey: e.BOOTSTRAP_API_KEY,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    graphqlLimits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
      costPerToken: e.GRAPHQL_COST_PER_TOKEN,
    },
    dbPoolSize: e.DB_POOL_SIZE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    diskFreeMinMb: e.DISK_FREE_MIN_MB,
    seriesCacheMb: e.SERIES_CACHE_MB,
    analyticsLimits: {
      maxPoints: e.ANALYTICS_MAX_POINTS,
      maxDays: e.ANALYTICS_MAX_DAYS,
      maxConcurrent: e.ANALYTICS_MAX_CONCURRENT,
      maxConcurrentPerKey: e.ANALYTICS_MAX_CONCURRENT_PER_KEY,
      maxQueued: e.ANALYTICS_MAX_QUEUED,
      maxQueuedPerKey: e.ANALYTICS_MAX_QUEUED_PER_KEY,
    },
    marketData: {
      provider: e.MARKET_DATA_PROVIDER,
      url: e.MARKET_DATA_URL.replace(/\/+$/, ""),
      fxProvider: e.FX_PROVIDER,
      fxUrl: e.FX_DATA_URL,
      replayDir: e.MARKET_DATA_REPLAY_DIR ? path.resolve(e.MARKET_DATA_REPLAY_DIR) : undefined,
      schedule: e.MARKET_DATA_SCHEDULE,
      staleDays: e.PRICE_STALE_DAYS,
    },
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    observability: {
      metricsToken: e.METRICS_TOKEN,
      metricsPort: e.METRICS_PORT,
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: e.OTEL_SERVICE_NAME,
    },
  };
}
