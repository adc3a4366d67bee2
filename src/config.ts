import path from "node:path";
import { z } from "zod";

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
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  TRUST_PROXY: z.string().optional(),
});

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
  dbPoolSize: number;
  shutdownTimeoutMs: number;
  trustProxy?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = result.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    bootstrapApiKey: e.BOOTSTRAP_API_KEY,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    dbPoolSize: e.DB_POOL_SIZE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY,
  };
}
