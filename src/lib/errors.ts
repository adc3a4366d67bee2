import { dataError, driverCause } from "./db-errors";
import { outageError } from "./db-outage";

/**
 * The one domain error type. Services throw it with a stable code; the REST error middleware
 * (src/http/errors.ts) and Apollo's formatError (src/graphql/errors.ts) are the only two places
 * that turn it into a transport's error, both through `toDomainError`.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, title: "Validation failed" },
  UNAUTHENTICATED: { status: 401, title: "Unauthenticated" },
  FORBIDDEN: { status: 403, title: "Forbidden" },
  NOT_FOUND: { status: 404, title: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed" },
  CONFLICT: { status: 409, title: "Conflict" },
  PAYLOAD_TOO_LARGE: { status: 413, title: "Payload too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type" },
  BUSINESS_RULE: { status: 422, title: "Business rule violated" },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: "Idempotency key reused" },
  RATE_LIMITED: { status: 429, title: "Too many requests" },
  // nginx's 499: the client hung up and its work was stopped; nobody reads the answer, logs do.
  CLIENT_CLOSED: { status: 499, title: "Client closed request" },
  INTERNAL: { status: 500, title: "Internal server error" },
  UNAVAILABLE: { status: 503, title: "Service unavailable" },
  INSUFFICIENT_STORAGE: { status: 507, title: "Insufficient storage" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One offending input field: `path` in dotted form with indexes, e.g. `buckets[2].targetPct`. */
export interface FieldError {
  path: string;
  message: string;
  /** For bulk inputs (CSV or JSON arrays): the line of the offending row. */
  line?: number;
}

/**
 * An answer lists at most this many bad fields, the first ones, and `errorCount` gives the total:
 * 50,000 bad import rows once made a 30 MiB answer of 250,000 errors (issue 20).
 */
export const MAX_LISTED_ERRORS = 100;

export class DomainError extends Error {
  /** The first MAX_LISTED_ERRORS offending fields. */
  readonly errors?: FieldError[];
  /** How many there were, when more than the listed ones. */
  readonly errorCount?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "DomainError";
    this.errors = errors && errors.length > MAX_LISTED_ERRORS ? errors.slice(0, MAX_LISTED_ERRORS) : errors;
    if (errors && errors.length > MAX_LISTED_ERRORS) this.errorCount = errors.length;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} was not found.`);
export const validationFailed = (message: string, errors?: FieldError[]) =>
  new DomainError("VALIDATION_FAILED", message, errors);
export const businessRule = (message: string) => new DomainError("BUSINESS_RULE", message);

interface PrismaLikeError {
  name?: string;
  code?: string;
  meta?: { target?: unknown; modelName?: string };
}

/**
 * Normalises anything thrown into a DomainError. Prisma's known request errors map here, once:
 * P2002 (unique violation) → CONFLICT, P2025 (record not found) and P2003 (foreign key) →
 * NOT_FOUND, P2034 (deadlock, serialization failure) → CONFLICT. Everything else is INTERNAL and
 * carries no detail of its own, so no stack or SQL can leak to a client.
 */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const e = error as PrismaLikeError | undefined;
  if (e && typeof e === "object" && typeof e.code === "string" && e.name === "PrismaClientKnownRequestError") {
    // Raw queries report every database error as P2010; the driver adapter's kind tells them apart.
    const { kind } = driverCause(e);
    if (e.code === "P2002" || kind === "UniqueConstraintViolation") return new DomainError("CONFLICT", "The change conflicts with an existing record.");
    if (e.code === "P2025") return new DomainError("NOT_FOUND", "The record was not found.");
    // A row the change refers to was deleted by a request that committed first.
    if (e.code === "P2003" || kind === "ForeignKeyConstraintViolation") return new DomainError("NOT_FOUND", "A record the change refers to was not found.");
    // Deadlock (40P01) or serialization failure (40001): writes take their locks in one order so
    // this should not happen; if it does, the transaction was rolled back whole and may be retried.
    if (e.code === "P2034" || kind === "TransactionWriteConflict") return new DomainError("CONFLICT", "The change collided with a concurrent change and was not written; retry it.");
  }
  // A value the database refused to store (NUL, out of range...) is the client's: 400 (db-errors.ts).
  const refusedValue = dataError(error);
  if (refusedValue) return refusedValue;
  // The database unreachable (503, Retry-After) or out of space (507): db-outage.ts.
  const outage = outageError(error);
  if (outage) return outage;
  return new DomainError("INTERNAL", "An unexpected error occurred.");
}

/** For "find" use cases (GraphQL's nullable lookups): NOT_FOUND becomes null, other errors stay. */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof DomainError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
