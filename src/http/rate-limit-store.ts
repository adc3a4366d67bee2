import type { Database } from "../db";
import { drawFrom, refilled, TokenBuckets, type BucketPolicy, type BucketStore, type Drawn } from "./rate-limit";

/** How often buckets that have refilled are forgotten. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Buckets in this process's memory: the embedded database admits one process, so this process is
 * the installation, and a request pays no statement for its limit.
 */
export class MemoryBuckets implements BucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastSweep = now();
  }

  async draw(id: string, tokens: number, spend: boolean, policy: BucketPolicy): Promise<Drawn> {
    const t = this.now();
    if (t - this.lastSweep > SWEEP_EVERY_MS) {
      for (const [k, b] of this.buckets)
        if (refilled(b.tokens, t - b.at, policy) >= policy.burst) this.buckets.delete(k);
      this.lastSweep = t;
    }
    const bucket = this.buckets.get(id);
    const drawn = drawFrom(bucket ? refilled(bucket.tokens, t - bucket.at, policy) : policy.burst, tokens, spend);
    this.buckets.set(id, { tokens: drawn.tokens, at: t });
    return drawn;
  }
}

/**
 * Buckets in PostgreSQL (table rate_limit_bucket), one per key for the whole installation: N
 * processes together admit no more than the rate plus one burst. Each draw is one statement, an
 * upsert that refills, takes and answers under the row's lock, timed by the database's clock so
 * that processes on machines whose clocks disagree still share one refill.
 *
 * rate-limiter-flexible's RateLimiterPostgres (v11) was the first candidate, over this pool. Its
 * model does not fit: it counts points in fixed windows (`points + $2` until `expire`), not a
 * bucket refilling continuously, so a key may spend a whole allowance at the end of one window and
 * another at the start of the next; it adds the points of a refused request too (a client that
 * keeps knocking stays locked out, and a GraphQL operation refused for its price would still
 * pay it), where a refused request here spends nothing; and burst plus rate takes two limiters
 * (BurstyRateLimiter), two statements a request. The statement below keeps the semantics the
 * memory store has (src/http/rate-limit.ts drawFrom and refilled) in one statement.
 *
 * The table is UNLOGGED: its rows are a few seconds of state, not worth a WAL record or a flush on
 * every request; after a crash the server empties it, which only refills every bucket.
 */
export class PostgresBuckets implements BucketStore {
  private lastSweep = performance.now();

  /** `kind` keeps the per-key and per-address buckets of one installation apart in the one table. */
  constructor(
    private readonly query: NonNullable<Database["query"]>,
    private readonly kind: string,
    private readonly sweepEveryMs = SWEEP_EVERY_MS,
  ) {}

  async draw(id: string, tokens: number, spend: boolean, policy: BucketPolicy): Promise<Drawn> {
    this.sweepNowAndThen(policy);
    const { perSecond, burst } = policy;
    const [row] = await this.query<{ tokens: number; enough: boolean }>("rate_limit_draw", DRAW, [
      `${this.kind}:${id}`,
      burst,
      tokens,
      spend,
      perSecond,
    ]);
    return { tokens: Number(row.tokens), enough: row.enough };
  }

  /**
   * Forgets buckets that are full again, once a minute per process, beside the request that
   * notices (not awaited: the request does not wait for it, and a failed sweep waits for the
   * next). Deleting a full bucket changes nothing: a missing one starts full.
   */
  private sweepNowAndThen(policy: BucketPolicy): void {
    const t = performance.now();
    if (t - this.lastSweep <= this.sweepEveryMs) return;
    this.lastSweep = t;
    this.query("rate_limit_sweep", SWEEP, [`${this.kind}:%`, policy.perSecond, policy.burst]).catch(() => {});
  }
}

/**
 * One draw: $1 the bucket's id, $2 the burst, $3 the tokens asked, $4 whether to spend them, $5
 * the refill per second. EXCLUDED.at is the one clock reading of the statement. A statement that
 * waited for the row's lock may read an earlier time than the holder wrote: the refill counts no
 * negative time, and `at` never moves back (which would refill the same interval twice).
 */
const DRAW = `
  INSERT INTO rate_limit_bucket AS b (id, tokens, at, enough)
  SELECT $1::text, $2::float8 - CASE WHEN $4::boolean AND $2::float8 >= $3::float8 THEN $3::float8 ELSE 0 END,
         clock_timestamp(), $2::float8 >= $3::float8
  ON CONFLICT (id) DO UPDATE SET (tokens, at, enough) = (
    SELECT r.level - CASE WHEN $4::boolean AND r.level >= $3::float8 THEN $3::float8 ELSE 0 END,
           GREATEST(b.at, EXCLUDED.at),
           r.level >= $3::float8
    FROM (SELECT LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM EXCLUDED.at - b.at)::float8) * $5::float8) AS level) r)
  RETURNING tokens, enough`;

/** The buckets of kind $1 (a LIKE pattern) that have refilled, at $2 a second, to the burst $3. */
const SWEEP = `
  DELETE FROM rate_limit_bucket
  WHERE id LIKE $1::text
    AND tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - at)::float8) * $2::float8 >= $3::float8`;

/**
 * The installation's buckets: per key, and per client address for requests without a valid key.
 * In PostgreSQL when the database is a server (several processes may share it), else in memory.
 */
export function installationBuckets(
  db: Database,
  policy: BucketPolicy,
): { perKey: TokenBuckets; perAddress: TokenBuckets } {
  const store = (kind: string) => {
    if (db.kind !== "postgresql") return new MemoryBuckets();
    if (!db.query) throw new Error("A PostgreSQL database keeps the rate limit's buckets: it must answer query().");
    return new PostgresBuckets(db.query, kind);
  };
  return {
    perKey: new TokenBuckets(policy.perSecond, policy.burst, store("key")),
    perAddress: new TokenBuckets(policy.perSecond, policy.burst, store("address")),
  };
}
