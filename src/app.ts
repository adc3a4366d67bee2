import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { isUtf8 } from "node:buffer";
import { expressMiddleware } from "@as-integrations/express5";
import express, { type NextFunction, type Request, type Response } from "express";
import { securityHeaders } from "./http/security-headers";
import { expressServer } from "./http/express-server";
import type { Logger } from "pino";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import swaggerUi from "swagger-ui-express";
import { DEFAULT_DISK_FREE_MIN_MB, DEFAULT_GRAPHQL_LIMITS, type Config } from "./config";
import type { Database } from "./db";
import { diskGuardPlugin } from "./graphql/low-disk-mutations";
import { createApolloServer, graphqlContext } from "./graphql/server";
import { endpoint, sendJson } from "./http/endpoint";
import type { ContextDeps } from "./http/request-context";
import { errorHandler, graphqlErrorHandler, notFoundHandler, problem } from "./http/error-responses";
import { buildOpenApi } from "./http/openapi";
import { keyCacheOf } from "./modules/accounts/key-cache";
import { authenticate } from "./http/auth";
import { graphiqlRouter } from "./http/graphiql";
import { crossOrigin } from "./http/cors";
import { indexPage } from "./http/index-page";
import { webAppRouter } from "./http/web-app";
import { idempotency } from "./http/idempotency";
import { chunkedJson } from "./http/chunked-json";
import { assertLosslessJson } from "./http/lossless-json";
import { refuseWritesOnLowDisk } from "./http/low-disk-writes";
import { restRoutes } from "./http/rest-routes";
import {
  bulkRowCeiling,
  endpoints,
  MEDIA,
  XLSX_MEDIA_TYPE,
  methodNotAllowed,
  refuseUnkeyedBody,
  requireContext,
  unsupportedBody,
} from "./http/router";
import { DomainError } from "./lib/domain-errors";
import { SeriesCache } from "./modules/ledger/valuation/series-cache";
import { MAX_BULK_ROWS, MAX_CUSTOM_PRICES } from "./modules/prices/prices.schemas";
import { MAX_IMPORT_ROWS } from "./modules/trades/trades-import.rows";
import { analyticsBudget, type MarketDataJobs } from "./context";
import { PROJECT_ROOT } from "./lib/paths";
import { diskSpaceMonitor, toMiB } from "./lib/storage";
import { startObservability } from "./observability";

export interface App {
  app: express.Express;
  httpServer: http.Server;
  /** METRICS_PORT's server, listening (README: Metrics, traces and logs). */
  metricsServer?: http.Server;
  /** Stops Apollo (draining in-flight operations); the caller closes the database. */
  stop(): Promise<void>;
}

const JSON_LIMIT = "1mb";
const BULK_LIMIT = "20mb";
/** The most rows any bulk endpoint takes at once (trade imports, market prices, FX rates). */
const MAX_BULK_BODY_ROWS = Math.max(MAX_IMPORT_ROWS, MAX_BULK_ROWS, MAX_CUSTOM_PRICES);

