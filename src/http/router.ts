import type { NextFunction, Request, Response } from "express";
import { presentedKey, unauthenticated, type Context } from "../context";
import { requestContext, type ContextDeps } from "./request-context";
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
import type { Endpoint } from "./endpoint";
import { tooManyRows } from "../lib/bulk";
import { DomainError } from "../lib/domain-errors";

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

export function methodNotAllowed(method: string, path: string, allow: string): DomainError {
  return new DomainError("METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; it allows ${allow}.`, undefined, {
    Allow: allow,
  });
}

/** A body is there when its length is declared above zero or it comes chunked. */
export function hasBody(req: Request): boolean {
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
