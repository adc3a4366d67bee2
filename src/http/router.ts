import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "pino";
import { buildContext, type Context } from "../context";
import type { PrismaClient } from "../db";
import type { AuthenticatedKey } from "../modules/accounts/accounts.service";
import { allocationModelRoutes } from "../modules/allocation-models/allocation-models.routes";
import { portfolioRoutes } from "../modules/portfolios/portfolios.routes";
import { cashRoutes } from "../modules/cash/cash.routes";
import { clientRoutes } from "../modules/clients/clients.routes";
import { customGroupRoutes } from "../modules/custom-groups/custom-groups.routes";
import { holdingRoutes } from "../modules/holdings/holdings.routes";
import { incomeRoutes } from "../modules/income/income.routes";
import { priceRoutes } from "../modules/prices/prices.routes";
import { taxSettingsRoutes } from "../modules/tax-settings/tax-settings.routes";
import { transactionRoutes } from "../modules/transactions/transactions.routes";
import { securityRoutes } from "../modules/securities/securities.routes";
import { sourceRoutes } from "../modules/sources/sources.routes";
import { tradeRoutes } from "../modules/trades/trades.routes";
import { endpoint, type Endpoint } from "./endpoint";

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
  ...customGroupRoutes,
  ...taxSettingsRoutes,
  ...allocationModelRoutes,
];

/** Every REST operation needs a valid key: the request's Context, or 401 problem+json. */
export function requireContext(db: PrismaClient, log: Logger) {
  return (req: Request, _res: Response, next: NextFunction) => {
    try {
      req.ctx = buildContext({ db, auth: req.auth, log: req.log ?? log, requestId: req.id as string });
      next();
    } catch (error) {
      next(error);
    }
  };
}

export function createV1Router(): express.Router {
  const router = express.Router();
  for (const e of endpoints) router[e.method](e.path, ...(e.middleware ?? []), endpoint(e));
  return router;
}
