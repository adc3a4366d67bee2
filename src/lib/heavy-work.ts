import { DomainError, type ErrorCode } from "./domain-errors";
import { clientClosed } from "./slices";

/**
 * A gate on heavy computations (analytics): at most `maxRunning` at once in the process and
 * `maxRunningPerKey` for one API key; the rest wait in one FIFO queue, at most `maxQueued` in all
 * and `maxQueuedPerKey` for one key. Beyond a key's share: 429 (that key is asking too much at
 * once); beyond the process's queue: 503 (the service is full). Both with Retry-After, and both
 * refused before anything runs. A waiting request whose client hangs up leaves the queue; a slot
 * is given back however the work ends (an answer, an error, an abort).
 *
 * Node runs the computations on one thread, in slices (lib/slices.ts): the cap is not about CPUs
 * but about memory (each holds its engine's arrays) and fairness (a key's backlog waits behind its
 * own running work, while other keys take the other slots).
 */
export interface HeavyWorkLimits {
  maxRunning: number;
  maxRunningPerKey: number;
  maxQueued: number;
  maxQueuedPerKey: number;
}

/** Seconds a refused client is asked to wait: computations within the analytics limits take about that. */
export const RETRY_AFTER_SECONDS = 1;

interface Waiter {
  key: string;
  admit: () => void;
}

export class HeavyWork {
  private running = 0;
  private readonly byKey = new Map<string, { running: number; waiting: number }>();
  private readonly queue: Waiter[] = [];

  constructor(readonly limits: HeavyWorkLimits) {}

  /** Runs `work` once a slot is free for the process and for `key`; refuses (429/503) when it would wait beyond the queues. */
  async run<T>(key: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    await this.acquire(key, signal);
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** Computations running and waiting, in all and for one key (tests, diagnostics). */
  stats(key?: string): { running: number; waiting: number } {
    if (key !== undefined) return { ...(this.byKey.get(key) ?? { running: 0, waiting: 0 }) };
    return { running: this.running, waiting: this.queue.length };
  }

  private entry(key: string) {
    let e = this.byKey.get(key);
    if (!e) this.byKey.set(key, (e = { running: 0, waiting: 0 }));
    return e;
  }

  private canRun(key: string): boolean {
    return this.running < this.limits.maxRunning && (this.byKey.get(key)?.running ?? 0) < this.limits.maxRunningPerKey;
  }

  private take(key: string): void {
    this.running++;
    this.entry(key).running++;
  }

  private acquire(key: string, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(clientClosed());
    // Nobody eligible waits while a slot is free (release admits them), so taking it jumps no one.
    if (this.canRun(key)) {
      this.take(key);
      return Promise.resolve();
    }
    const mine = this.entry(key);
    // The key's own work in the way: its share is used. Nothing of its own: the process is full.
    if (mine.running + mine.waiting > 0 && mine.waiting >= this.limits.maxQueuedPerKey) {
      this.forget(key);
      const { maxRunningPerKey: running, maxQueuedPerKey: waiting } = this.limits;
      throw busy(
        "RATE_LIMITED",
        `This API key already has ${mine.running} heavy computation(s) (analytics, tax reports, rebalancing) running and ${mine.waiting} waiting, its share (ANALYTICS_MAX_CONCURRENT_PER_KEY ${running}, ANALYTICS_MAX_QUEUED_PER_KEY ${waiting}); retry in ${RETRY_AFTER_SECONDS} s.`,
      );
    }
    if (this.queue.length >= this.limits.maxQueued || mine.waiting >= this.limits.maxQueuedPerKey) {
      this.forget(key);
      throw busy(
        "UNAVAILABLE",
        `The service is running all the heavy computations (analytics, tax reports, rebalancing) it allows (ANALYTICS_MAX_CONCURRENT ${this.limits.maxRunning}) with ${this.queue.length} waiting (ANALYTICS_MAX_QUEUED ${this.limits.maxQueued}); retry in ${RETRY_AFTER_SECONDS} s.`,
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at < 0) return;
        this.queue.splice(at, 1);
        mine.waiting--;
        this.forget(key);
        reject(clientClosed());
      };
      const waiter: Waiter = {
        key,
        admit: () => {
          signal?.removeEventListener("abort", onAbort);
          mine.waiting--;
          this.take(key);
          resolve();
        },
      };
      this.queue.push(waiter);
      mine.waiting++;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private release(key: string): void {
    this.running--;
    this.entry(key).running--;
    this.forget(key);
    // The first waiters that may run now, in arrival order (a key at its share is passed over).
    for (let i = 0; i < this.queue.length && this.running < this.limits.maxRunning;) {
      const waiter = this.queue[i];
      if (!this.canRun(waiter.key)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      waiter.admit();
    }
  }

  /** Drops a key's entry once it has nothing running or waiting (the map holds active keys only). */
  private forget(key: string): void {
    const e = this.byKey.get(key);
    if (e && e.running === 0 && e.waiting === 0) this.byKey.delete(key);
  }
}

/**
 * RATE_LIMITED or UNAVAILABLE with Retry-After. The `extensions.http` is for GraphQL: graphql-js
 * gives a resolver's error the original error's `extensions`, and Apollo answers with the status and
 * headers it finds there, so a refused GraphQL field answers 429/503 with Retry-After as REST does.
 */
class Busy extends DomainError {
  get extensions() {
    return {
      http: {
        status: this.status,
        headers: new Map(Object.entries(this.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      },
    };
  }
}

const busy = (code: Extract<ErrorCode, "RATE_LIMITED" | "UNAVAILABLE">, message: string) =>
  new Busy(code, message, undefined, { "Retry-After": String(RETRY_AFTER_SECONDS) });

/** A request's heavy computations not yet run, each with its caller's promise to settle. */
type Pending = { run: () => Promise<void>; fail: (error: unknown) => void }[];
const byRequest = new WeakMap<object, Pending>();

/**
 * Runs a heavy computation (analytics, tax reports, rebalancing) through the process's gate under
 * the caller's API key: a slot, or 429/503 with Retry-After. A client that hangs up while waiting
 * leaves the queue; the slot is given back however the work ends. One request holds one slot at
 * most: a GraphQL request asking for many (`portfolios { performance }` over 30 portfolios) runs
 * them one after another in the slot its first one took, instead of queueing 30 under its own key
 * and refusing itself. A use case calls it once, at its entry: one that ran inside another's would
 * wait for it to finish.
 */
export function heavyWork<T>(
  ctx: { analytics: { heavyWork: HeavyWork }; principal: { keyId: number }; signal?: AbortSignal },
  work: () => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry = { run: () => work().then(resolve, reject), fail: reject };
    const pending = byRequest.get(ctx);
    if (pending) return void pending.push(entry);
    const mine: Pending = [entry];
    byRequest.set(ctx, mine);
    ctx.analytics.heavyWork
      .run(`key:${ctx.principal.keyId}`, ctx.signal, async () => {
        // Taken and emptied in one synchronous step: a computation asked for later opens a new turn.
        for (let next = mine.shift(); next; next = mine.shift()) await next.run();
        byRequest.delete(ctx);
      })
      .catch((error: unknown) => {
        byRequest.delete(ctx);
        for (const e of mine.splice(0)) e.fail(error);
      });
  });
}
