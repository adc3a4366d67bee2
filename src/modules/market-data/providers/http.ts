import { STATUS_CODES } from "node:http";
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  DelegateBackoff,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  wrap,
  type IBackoff,
  type IRetryBackoffContext,
} from "cockatiel";
import { RateLimiterMemory, RateLimiterQueue } from "rate-limiter-flexible";
import { ProviderError, type HttpClient } from "./provider";

/**
 * The resilience every provider's HTTP goes through (docs/data.md §1.3): "failure is a state, never
 * an outage". Per try a timeout; per call retries with backoff; per provider a circuit breaker and a
 * rate limit. A 429, a 5xx, a timeout or a network error is worth trying again; any other answer
 * (404 included) goes back to the provider, which knows what it means.
 */

/** A response as `fetch` gives it. `headers` is optional so a replaying test client need not fake any. */
export interface HttpResponse {
  status: number;
  headers?: { get(name: string): string | null };
  text(): Promise<string>;
}

/** `HttpClient` whose responses may carry headers (Retry-After); every `HttpClient` is one. */
export type RawHttpClient = (url: string, init?: Parameters<HttpClient>[1]) => Promise<HttpResponse>;

export interface ResilienceOptions {
  /** The provider's id, as messages and the status name it (`yahoo`, `rba`). */
  provider: string;
  /** Per try, reading the body included. */
  timeoutMs?: number;
  /** Tries in all, the first included. */
  tries?: number;
  /** The first wait between tries; later waits grow exponentially, with jitter. */
  backoffMs?: number;
  /** The longest wait between tries, a Retry-After included. */
  maxDelayMs?: number;
  /** Failed tries in a row that pause the provider. */
  breakAfter?: number;
  /** How long a pause lasts before one trial request is let through. */
  pauseMs?: number;
  /** Requests let through per window; more wait their turn (first come, first served). */
  rate?: { requests: number; perMs: number };
  /** Told of each retry before its wait, for the log. */
  onRetry?: (retry: { attempt: number; delayMs: number; reason: string }) => void;
}

/** Why a provider is or is not paused, for the status endpoint. */
export interface CircuitStatus {
  /** `half-open`: the pause is over and the next request is a trial (or one is under way). */
  state: "closed" | "open" | "half-open";
  /** When the pause ends (ISO instant); null when closed. */
  pausedUntil: string | null;
  /** The failure that paused it, as a user can read it; null when closed. */
  lastFailure: string | null;
}

export type ResilientHttpClient = RawHttpClient & { circuit(): CircuitStatus };

const DEFAULTS = {
  timeoutMs: 10_000,
  tries: 3,
  backoffMs: 1_000,
  maxDelayMs: 30_000,
  breakAfter: 5,
  pauseMs: 60_000,
  // A guess at politeness, not a documented limit: callers set each provider's own.
  rate: { requests: 2, perMs: 1_000 },
};

/** A try that got no answer (a timeout or a network error), already worded for a user. */
class NoAnswer extends Error {}

const retryable = (status: number) => status === 429 || status >= 500;
const isResponse = (value: unknown): value is HttpResponse =>
  typeof value === "object" && value !== null && "status" in value;

