import { DomainError } from "../lib/domain-errors";

/**
 * Token buckets (docs/conventions.md §8.2: default 10 requests/s, burst 50 per key). A bucket
 * holds up to `burst` tokens and refills continuously at `perSecond`; a request takes its tokens
 * only when the bucket holds them all, so a refused request spends nothing. Where the buckets are
 * kept is the store's business (src/http/rate-limit-store.ts): in this process's memory on the
 * embedded database, which admits one process, or in PostgreSQL, where every process of the
 * installation draws from the same bucket.
 */
export interface BucketPolicy {
  perSecond: number;
  burst: number;
}

/** A bucket after a draw: the tokens it holds now, and whether it held all that was asked. */
export interface Drawn {
  tokens: number;
  enough: boolean;
}

export interface BucketStore {
  /**
   * Refills `id`'s bucket up to now at `policy`'s rate (a new bucket is full), then, when it holds
   * at least `tokens`, takes them if `spend` (a check takes nothing). Atomic per bucket, across
   * every process that shares the store.
   */
  draw(id: string, tokens: number, spend: boolean, policy: BucketPolicy): Promise<Drawn>;
}

/** The tokens a bucket holds `elapsedMs` after it held `tokens` (a clock that stepped back adds none). */
export function refilled(tokens: number, elapsedMs: number, policy: BucketPolicy): number {
  return Math.min(policy.burst, tokens + (Math.max(0, elapsedMs) / 1000) * policy.perSecond);
}

/** One draw from a bucket holding `level` (already refilled): the same rule the SQL store applies. */
export function drawFrom(level: number, tokens: number, spend: boolean): Drawn {
  const enough = level >= tokens;
  return { tokens: enough && spend ? level - tokens : level, enough };
}

/** Whole seconds until a bucket holding `level` holds `tokens` (at most a full bucket), at least 1. */
export function retryAfterSeconds(level: number, tokens: number, policy: BucketPolicy): number {
  return Math.max(1, Math.ceil((Math.min(tokens, policy.burst) - level) / policy.perSecond));
}

/** What the `RateLimit-*` headers say about a bucket holding `level`. */
export function stateOf(level: number, policy: BucketPolicy): RateLimitState {
  return {
    limit: policy.burst,
    remaining: Math.max(0, Math.floor(level)),
    resetSeconds: Math.max(0, Math.ceil((policy.burst - level) / policy.perSecond)),
  };
}

/**
 * The buckets of one kind (per key, per client address). Buckets that have refilled are
 * forgotten by the store, since they behave exactly like new ones.
 */
export class TokenBuckets implements BucketPolicy {
  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly store: BucketStore,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  /**
   * Spends `tokens` (default one request's worth), or throws RATE_LIMITED with Retry-After and
   * spends nothing when the bucket cannot cover them all. `total` is what the whole request costs
   * when this is the rest of its price (for the message).
   */
  async take(id: string, tokens = 1, total = tokens): Promise<void> {
    const { refusal } = await this.attempt(id, tokens, total, true);
    if (refusal) throw refusal;
  }

  /** Throws RATE_LIMITED when the bucket holds fewer than `tokens`, without spending. */
  async check(id: string, tokens = 1, total = tokens): Promise<void> {
    const { refusal } = await this.attempt(id, tokens, total, false);
    if (refusal) throw refusal;
  }

  /** One draw: the bucket's level afterwards, and the refusal to throw when it fell short. */
  private async attempt(
    id: string,
    tokens: number,
    total: number,
    spend: boolean,
  ): Promise<{ level: number; refusal?: DomainError }> {
    if (!this.enabled) return { level: this.burst };
    const drawn = await this.store.draw(id, tokens, spend, this);
    if (drawn.enough) return { level: drawn.tokens };
    return { level: drawn.tokens, refusal: this.refusal(drawn.tokens, tokens, total) };
  }

  /** RATE_LIMITED for `tokens` (of a request costing `total`) that a bucket holding `level` lacks. */
  private refusal(level: number, tokens: number, total: number): DomainError {
    const retryAfter = retryAfterSeconds(level, tokens, this);
    // More than a full bucket can never pass: say so rather than let the client retry in vain.
    const message =
      total > this.burst
        ? `This request costs ${total} rate-limit tokens, more than the burst of ${this.burst}; split it into smaller requests.`
        : `Rate limit of ${this.perSecond} requests per second (burst ${this.burst}) exceeded; retry in ${retryAfter} s.`;
    return new DomainError("RATE_LIMITED", message, undefined, { "Retry-After": String(retryAfter) });
  }

  /** One id's bucket, for a request that learns its full price after it was let in. */
  bucket(id: string): RequestBucket {
    let spent = 0;
    // The level the last draw answered, and when: the headers refill it locally up to the moment
    // they are written rather than ask the store again.
    let seen: { level: number; at: number } | undefined;
    return {
      burst: this.burst,
      spend: async (total) => {
        if (total <= spent) return;
        // The rest alone is more than a full bucket: no draw could cover it, so none is made.
        if (this.enabled && seen && total - spent > this.burst) {
          throw this.refusal(refilled(seen.level, this.now() - seen.at, this), total - spent, total);
        }
        const { level, refusal } = await this.attempt(id, total - spent, total, true);
        seen = { level, at: this.now() };
        if (refusal) throw refusal;
        spent = total;
      },
      state: () => (this.enabled && seen ? stateOf(refilled(seen.level, this.now() - seen.at, this), this) : undefined),
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
  spend(total: number): Promise<void>;
  /** The bucket as it stands, for the answer's `RateLimit-*` headers; undefined when the limit is off. */
  state(): RateLimitState | undefined;
}
