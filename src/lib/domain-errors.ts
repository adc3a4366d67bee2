/**
 * The one domain error type. Services throw it with a stable code; the REST error middleware
 * (src/http/error-responses.ts) and Apollo's formatError (src/graphql/format-error.ts) are the
 * only two places that turn it into a transport's error, both through `toDomainError`
 * (to-domain-error.ts).
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
export const businessRule = (message: string, errors?: FieldError[]) =>
  new DomainError("BUSINESS_RULE", message, errors);

/** The row a lookup found, or NOT_FOUND naming what was asked for (`Trade 12`). */
export function found<T>(row: T | null | undefined, what: string): T {
  if (!row) throw notFound(what);
  return row;
}

/** A delete's answer: true once it removed a row, NOT_FOUND when none of the caller's matched. */
export function removed({ count }: { count: number }, what: string): true {
  if (count === 0) throw notFound(what);
  return true;
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
