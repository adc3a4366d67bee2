import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "pino";
import { presentedKey, unauthenticated, type AnalyticsBudget, type Context } from "../context";
import { requestContext, type ContextDeps } from "./request-context";
import type { SeriesCache } from "../modules/ledger/valuation/series-cache";
import type { PrismaClient } from "../db";
import type { AuthenticatedKey } from "../modules/accounts/accounts.service";
import { allocationModelRoutes } from "../modules/allocation-models/allocation-models.routes";
import { rebalancingRoutes } from "../modules/rebalancing/rebalancing.routes";
import { taxRoutes } from "../modules/tax/tax.routes";
import { taxPlannerRoutes } from "../modules/planning/tax-planner.routes";
import { incomeForecastRoutes } from "../modules/planning/income-forecast.routes";
import { analyticsRoutes } from "../modules/analytics/analytics.routes";
import { portfolioRoutes } from "../modules/portfolios/portfolios.routes";
import { cashRoutes } from "../modules/cash/cash.routes";
import { clientRoutes } from "../modules/clients/clients.routes";
import { apiKeyRoutes } from "../modules/accounts/api-keys.routes";
import { customGroupRoutes } from "../modules/custom-groups/custom-groups.routes";
import { holdingRoutes } from "../modules/holdings/holdings.routes";
import { incomeRoutes } from "../modules/income/income.routes";
import { priceRoutes } from "../modules/prices/prices.routes";
import { marketDataRoutes } from "../modules/market-data/market-data.routes";
import { corporateActionRoutes } from "../modules/market-data/corporate-actions.routes";
import { taxSettingsRoutes } from "../modules/tax-settings/tax-settings.routes";
import { transactionRoutes } from "../modules/transactions/transactions.routes";
import { securityRoutes } from "../modules/securities/securities.routes";
import { sourceRoutes } from "../modules/sources/sources.routes";
import { tradeRoutes } from "../modules/trades/trades.routes";
import { endpoint, type Endpoint } from "./endpoint";
import { tooManyRows } from "../lib/bulk";
import { DomainError } from "../lib/domain-errors";
import { byFirstSegment, templateMatcher } from "./path-groups";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's key (src/http/auth.ts); null when it presented no valid key. */
      auth?: AuthenticatedKey | null;
      ctx?: Context;
    }
  }
}

/** Every REST operation, in the order the OpenAPI document lists them. */
export const endpoints: Endpoint[] = [
  ...sourceRoutes,
  ...portfolioRoutes,
  ...holdingRoutes,
  ...tradeRoutes,
  ...incomeRoutes,
  ...cashRoutes,
  ...priceRoutes,
  ...securityRoutes,
  ...transactionRoutes,
  ...clientRoutes,
  ...apiKeyRoutes,
  ...customGroupRoutes,
  ...taxSettingsRoutes,
  ...allocationModelRoutes,
  ...rebalancingRoutes,
  ...taxRoutes,
  ...taxPlannerRoutes,
  ...incomeForecastRoutes,
  ...analyticsRoutes,
  ...marketDataRoutes,
  ...corporateActionRoutes,
];

/** Every REST operation needs a valid key: the request's Context, or 401 problem+json. */
export function requireContext(deps: ContextDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      req.ctx = requestContext(deps, req, res);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A request that carries a body but no valid key is refused before the body is read: it would be
 * refused anyway, and 20 keyless 19 MiB bulk bodies once took 10 to 54 s each to parse before their
 * 401 (issue 20). `Connection: close`, so the connection ends with the unread body instead of
 * Node reading it through to keep the connection alive. REST refuses every such body; GraphQL
 * (`keylessMayRead`) only one sent with a key that is not valid, since a body without any key may
 * be introspection, which it answers keyless (its 1 MiB JSON limit bounds it).
 */
export function refuseUnkeyedBody(opts: { keylessMayRead: boolean }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.auth || !hasBody(req) || (opts.keylessMayRead && !presentedKey(req.headers))) return next();
    res.setHeader("Connection", "close");
    next(unauthenticated());
  };
}

/**
 * A JSON bulk body with more rows than any bulk endpoint takes is refused as soon as it is parsed,
 * before anything walks it (the text check, the Idempotency-Key fingerprint, the service's rows):
 * a 9,000,000-element array took 12 s to refuse (issue 20). Each service checks its own limit.
 */
export function bulkRowCeiling(max: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    next(Array.isArray(req.body) && req.body.length > max ? tooManyRows("The body", max, req.body.length) : undefined);
  };
}

export function createV1Router(): express.Router {
  const router = express.Router();
  for (const e of endpoints) router[e.method](e.path, ...(e.middleware ?? []), endpoint(e));
  return router;
}

