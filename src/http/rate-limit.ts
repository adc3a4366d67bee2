import { DomainError } from "../lib/domain-errors";

/**
 * Token buckets (docs/conventions.md §8.2: default 10 requests/s, burst 50 per key). State is per process:
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
      for (const [k, b] of this.buckets)
        if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
      this.lastSweep = t;
    }
    const bucket = this.buckets.get(id) ?? { tokens: this.burst, at: t };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((t - bucket.at) / 1000) * this.perSecond);
    bucket.at = t;
    this.buckets.set(id, bucket);
    return bucket;
  }

  /**
   * Spends `tokens` (default one request's worth), or throws RATE_LIMITED with Retry-After and
   * spends nothing when the bucket cannot cover them all. `total` is what the whole request costs
   * when this is the rest of its price (for the message).
   */
  take(id: string, tokens = 1, total = tokens): void {
    if (!this.enabled) return;
    this.check(id, tokens, total);
    this.refill(id).tokens -= tokens;
  }

  /** Throws RATE_LIMITED when the bucket holds fewer than `tokens`, without spending. */
  check(id: string, tokens = 1, total = tokens): void {
    if (!this.enabled) return;
    const bucket = this.refill(id);
    if (bucket.tokens >= tokens) return;
    const retryAfter = Math.max(1, Math.ceil((Math.min(tokens, this.burst) - bucket.tokens) / this.perSecond));
    // More than a full bucket can never pass: say so rather than let the client retry in vain.
    const message =
      total > this.burst
        ? `This request costs ${total} rate-limit tokens, more than the burst of ${this.burst}; split it into smaller requests.`
        : `Rate limit of ${this.perSecond} requests per second (burst ${this.burst}) exceeded; retry in ${retryAfter} s.`;
    throw new DomainError("RATE_LIMITED", message, undefined, { "Retry-After": String(retryAfter) });
  }

  /**
   * What the `RateLimit-*` headers say about one id's bucket now: its size, the whole tokens left,
   * and the seconds until it is full again. Undefined when the limit is off.
   */
  state(id: string): RateLimitState | undefined {
    if (!this.enabled) return undefined;
    const { tokens } = this.refill(id);
    return {
      limit: this.burst,
      remaining: Math.max(0, Math.floor(tokens)),
      resetSeconds: Math.max(0, Math.ceil((this.burst - tokens) / this.perSecond)),
    };
  }

  /** One id's bucket, for a request that learns its full price after it was let in. */
  bucket(id: string): RequestBucket {
    let spent = 0;
    return {
      burst: this.burst,
      spend: (total) => {
        if (total <= spent) return;
        this.take(id, total - spent, total);
        spent = total;
      },
      state: () => this.state(id),
    };
  }
}

export interface RateLimitState {
  /** The burst: tokens in a full bucket. */
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again at the configured rate. */
  resetSeconds: number;
}

/**
 * The three headers of draft-ietf-httpapi-ratelimit-headers up to its -06 revision
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` in delta seconds): the form most
 * clients and gateways read; later revisions merge them into `RateLimit` + `RateLimit-Policy`.
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

/** The bucket a request is counted against (src/http/auth.ts). */
export interface RequestBucket {
  readonly burst: number;
  /** Brings what this request has spent up to `total` tokens (RATE_LIMITED when it cannot). */
  spend(total: number): void;
  /** The bucket as it stands, for the answer's `RateLimit-*` headers; undefined when the limit is off. */
  state(): RateLimitState | undefined;
}