export function resilientHttp(inner: RawHttpClient, options: ResilienceOptions): ResilientHttpClient {
  const o = { ...DEFAULTS, ...options };
  const failed = handleWhen((error) => error instanceof NoAnswer).orWhenResult(
    (value) => isResponse(value) && retryable(value.status),
  );

  const exponential = new ExponentialBackoff({ initialDelay: o.backoffMs, maxDelay: o.maxDelayMs });
  // The server's Retry-After (seconds; an HTTP date is ignored) wins over the exponential step, capped.
  const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown>>((context, previous) => {
    const step = previous ? previous.next(context) : exponential.next();
    const hinted = "value" in context.result ? retryAfterMs(context.result.value) : undefined;
    return { delay: Math.min(hinted ?? step.duration, o.maxDelayMs), state: step };
  });
  // cockatiel's maxAttempts counts retries, not tries.
  const retries = retry(failed, { maxAttempts: o.tries - 1, backoff });
  // Inside the retry, so the breaker counts each try the provider actually failed.
  const breaker = circuitBreaker(failed, {
    halfOpenAfter: o.pauseMs,
    breaker: new ConsecutiveBreaker(o.breakAfter),
  });
  // Aggressive: a client that ignores its signal still gives the try up on time.
  const perTry = timeout(o.timeoutMs, TimeoutStrategy.Aggressive);
  const policy = wrap(retries, breaker);
  const queue = new RateLimiterQueue(new RateLimiterMemory({ points: o.rate.requests, duration: o.rate.perMs / 1000 }));

  let lastFailure: string | null = null;
  let pausedUntil = 0;
  breaker.onBreak(() => {
    pausedUntil = Date.now() + o.pauseMs;
  });
  if (o.onRetry) {
    const onRetry = o.onRetry;
    retries.onRetry((event) => {
      // Only responses are results the policy retries (see `failed`).
      const reason =
        "error" in event ? event.error.message : `HTTP ${describeStatus((event.value as HttpResponse).status)}`;
      onRetry({ attempt: event.attempt, delayMs: event.delay, reason });
    });
  }

  const paused = () =>
    `${o.provider} is paused until ${new Date(pausedUntil).toISOString()} after ${o.breakAfter} failures in a row` +
    (lastFailure ? ` (the last: ${lastFailure})` : "");

  const client: RawHttpClient = async (url, init) => {
    const host = new URL(url).host;
    const caller = init?.signal;
    let tries = 0;
    const oneTry = async ({ signal }: { signal: AbortSignal }): Promise<HttpResponse> => {
      caller?.throwIfAborted();
      await queue.removeTokens(1);
      caller?.throwIfAborted();
      tries++;
      let response: HttpResponse;
      try {
        response = await perTry.execute(
          ({ signal: trySignal }) => exchange(inner, url, init?.headers, trySignal),
          signal,
        );
      } catch (error) {
        // The caller gave up: not the provider's failure, so neither retried nor counted.
        caller?.throwIfAborted();
        const timedOut = error instanceof TaskCancelledError || (error instanceof Error && error.name === "AbortError");
        lastFailure = timedOut
          ? `${host} did not answer within ${seconds(o.timeoutMs)}`
          : `${host} could not be reached (${error instanceof Error ? error.message : String(error)})`;
        throw new NoAnswer(lastFailure);
      }
      if (retryable(response.status)) lastFailure = `${host} answered HTTP ${describeStatus(response.status)}`;
      return response;
    };

    const triedTimes = () => (tries === 1 ? "tried once" : `tried ${tries} times`);
    try {
      const response = await policy.execute(oneTry, caller);
      if (!retryable(response.status)) return response;
      throw new ProviderError(
        "unavailable",
        `${host} answered HTTP ${describeStatus(response.status)}; ${triedTimes()}`,
      );
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw new ProviderError("unavailable", paused());
      if (error instanceof NoAnswer) throw new ProviderError("unavailable", `${error.message}; ${triedTimes()}`);
      throw error;
    }
  };

  const circuit = (): CircuitStatus => {
    const failure = { pausedUntil: new Date(pausedUntil).toISOString(), lastFailure };
    if (breaker.state === CircuitState.Closed) return { state: "closed", pausedUntil: null, lastFailure: null };
    if (breaker.state === CircuitState.HalfOpen) return { state: "half-open", ...failure };
    // cockatiel stays Open until a call arrives after the pause; that call is the trial.
    return { state: Date.now() < pausedUntil ? "open" : "half-open", ...failure };
  };

  return Object.assign(client, { circuit });
}

/** `fetch` as a provider's client. */
export const fetchHttpClient: RawHttpClient = (url, init) =>
  fetch(url, { signal: init?.signal, headers: init?.headers });

/** One request and its body: read inside the try, so the timeout covers a server that stalls mid-body. */
async function exchange(
  inner: RawHttpClient,
  url: string,
  headers: Record<string, string> | undefined,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const response = await inner(url, { signal, headers });
  const body = await response.text();
  return { status: response.status, headers: response.headers, text: async () => body };
}

function retryAfterMs(value: unknown): number | undefined {
  const header = isResponse(value) ? value.headers?.get("retry-after")?.trim() : undefined;
  return header && /^\d+$/.test(header) ? Number(header) * 1000 : undefined;
}

function describeStatus(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