/** The media types a body may have: JSON routes, bulk routes (JSON or CSV, a workbook too for imports), uploads. */
const JSON_TYPES = ["application/json", "application/*+json"];
export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const MEDIA = {
  json: { accept: JSON_TYPES, named: ["application/json"] },
  bulk: { accept: [...JSON_TYPES, "text/csv"], named: ["application/json", "text/csv"] },
  workbook: {
    accept: [...JSON_TYPES, "text/csv", XLSX_MEDIA_TYPE],
    named: ["application/json", "text/csv", XLSX_MEDIA_TYPE],
  },
  upload: { accept: ["multipart/form-data"], named: ["multipart/form-data"] },
} as const;
export type Media = (typeof MEDIA)[keyof typeof MEDIA];

interface Resource {
  path: string;
  matches: (path: string) => boolean;
  /** Upper-case methods, HEAD wherever GET is. */
  methods: string[];
  /** The route per method (GET also answers HEAD), with the media its body may have. */
  routes: Map<string, { endpoint?: Endpoint; media?: Media }>;
}

/** `Allow` lists methods in this order. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The endpoint table as resources: every path with the methods it answers, matched as Express's
 * router matches (case-insensitive, optional trailing slash).
 */
function resources(table: Endpoint[], opts: { extraGets: string[] }): Resource[] {
  const byPath = new Map<string, Resource>();
  const resourceOf = (path: string) => {
    let r = byPath.get(path);
    if (!r) {
      r = { path, matches: templateMatcher(path), methods: [], routes: new Map() };
      byPath.set(path, r);
    }
    return r;
  };
  for (const e of table) {
    const media = e.upload
      ? MEDIA.upload
      : e.workbook
        ? MEDIA.workbook
        : e.csv
          ? MEDIA.bulk
          : e.body
            ? MEDIA.json
            : undefined;
    const r = resourceOf(e.path);
    const method = e.method.toUpperCase();
    if (!r.routes.has(method)) r.routes.set(method, { endpoint: e, media });
  }
  for (const path of opts.extraGets) resourceOf(path).routes.set("GET", {});
  for (const r of byPath.values()) {
    if (r.routes.has("GET")) r.routes.set("HEAD", r.routes.get("GET")!);
    r.methods = METHOD_ORDER.filter((m) => r.routes.has(m));
  }
  return [...byPath.values()];
}

/**
 * In front of authentication, for /v1 and /api/v1 (no key needed, no statement sent):
 * - a known path with a method it does not answer: 405 with `Allow` (OPTIONS: 204 with `Allow`);
 *   an unknown path goes on, to 401 or 404 as before;
 * - a body whose content type the route does not read: 415 naming the types it reads. A request
 *   without a body (none, or Content-Length: 0) is left to the route, as is a body on a route that
 *   reads none.
 */
export function restGuard(opts: { extraGets: string[] }) {
  const candidates = byFirstSegment(resources(endpoints, opts), (r) => r.path);
  return (req: Request, res: Response, next: NextFunction) => {
    const found = candidates(req.path).filter((r) => r.matches(req.path));
    if (found.length === 0) return next();
    const method = req.method.toUpperCase();
    const route = found.find((r) => r.routes.has(method))?.routes.get(method);
    if (!route) {
      const allow = METHOD_ORDER.filter((m) => found.some((r) => r.methods.includes(m))).join(", ");
      if (method === "OPTIONS") {
        res.setHeader("Allow", allow);
        return void res.status(204).end();
      }
      return next(methodNotAllowed(method, req.baseUrl + req.path, allow));
    }
    if (route.media) {
      const refused = unsupportedBody(req, route.media);
      if (refused) return next(refused);
    }
    next();
  };
}

export function methodNotAllowed(method: string, path: string, allow: string): DomainError {
  return new DomainError("METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; it allows ${allow}.`, undefined, {
    Allow: allow,
  });
}

/** A body is there when its length is declared above zero or it comes chunked. */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return (
    req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0" && length.trim() !== "0")
  );
}

/** UNSUPPORTED_MEDIA_TYPE when the request carries a body of a type outside `media`. */
export function unsupportedBody(
  req: Request,
  media: { accept: readonly string[]; named: readonly string[] },
): DomainError | undefined {
  if (!hasBody(req)) return undefined;
  const given = req.headers["content-type"];
  if (given && req.is([...media.accept])) return undefined;
  const what = given ? `a body of type ${given.split(";")[0].trim().slice(0, 100)}` : "a body without a Content-Type";
  // Accept-Post (W3C LDP, registered with IANA) tells a client what a POST would have taken.
  const headers = req.method === "POST" ? { "Accept-Post": media.named.join(", ") } : undefined;
  return new DomainError(
    "UNSUPPORTED_MEDIA_TYPE",
    `${req.method} ${req.baseUrl + req.path} does not take ${what}; send ${media.named.join(" or ")}.`,
    undefined,
    headers,
  );
}
