import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "../config";
import { presentedKey } from "../context";
import type { Database } from "../db";
import { keyCacheOf } from "../modules/accounts/key-cache";
import { rateLimitHeaders, type RequestBucket, type TokenBuckets } from "./rate-limit";
import { installationBuckets } from "./rate-limit-store";

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
 *
 * Both are the installation's, not the process's: the buckets live in PostgreSQL when the
 * database is a server (src/http/rate-limit-store.ts), and a key lookup comes from this process's
 * cache only while it hears every key change (src/modules/accounts/key-cache.ts).
 */
export function authenticate(db: Database, config: Pick<Config, "rateLimitPerSecond" | "rateLimitBurst">) {
  const keys = keyCacheOf(db);
  const limits = installationBuckets(db, { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst });
  return async (req: Request, res: Response, next: NextFunction) => {
    // Set as the status line goes out, whoever writes it (a route, the error mapper, Apollo):
    // by then a GraphQL operation has spent its whole price.
    beforeHeaders(res, () => {
      const state = req.rateLimit?.state();
      if (state) for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
      if (res.statusCode === 401 && !res.hasHeader("WWW-Authenticate"))
        res.setHeader("WWW-Authenticate", challenge(req));
    });
    const spendFrom = async (buckets: TokenBuckets, id: string) => {
      req.rateLimit = buckets.bucket(id);
      await req.rateLimit.spend(1);
    };
    try {
      // The client's address only for requests without a valid key: req.ip parses the
      // forwarding headers each time it is read.
      const address = () => req.ip ?? "unknown";
      const key = presentedKey(req.headers);
      req.auth = null;
      if (!key) {
        await spendFrom(limits.perAddress, address());
        return next();
      }
      const auth = await keys.authenticate(key);
      if (!auth) {
        await spendFrom(limits.perAddress, address());
        return next();
      }
      await spendFrom(limits.perKey, String(auth.keyId));
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
