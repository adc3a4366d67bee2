import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { isUtf8 } from "node:buffer";
import { expressMiddleware } from "@as-integrations/express5";
import cors from "cors";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import swaggerUi from "swagger-ui-express";
import { DEFAULT_DISK_FREE_MIN_MB, DEFAULT_GRAPHQL_LIMITS, type Config } from "./config";
import type { Database } from "./db";
import { diskGuardPlugin } from "./graphql/low-disk-mutations";
import { createApolloServer, graphqlContext } from "./graphql/server";
import { sendJson } from "./http/endpoint";
import type { ContextDeps } from "./http/request-context";
import { errorHandler, graphqlErrorHandler, notFoundHandler, problem } from "./http/error-responses";
import { buildOpenApi } from "./http/openapi";
import { authenticate } from "./http/auth";
import { graphiqlRouter } from "./http/graphiql";
import { idempotency } from "./http/idempotency";
import { chunkedJson } from "./http/chunked-json";
import { refuseWritesOnLowDisk } from "./http/low-disk-writes";
import { TokenBuckets } from "./http/rate-limit";
import {
  bulkRowCeiling,
  createV1Router,
  endpoints,
  MEDIA,
  XLSX_MEDIA_TYPE,
  methodNotAllowed,
  refuseUnkeyedBody,
  requireContext,
  restGuard,
  unsupportedBody,
} from "./http/router";
import { DomainError } from "./lib/domain-errors";
import { SeriesCache } from "./modules/ledger/valuation/series-cache";
import { MAX_BULK_ROWS, MAX_CUSTOM_PRICES } from "./modules/prices/prices.schemas";
import { MAX_IMPORT_ROWS } from "./modules/trades/trades-import.rows";
import { analyticsBudget, type MarketDataJobs } from "./context";
import { PROJECT_ROOT } from "./lib/paths";
import { diskSpaceMonitor, toMiB } from "./lib/storage";

export interface App {
  app: express.Express;
  httpServer: http.Server;
  /** Stops Apollo (draining in-flight operations); the caller closes the database. */
  stop(): Promise<void>;
}

const JSON_LIMIT = "1mb";
const BULK_LIMIT = "20mb";
/** The bulk endpoints are those that also take CSV (their `csv` columns document it). */
const BULK_PATHS = endpoints.filter((e) => e.csv).map((e) => e.path);
/** The bulk endpoints that take a workbook too (a broker's .xlsx export). */
const WORKBOOK_PATHS = endpoints.filter((e) => e.workbook).map((e) => e.path);
/** The most rows any bulk endpoint takes at once (trade imports, market prices, FX rates). */
const MAX_BULK_BODY_ROWS = Math.max(MAX_IMPORT_ROWS, MAX_BULK_ROWS, MAX_CUSTOM_PRICES);

/** What a browser on an allowed origin may send, and may read of the answer (README: CORS). */
const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "x-api-key",
  "Content-Type",
  "Idempotency-Key",
  "x-request-id",
  "apollo-require-preflight",
  "x-apollo-operation-name",
  "apollographql-client-name",
  "apollographql-client-version",
];
const CORS_EXPOSED_HEADERS = [
  "Location",
  "Idempotent-Replayed",
  "X-Total-Count",
  "X-Trades-Left-Out",
  "Link",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
  "x-request-id",
  "Allow",
  "Accept-Post",
  "WWW-Authenticate",
  "Content-Disposition",
];

/**
 * CORS for the origins in CORS_ORIGINS (exact matches, or `*`). A preflight is answered here, 204,
 * before authentication and the database; an origin not on the list gets no CORS header at all
 * (its preflight falls through to the method check), so the browser refuses it. Helmet's
 * Cross-Origin-Resource-Policy: same-origin stays: the Fetch standard applies it to no-cors
 * requests only, so it blocks <script>/<img> embedding, not an allowed origin's fetch().
 */
function crossOrigin(origins: string[]): RequestHandler {
  const any = origins.includes("*");
  const allowed = new Set(origins);
  const handler = cors((req, callback) => {
    const origin = req.headers.origin;
    callback(null, {
      origin: any ? "*" : origin && allowed.has(origin) ? origin : false,
      methods: ["GET", "HEAD", "POST", "PUT", "DELETE"],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    });
  });
  return (req, res, next) => {
    // The answer depends on Origin whether or not it is allowed: caches must keep them apart.
    if (!any) res.vary("Origin");
    handler(req, res, next);
  };
}

