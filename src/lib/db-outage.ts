import { driverCause } from "./db-errors";
import { DomainError } from "./domain-errors";

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs that mean "the database cannot serve now", not "this request is wrong": class 08
 * (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now, as
 * during a restart or failover), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** 53100 disk_full: the server has no room for the change, which is rolled back. */
const DISK_FULL_SQLSTATE = "53100";

/** pg's socket errors, and the driver adapter's names for them (@prisma/adapter-pg 7). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Prisma's codes for those kinds: P1001 not reachable, P1002/P1008 timed out, P1017 closed, P2024 pool timeout, P2037 too many connections. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/**
 * pg's own errors for a connection lost mid-query or never opened carry no code, only these
 * messages (pg 8, pg-pool 3); Prisma passes them through unwrapped.
 */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function classify(e: ErrorLike): "unavailable" | "disk-full" | undefined {
  const adapter = driverCause(e);
  const sqlState = adapter.sqlState ?? (typeof e.code === "string" ? e.code : undefined);
  if (sqlState === DISK_FULL_SQLSTATE || e.code === "ENOSPC") return "disk-full";
  if (sqlState && UNAVAILABLE_SQLSTATE.test(sqlState)) return "unavailable";
  if (adapter.kind && ADAPTER_KINDS.has(adapter.kind)) return "unavailable";
  if (typeof e.code === "string" && (SOCKET_CODES.has(e.code) || PRISMA_CODES.has(e.code))) return "unavailable";
  if (typeof e.message === "string" && PG_MESSAGES.test(e.message)) return "unavailable";
  return undefined;
}

export const databaseUnavailable = () =>
  new DomainError("UNAVAILABLE", "The database is not reachable right now. Retry shortly.", undefined, {
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });

export const storageFull = (detail = "The server is out of storage space") =>
  new DomainError("INSUFFICIENT_STORAGE", `${detail}: the change was not written. Retry once space has been freed.`);

/**
 * A DomainError when `error` says the database is unreachable (503 with Retry-After) or out of
 * space (507), else undefined. Looks through `cause` chains, since pg's connection-timeout error
 * wraps the socket error. Read by toDomainError (src/lib/to-domain-error.ts).
 */
export function outageError(error: unknown): DomainError | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as ErrorLike).cause, depth++) {
    const kind = classify(e as ErrorLike);
    if (kind === "unavailable") return databaseUnavailable();
    if (kind === "disk-full") return storageFull("The database is out of storage space");
  }
  return undefined;
}
