import { DomainError } from "./domain-errors";
import { COLUMN_MAX } from "./money";

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) that a value sent by a client can cause: the
 * database refusing to store or compare it means the input was bad, so 400, never 500. Services
 * validate first; this is the safety net for whatever a schema missed. Division by zero (22012)
 * and the like stay 500: they are the server's own arithmetic.
 */
const INPUT_DATA_EXCEPTIONS: Record<string, string> = {
  "22001": "a text is longer than its column allows",
  "22003": "a number is out of range",
  "22007": "a date or time is not valid",
  "22008": "a date or time is out of range",
  "22019": "a search pattern has an invalid escape character",
  "22021": "a text contains a character that cannot be stored (NUL, or invalid UTF-8)",
  "22025": "a search pattern has an invalid escape sequence",
  "2201B": "a search pattern is not a valid regular expression",
  "22P02": "a value is not valid for its type",
  "22P05": "a text contains a character that cannot be stored",
};

/** Prisma's own codes for a value its column cannot take (out of range, too long, wrong type). */
const PRISMA_VALUE_ERRORS: Record<string, string> = {
  P2000: "a text is longer than its column allows",
  P2020: "a number is out of range",
  P2033: "a number does not fit a 64-bit integer",
};

/**
 * The Decimal fields of each model, for the fallback hint of an out-of-range number: the database
 * names no column, so the message names the model's candidates and their maxima (schemas bound
 * every input to its column; what reaches here is a derived value, such as a crossed FX rate).
 */
const RATE = COLUMN_MAX.rate.toFixed();
const UNITS = COLUMN_MAX.units.toFixed();
const AMOUNT = COLUMN_MAX.amount.toFixed();
const LIKELY_FIELDS: Record<string, string> = {
  Trade: `quantity or price (at most ${UNITS}), brokerage (at most ${AMOUNT}) or exchangeRate (at most ${RATE}; one taken from the FX table may be larger: give exchangeRate)`,
  TradeParcel: `parcels quantity (at most ${UNITS})`,
  Income: `an amount (at most ${AMOUNT}), drpQuantity or drpPrice (at most ${UNITS}) or exchangeRate (at most ${RATE}; one taken from the FX table may be larger: give exchangeRate)`,
  CashTransaction: `amount (at most ${AMOUNT}; a synced trade's or income's cash may be larger)`,
  CustomPrice: `price (at most ${UNITS})`,
  MarketPrice: `close (at most ${UNITS})`,
  FxRate: `rate (at most ${RATE})`,
  CarriedForwardLoss: `amount (at most ${AMOUNT})`,
  AllocationBucket: "targetPct or tolerancePct (at most 100)",
};

interface PrismaLikeError {
  name?: string;
  code?: string;
  message?: string;
  meta?: {
    modelName?: string;
    driverAdapterError?: { cause?: { kind?: string; originalCode?: string; code?: string } };
  };
}

/**
 * What Prisma's driver adapter says of a database error: its kind (UniqueConstraintViolation,
 * DatabaseNotReachable...) and PostgreSQL's SQLSTATE. Raw queries report every database error as
 * P2010, so these tell them apart; the error mappers all read them here.
 */
export function driverCause(error: unknown): { kind?: string; sqlState?: string } {
  const cause =
    error && typeof error === "object" ? (error as PrismaLikeError).meta?.driverAdapterError?.cause : undefined;
  return { kind: cause?.kind, sqlState: cause?.originalCode ?? cause?.code };
}

/**
 * A DomainError (VALIDATION_FAILED) when `error` is the database refusing a value, else
 * undefined. Read by toDomainError (src/lib/to-domain-error.ts), after its own Prisma mappings.
 */
export function dataError(error: unknown): DomainError | undefined {
  if (!error || typeof error !== "object") return undefined;
  const e = error as PrismaLikeError;
  if (typeof e.name !== "string" || !e.name.startsWith("PrismaClient")) return undefined;
  const { sqlState } = driverCause(e);
  const reason = (sqlState && INPUT_DATA_EXCEPTIONS[sqlState]) || (e.code && PRISMA_VALUE_ERRORS[e.code]);
  if (reason) {
    const likely =
      (sqlState === "22003" || e.code === "P2020") && e.meta?.modelName ? LIKELY_FIELDS[e.meta.modelName] : undefined;
    return new DomainError(
      "VALIDATION_FAILED",
      `The request is invalid: ${reason}${likely ? ` (likely ${likely})` : ""}.`,
    );
  }
  // A lone surrogate breaks Prisma's own JSON encoding of the query before it reaches the database.
  if (e.name === "PrismaClientUnknownRequestError" && /JSON Error: .*(hex escape|surrogate)/i.test(e.message ?? "")) {
    return new DomainError(
      "VALIDATION_FAILED",
      "The request is invalid: a text contains an unpaired UTF-16 surrogate.",
    );
  }
  return undefined;
}