/** /graphql takes GET and POST (Apollo's own rule), and a POST body only as JSON. */
function graphqlGuard(req: Request, res: Response, next: NextFunction): void {
  const method = req.method.toUpperCase();
  if (method === "OPTIONS") {
    res.setHeader("Allow", "GET, POST");
    return void res.status(204).end();
  }
  if (method !== "GET" && method !== "POST") return next(methodNotAllowed(method, req.baseUrl, "GET, POST"));
  next(method === "POST" ? unsupportedBody(req, MEDIA.json) : undefined);
}

/** GET /: where things are, for a person with a browser (HTML) or a client (JSON). */
const INDEX_LINKS = [
  { rel: "docs", href: "/docs/", title: "REST API reference" },
  { rel: "openapi", href: "/v1/openapi.json", title: "OpenAPI 3.1 document" },
  { rel: "graphql", href: "/graphql", title: "GraphQL endpoint (POST; Apollo Sandbox in a browser)" },
  { rel: "graphiql", href: "/graphiql", title: "GraphiQL IDE (works offline)" },
  { rel: "health", href: "/health", title: "Liveness probe" },
  { rel: "ready", href: "/ready", title: "Readiness probe (database reachable)" },
];

function index(version: string): RequestHandler {
  const json = { service: "portfolio-service", version, rest: "/v1", graphql: "/graphql", links: INDEX_LINKS };
  const items = INDEX_LINKS.map((l) => `<li><a href="${l.href}">${l.href}</a> — ${l.title}</li>`).join("\n");
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Portfolio service</title></head><body><h1>Portfolio service ${version}</h1><p>REST under /v1 (alias /api/v1), GraphQL at /graphql. Every API call needs a key: <code>Authorization: &lt;key&gt;</code>.</p><ul>\n${items}\n</ul></body></html>\n`;
  return (req, res) => {
    res.vary("Accept");
    if (req.accepts(["json", "html"]) === "html") return void res.status(200).type("html").send(html);
    sendJson(res, 200, json);
  };
}

/**
 * Body-parser's `verify`: a body declared (or defaulted) UTF-8 must be UTF-8. Decoding would
 * otherwise swap each bad byte for U+FFFD and store the damage; 400 (src/http/error-responses.ts) instead.
 */
function utf8Only(_req: http.IncomingMessage, _res: http.ServerResponse, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase().replace("-", "") === "utf8" && !isUtf8(body)) {
    throw Object.assign(new Error("The request body is not valid UTF-8."), {
      status: 400,
      type: "entity.utf8.invalid",
    });
  }
}

/**
 * Builds the HTTP application: REST under /v1 (and the /api/v1 alias), GraphQL at /graphql, the
 * OpenAPI document and its reference page, health probes, and the error mapping.
 */
export async function createApp(opts: {
  db: Database;
  config: Pick<Config, "rateLimitPerSecond" | "rateLimitBurst" | "trustProxy"> &
    Partial<
      Pick<Config, "graphqlLimits" | "dataDir" | "diskFreeMinMb" | "corsOrigins" | "seriesCacheMb" | "analyticsLimits">
    >;
  log: Logger;
  /** The process's market-data refresh (index.ts builds it from the configuration); none when absent. */
  marketData?: MarketDataJobs;
}): Promise<App> {
  const { db, config, log } = opts;
  const app = express();
  const httpServer = http.createServer(app);
  app.disable("x-powered-by");
  app.set("etag", false);
  if (config.trustProxy) app.set("trust proxy", config.trustProxy);

  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const given = req.headers["x-request-id"];
        const id = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
        res.setHeader("x-request-id", id);
        return id;
      },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
      autoLogging: { ignore: (req) => req.url === "/health" || req.url === "/ready" },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  // Sandbox and the API reference load their own scripts and styles; JSON answers need no CSP.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));

  const { version } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  app.get("/", index(version));
  // CORS, then the method and content-type checks: all before authentication, none touches the database.
  if (config.corsOrigins?.length) app.use(["/v1", "/api/v1", "/graphql"], crossOrigin(config.corsOrigins));
  app.use(["/v1", "/api/v1"], restGuard({ extraGets: ["/openapi.json"] }));
  app.use("/graphql", graphqlGuard);

  app.get("/health", (_req, res) => sendJson(res, 200, { status: "ok" }));
  // Only the embedded database shares the service's disk; PostgreSQL guards its own (53100 → 507).
  const disk =
    db.kind === "pglite" && config.dataDir
      ? diskSpaceMonitor(config.dataDir, config.diskFreeMinMb ?? DEFAULT_DISK_FREE_MIN_MB)
      : undefined;
  app.get("/ready", async (req, res) => {
    try {
      await db.ping();
    } catch (error) {
      req.log.warn({ err: error }, "database not reachable");
      return problem(res, new DomainError("UNAVAILABLE", "The database is not reachable."), req.id as string);
    }
    const space = disk?.();
    if (space?.low) {
      const detail = `Writes are refused: ${toMiB(space.freeBytes)} MiB free in DATA_DIR, below DISK_FREE_MIN_MB (${toMiB(space.minFreeBytes)} MiB). Reads still work.`;
      return problem(res, new DomainError("UNAVAILABLE", detail), req.id as string);
    }
    sendJson(res, 200, { status: "ready", database: db.kind });
  });
  if (disk) app.use(["/v1", "/api/v1"], refuseWritesOnLowDisk(disk));

  const openApi = buildOpenApi(endpoints, { version });
  for (const prefix of ["/v1", "/api/v1"])
    app.get(`${prefix}/openapi.json`, (_req, res) => sendJson(res, 200, openApi));
  app.use(
    "/docs",
    swaggerUi.serve,
    swaggerUi.setup(undefined, {
      swaggerOptions: { url: "/v1/openapi.json" },
      customSiteTitle: "Portfolio service API",
    }),
  );

  const auth = authenticate(db.prisma, {
    perKey: new TokenBuckets(config.rateLimitPerSecond, config.rateLimitBurst),
    perAddress: new TokenBuckets(config.rateLimitPerSecond, config.rateLimitBurst),
  });
  const json = express.json({ limit: JSON_LIMIT, type: [...MEDIA.json.accept], verify: utf8Only });
  // Bulk endpoints take up to 20 MiB, as JSON or text/csv (20,000 trades do not fit in 1 MiB); their
  // JSON is parsed in chunks, so a large body does not hold the event loop (http/chunked-json.ts).
  const bulk = express.Router();
  bulk.use(
    BULK_PATHS,
    express.raw({
      limit: BULK_LIMIT,
      type: [...MEDIA.json.accept],
      verify: (req, res, body) => utf8Only(req, res, body, "utf-8"),
    }),
    chunkedJson,
    bulkRowCeiling(MAX_BULK_BODY_ROWS),
    express.text({ limit: BULK_LIMIT, type: ["text/csv"], verify: utf8Only }),
  );
  bulk.use(WORKBOOK_PATHS, express.raw({ limit: BULK_LIMIT, type: [XLSX_MEDIA_TYPE] }));
  // Per process: each API process keeps its own, kept correct across processes by the ledger versions.
  const series = new SeriesCache(config.seriesCacheMb);
  const analytics = analyticsBudget(config.analyticsLimits);
  const deps: ContextDeps = { db: db.prisma, log, series, analytics, marketData: opts.marketData };
  const v1 = createV1Router();
  const replay = idempotency(db.prisma, "rest");
  const graphqlReplay = idempotency(db.prisma, "graphql");
  for (const prefix of ["/v1", "/api/v1"])
    app.use(prefix, auth, refuseUnkeyedBody({ keylessMayRead: false }), bulk, json, replay, requireContext(deps), v1);

  const apollo = createApolloServer({ httpServer, log, limits: config.graphqlLimits ?? DEFAULT_GRAPHQL_LIMITS });
  if (disk) apollo.addPlugin(diskGuardPlugin(disk));
  await apollo.start();
  app.use("/graphiql", graphiqlRouter());
  app.use(
    "/graphql",
    auth,
    refuseUnkeyedBody({ keylessMayRead: true }),
    json,
    graphqlReplay,
    expressMiddleware(apollo, { context: graphqlContext(deps) }),
    graphqlErrorHandler,
  );

  app.use(notFoundHandler);
  app.use(errorHandler);

  return { app, httpServer, stop: () => apollo.stop() };
}
