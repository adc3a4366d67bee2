import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { presentedKey } from "../context";
import type { PrismaClient } from "../db";
import { authenticateKey } from "../modules/accounts/accounts.service";
import { rateLimitHeaders, type RequestBucket, type TokenBuckets } from "./rate-limit";

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
  return async (req: Request, res: Response, next: NextFunction) => {
    // Set as the status line goes out, whoever writes it (a route, the error mapper, Apollo):
    // by then a GraphQL operation has spent its whole price.
    beforeHeaders(res, () => {
      const state = req.rateLimit?.state();
      if (state) for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
      if (res.statusCode === 401 && !res.hasHeader("WWW-Authenticate"))
        res.setHeader("WWW-Authenticate", challenge(req));
    });
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

export const REALM = "portfolio-service";

/**
 * RFC 9110 §11.6.1: a 401 names the scheme to use. Bearer (RFC 6750) is the form of
 * `Authorization` the API takes; a key that was presented but is not valid adds
 * error="invalid_token" (RFC 6750 §3.1).
 */
function challenge(req: Request): string {
  return `Bearer realm="${REALM}"${presentedKey(req.headers) ? ', error="invalid_token"' : ""}`;
}

/**
 * Runs `listener` once, just before the response's status line and headers are written (what the
 * on-headers package does): every way of answering goes through writeHead, explicitly or not.
 */
export function beforeHeaders(res: ServerResponse, listener: () => void): void {
  const writeHead = res.writeHead;
  let done = false;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!done) {
      done = true;
      if (typeof args[0] === "number") this.statusCode = args[0];
      listener();
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
}
