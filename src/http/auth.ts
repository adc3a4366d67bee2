import type { NextFunction, Request, Response } from "express";
import { presentedKey } from "../context";
import type { PrismaClient } from "../db";
import { authenticateKey } from "../modules/accounts/accounts.service";
import type { RequestBucket, TokenBuckets } from "./rate-limit";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The bucket this request spent its token from; GraphQL spends more from it by cost. */
      rateLimit?: RequestBucket;
    }
  }
}

/**
 * Resolves the API key once per request, for REST and GraphQL alike, and applies the rate limits:
 * a valid key spends from its own bucket; requests without a valid key (no key, an unknown key,
 * key guessing) spend from their client address's bucket, so one client cannot get around its
 * limit by inventing keys, and never blocks a valid key that shares its address. Every request
 * spends one token here; a GraphQL operation spends the rest of its price once it is parsed
 * (src/graphql/limits.ts). The outcome is `req.auth` (null without a valid key); whether that is
 * acceptable is the transport's call (GraphQL lets introspection through).
 */
export function authenticate(db: PrismaClient, limits: { perKey: TokenBuckets; perAddress: TokenBuckets }) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const spendFrom = (buckets: TokenBuckets, id: string) => {
      req.rateLimit = buckets.bucket(id);
      req.rateLimit.spend(1);
    };
    try {
      const address = req.ip ?? "unknown";
      const key = presentedKey(req.headers);
      req.auth = null;
      if (!key) {
        spendFrom(limits.perAddress, address);
        return next();
      }
      const auth = await authenticateKey(db, key);
      if (!auth) {
        spendFrom(limits.perAddress, address);
        return next();
      }
      spendFrom(limits.perKey, String(auth.keyId));
      req.auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}