/** /graphql takes GET and POST (Apollo's own rule), and a POST body only as JSON. */
function graphqlGuard(req: Request, res: Response, next: NextFunction): void {
  const method = req.method.toUpperCase();
  if (method === "OPTIONS") {
    res.setHeader("Allow", "GET, POST");
    return void res.status(204).end();
  }
  if (method !== "GET" && method !== "POST") return next(methodNotAllowed(method, req.baseUrl, "GET, POST"));
  if (method === "POST") return next(unsupportedBody(req, MEDIA.json));
  // A GET's variables and extensions are JSON in the query string, which Apollo parses itself:
  // what the parse would lose is refused as it is in a body.
  try {
    for (const name of ["variables", "extensions"]) {
      const text = req.query[name];
      if (typeof text === "string") assertLosslessJson(text);
    }
  } catch (error) {
    return next(error);
  }
  next();
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
      Pick<
        Config,
        | "graphqlLimits"
        | "dataDir"
        | "diskFreeMinMb"
        | "corsOrigins"
        | "seriesCacheMb"
        | "analyticsLimits"
        | "observability"
        | "host"
      >
    >;
  log: Logger;
  /** The process's market-data refresh (index.ts builds it from the configuration); none when absent. */
  marketData?: MarketDataJobs;
  /** The built web app served at /app (default dist/web, what `npm run build` makes). */
  webAppDir?: string;
  /** Tests: spans go to this exporter (tracing on without an OTLP endpoint). */
  traceExporter?: SpanExporter;
  lifecycle?: { readonly stopping: boolean }; // set on SIGTERM: /ready answers 503 from then on
}): Promise<App> {
  const { db, config, log } = opts;
  const app = express();
  const httpServer = expressServer(app);
  app.disable("x-powered-by");
  app.set("etag", false);
  if (config.trustProxy) app.set("trust proxy", config.trustProxy);

  const { version } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  // Per process: each API process keeps its own, kept correct across processes by the ledger versions.
  const series = new SeriesCache(config.seriesCacheMb);
  const { host, observability = {} } = config;
  const { traceExporter } = opts;
  const seen = await startObservability({ config: observability, db, series, log, version, host, traceExporter });
  app.use(seen.requests);
  // Sandbox and the API reference load their own scripts and styles; JSON answers need no CSP.
  app.use(securityHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));

  const auth = authenticate(db, config);
  const json = express.json({
    limit: JSON_LIMIT,
    type: [...MEDIA.json.accept],
    verify: (req, res, body, encoding) => {
      utf8Only(req, res, body, encoding);
      assertLosslessJson(body);
    },
  });
  // Bulk endpoints take up to 20 MiB, as JSON or text/csv (20,000 trades do not fit in 1 MiB); their
  // JSON is parsed in chunks, so a large body does not hold the event loop (http/chunked-json.ts).
  const bulk = [
    express.raw({
      limit: BULK_LIMIT,
      type: [...MEDIA.json.accept],
      verify: (req, res, body) => utf8Only(req, res, body, "utf-8"),
    }),
    chunkedJson,
    bulkRowCeiling(MAX_BULK_BODY_ROWS),
    express.text({ limit: BULK_LIMIT, type: ["text/csv"], verify: utf8Only }),
  ];
  const workbook = express.raw({ limit: BULK_LIMIT, type: [XLSX_MEDIA_TYPE] });
  const analytics = analyticsBudget(config.analyticsLimits);
  const deps: ContextDeps = {
    db: db.prisma,
    log,
    series,
    analytics,
    marketData: opts.marketData,
    keys: keyCacheOf(db),
  };
  const replay = idempotency(db.prisma, "rest");
  const graphqlReplay = idempotency(db.prisma, "graphql");
  const refuseKeyless = refuseUnkeyedBody({ keylessMayRead: false });
  const context = requireContext(deps);
  // Each endpoint's own chain, after authentication: the body parsers its body needs, the
  // Idempotency-Key replay, its Context, then the handler.
  const { guard, dispatch } = restRoutes({
    extraGets: ["/openapi.json"],
    chainOf: (e) => [
      refuseKeyless,
      ...(e.csv ? bulk : []),
      ...(e.workbook ? [workbook] : []),
      json,
      replay,
      context,
      ...(e.middleware ?? []),
      endpoint(e),
    ],
  });

  app.get("/", indexPage(version));
  // CORS, then the method and content-type checks: all before authentication, none touches the database.
  if (config.corsOrigins?.length) app.use(["/v1", "/api/v1", "/graphql"], crossOrigin(config.corsOrigins));
  app.use(["/v1", "/api/v1"], guard);
  app.use("/graphql", graphqlGuard);

  app.get("/health", (_req, res) => sendJson(res, 200, { status: "ok" }));
  if (seen.metricsRoute) app.get("/metrics", seen.metricsRoute);
  // Only the embedded database shares the service's disk; PostgreSQL guards its own (53100 → 507).
  const disk =
    db.kind === "pglite" && config.dataDir
      ? diskSpaceMonitor(config.dataDir, config.diskFreeMinMb ?? DEFAULT_DISK_FREE_MIN_MB)
      : undefined;
  app.get("/ready", async (req, res) => {
    if (opts.lifecycle?.stopping)
      return problem(res, new DomainError("UNAVAILABLE", "The process is shutting down."), req.id);
    try {
      await db.ping();
    } catch (error) {
      req.log.warn({ err: error }, "database not reachable");
      return problem(res, new DomainError("UNAVAILABLE", "The database is not reachable."), req.id);
    }
    const space = disk?.();
    if (space?.low) {
      const detail = `Writes are refused: ${toMiB(space.freeBytes)} MiB free in DATA_DIR, below DISK_FREE_MIN_MB (${toMiB(space.minFreeBytes)} MiB). Reads still work.`;
      return problem(res, new DomainError("UNAVAILABLE", detail), req.id);
    }
    sendJson(res, 200, { status: "ready", database: db.kind });
  });
  if (disk) app.use(["/v1", "/api/v1"], refuseWritesOnLowDisk(disk));

  // Built on its first request, not at start: a start, and every test file's app, skip converting
  // every route's schemas until someone reads the document (the contract tests read it in CI).
  let openApi: ReturnType<typeof buildOpenApi> | undefined;
  for (const prefix of ["/v1", "/api/v1"])
    app.get(`${prefix}/openapi.json`, (_req, res) =>
      sendJson(res, 200, (openApi ??= buildOpenApi(endpoints, { version }))),
    );
  app.use(
    "/docs",
    swaggerUi.serve,
    swaggerUi.setup(undefined, {
      swaggerOptions: { url: "/v1/openapi.json" },
      customSiteTitle: "Portfolio service API",
    }),
  );

  // One mounted layer whose own layers have no path: Express matches and strips the prefix once,
  // not once per middleware of the chain.
  // A path no endpoint answers is refused as before: 401 without a key, else 404 (notFoundHandler).
  const rest = express.Router();
  rest.use(auth, dispatch, refuseKeyless, json, replay, context);
  app.use(["/v1", "/api/v1"], rest);

  const apollo = createApolloServer({ httpServer, log, limits: config.graphqlLimits ?? DEFAULT_GRAPHQL_LIMITS });
  if (disk) apollo.addPlugin(diskGuardPlugin(disk));
  apollo.addPlugin(seen.graphqlPlugin);
  await apollo.start();
  app.use("/graphiql", graphiqlRouter());
  // The web app has a CSP of its own (no inline script, no eval); the global one above stays off.
  app.use("/app", webAppRouter(opts.webAppDir));
  app.use(
    "/graphql",
    auth,
    refuseUnkeyedBody({ keylessMayRead: true }),
    json,
    graphqlReplay,
    seen.graphql(expressMiddleware(apollo, { context: graphqlContext(deps) })),
    graphqlErrorHandler,
  );

  app.use(notFoundHandler);
  app.use(errorHandler);

  const stop = async () => {
    await apollo.stop();
    await seen.stop();
  };
  return { app, httpServer, metricsServer: seen.metricsServer, stop };
}
