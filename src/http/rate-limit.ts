import { DomainError } from "../lib/errors";

/**
 * Token buckets (API.md §1 limits: default 10 requests/s, burst 50 per key). State is per process:
 * behind N processes a key gets up to N times the rate, the documented price of stateless
 * processes. Buckets that have refilled are forgotten, since they behave exactly like new ones.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastSweep = now();
  }

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  private refill(id: string) {
    const t = this.now();
    if (t - this.lastSweep > 60_000) {
      for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
      this.lastSweep = t;
    }
    const bucket = this.buckets.get(id) ?? { tokens: this.burst, at: t };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((t - bucket.at) / 1000) * this.perSecond);
    bucket.at = t;
    this.buckets.set(id, bucket);
    return bucket;
  }

  /** Throws RATE_LIMITED (with Retry-After) when the bucket is empty; otherwise spends a token. */
  take(id: string): void {
    this.check(id);
    this.refill(id).tokens -= 1;
  }

  /** Throws RATE_LIMITED when the bucket is empty, without spending. */
  check(id: string): void {
    if (!this.enabled) return;
    const bucket = this.refill(id);
    if (bucket.tokens >= 1) return;
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
    throw new DomainError(
      "RATE_LIMITED",
      `Rate limit of ${this.perSecond} requests per second (burst ${this.burst}) exceeded; retry in ${retryAfter} s.`,
      undefined,
      { "Retry-After": String(retryAfter) },
    );
  }
}
