import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { presentedKey } from "../context";
import { DomainError } from "../lib/errors";

/**
 * Per-key token bucket (API.md §1 limits: default 10 requests/s, burst 50). Requests without a key
 * are limited per client address. State is per process: with N processes behind a balancer a key
 * gets up to N times the rate, which is the documented trade-off of keeping processes stateless.
 */
export function rateLimit(opts: { perSecond: number; burst: number; now?: () => number }) {
  const now = opts.now ?? (() => performance.now());
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = now();

  return (req: Request, res: Response, next: NextFunction) => {
    if (opts.perSecond <= 0) return next();
    const key = presentedKey(req.headers);
    const id = key ? "k:" + createHash("sha256").update(key).digest("base64url") : "ip:" + (req.ip ?? "unknown");
    const t = now();
    if (t - lastSweep > 60_000) {
      // Forget buckets that have refilled completely: they behave exactly like new ones.
      for (const [k, b] of buckets) if (b.tokens + ((t - b.at) / 1000) * opts.perSecond >= opts.burst) buckets.delete(k);
      lastSweep = t;
    }
    const bucket = buckets.get(id) ?? { tokens: opts.burst, at: t };
    bucket.tokens = Math.min(opts.burst, bucket.tokens + ((t - bucket.at) / 1000) * opts.perSecond);
    bucket.at = t;
    buckets.set(id, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      res.setHeader("RateLimit-Policy", `${opts.burst};w=${Math.ceil(opts.burst / opts.perSecond)}`);
      return next();
    }
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / opts.perSecond));
    next(new DomainError("RATE_LIMITED", `Rate limit of ${opts.perSecond} requests per second (burst ${opts.burst}) exceeded; retry in ${retryAfter} s.`, undefined, { "Retry-After": String(retryAfter) }));
  };
}
