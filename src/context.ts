import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { DEFAULT_ANALYTICS_LIMITS, type AnalyticsLimits } from "./config";
import type { PrismaClient } from "./db";
import { DomainError } from "./lib/domain-errors";
import { HeavyWork } from "./lib/heavy-work";
import type { AuthenticatedKey } from "./modules/accounts/accounts.service";
import type { SeriesCache } from "./modules/ledger/valuation/series-cache";

/**
 * What every service receives, built the same way for REST and GraphQL. GraphQL adds its
 * per-request DataLoaders (graphql/loaders.ts: GraphQLContext); REST builds none.
 */
/** Who is calling: the account itself (an adviser or investor), or one of its clients' login keys. */
export type Principal =
  | { kind: "account"; keyId: number }
  | { kind: "client"; keyId: number; clientId: number; permission: "Read" | "ReadWrite" };

export interface Context {
  db: PrismaClient;
  account: { id: number; name: string };
  principal: Principal;
  log: Logger;
  requestId: string;
  /** The process's computed daily series (ledger/valuation/series-cache.ts), shared by its requests. */
  series: SeriesCache;
  /** The process's analytics limits and its gate on heavy computations, shared by its requests. */
  analytics: AnalyticsBudget;
  /** The process's market-data refresh (modules/market-data/refresh.ts): runs started on request. */
  marketData: MarketDataJobs;
  /** Aborts when the client goes away before its answer (src/http/request-context.ts): sliced work stops. */
  signal: AbortSignal;
  /** This process's memory of API keys, told at once of a change a request made (KeyChanges). */
  keys: KeyChanges;
}

/**
 * This process's memory of API key lookups (modules/accounts/key-cache.ts), as a use case that
 * changes a key, a client's permission or a client tells it once its write has committed, with
 * the payload the database's notification will carry ('api_key:7', 'client:3'): the key is
 * refused here from the very next request, without waiting for the notification that tells
 * every process (and tells this one again, harmlessly).
 */
export interface KeyChanges {
  changed(payload: string): void;
}

const NO_KEY_MEMORY: KeyChanges = { changed: () => undefined };

/**
 * The market-data refresh as a request sees it (implemented by modules/market-data/refresh.ts):
 * start a run (or join the one running, in any process) and say how it is set up.
 */
export interface MarketDataJobs {
  readonly provider: string;
  readonly fxProvider: string;
  /** The cron pattern (Australia/Sydney), or "off". */
  readonly schedule: string;
  /** Days after the exchange's last trading day before a price is stale. */
  readonly staleDays: number;
  /** Starts a run of these securities (all with a trade when absent); answers its id, or the running one's. */
  refresh(request: {
    trigger: "request" | "schedule" | "start";
    /** One account's request: its securities only. */
    accountId?: number;
    securities?: { symbol: string; exchange: string }[];
  }): Promise<{ runId: number }>;
}

/** No provider, no schedule: a context built outside an app (a job, a test) refreshes nothing. */
export const NO_MARKET_DATA: MarketDataJobs = {
  provider: "none",
  fxProvider: "none",
  schedule: "off",
  staleDays: 3,
  refresh: () => Promise.reject(new DomainError("UNAVAILABLE", "Market data is not set up in this process.")),
};

/** What one analytics computation may ask for, and the gate on how many run at once (config.ts). */
export interface AnalyticsBudget {
  limits: AnalyticsLimits;
  heavyWork: HeavyWork;
}

/** One per process: every request of the process shares its gate. */
export function analyticsBudget(limits: AnalyticsLimits = DEFAULT_ANALYTICS_LIMITS): AnalyticsBudget {
  const { maxConcurrent: maxRunning, maxConcurrentPerKey: maxRunningPerKey, maxQueued, maxQueuedPerKey } = limits;
  return { limits, heavyWork: new HeavyWork({ maxRunning, maxRunningPerKey, maxQueued, maxQueuedPerKey }) };
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The API key of a request (docs/conventions.md §2.2): `Authorization: <key>`, `Authorization: Bearer
 * <key>`, or `x-api-key: <key>`. Returns undefined when none is presented.
 */
export function presentedKey(headers: Headers): string | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();
  const auth = first(headers.authorization);
  if (auth) {
    const bearer = /^Bearer\s+(.+)$/i.exec(auth);
    return bearer ? bearer[1].trim() : auth;
  }
  return first(headers["x-api-key"]) || undefined;
}

export const unauthenticated = () =>
  new DomainError(
    "UNAUTHENTICATED",
    "A valid API key is required: send it as `Authorization: <key>`, `Authorization: Bearer <key>` or `x-api-key: <key>`.",
  );

/** A signal of its own (listeners added to a shared one would never be let go). */
const neverAborts = () => new AbortController().signal;

/**
 * The request's Context from its authenticated key (src/http/auth.ts); UNAUTHENTICATED without one.
 * `series` is the process's cache (a job or a test passes its own); without `analytics` the
 * context has its own gate; without `signal`, it never aborts.
 */
export function buildContext(args: {
  db: PrismaClient;
  auth: AuthenticatedKey | null | undefined;
  log: Logger;
  requestId?: string;
  series: SeriesCache;
  analytics?: AnalyticsBudget;
  marketData?: MarketDataJobs;
  /** The signal, or what makes it when a service first asks (most requests never do). */
  signal?: AbortSignal | (() => AbortSignal);
  keys?: KeyChanges;
}): Context {
  const { auth } = args;
  if (!auth) throw unauthenticated();
  const requestId = args.requestId ?? randomUUID();
  let log: Logger | undefined;
  let signal: AbortSignal | undefined;
  return {
    db: args.db,
    account: auth.account,
    principal: auth.client
      ? ({ kind: "client", keyId: auth.keyId, clientId: auth.client.id, permission: auth.client.permission } as const)
      : ({ kind: "account", keyId: auth.keyId } as const),
    // Made when first used: most requests write no line of their own, and a child logger per
    // request was a measurable part of a small read's time.
    get log() {
      return (log ??= args.log.child({ accountId: auth.account.id }));
    },
    requestId,
    series: args.series,
    analytics: args.analytics ?? analyticsBudget(),
    marketData: args.marketData ?? NO_MARKET_DATA,
    get signal() {
      return (signal ??= typeof args.signal === "function" ? args.signal() : (args.signal ?? neverAborts()));
    },
    keys: args.keys ?? NO_KEY_MEMORY,
  };
}
