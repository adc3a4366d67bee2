import { dataError, driverCause } from "./db-errors";
import { outageError } from "./db-outage";
import { DomainError } from "./domain-errors";

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
    if (e.code === "P2002" || kind === "UniqueConstraintViolation")
      return new DomainError("CONFLICT", "The change conflicts with an existing record.");
    if (e.code === "P2025") return new DomainError("NOT_FOUND", "The record was not found.");
    // A row the change refers to was deleted by a request that committed first.
    if (e.code === "P2003" || kind === "ForeignKeyConstraintViolation")
      return new DomainError("NOT_FOUND", "A record the change refers to was not found.");
    // Deadlock (40P01) or serialization failure (40001): writes take their locks in one order so
    // this should not happen; if it does, the transaction was rolled back whole and may be retried.
    if (e.code === "P2034" || kind === "TransactionWriteConflict")
      return new DomainError("CONFLICT", "The change collided with a concurrent change and was not written; retry it.");
  }
  // A value the database refused to store (NUL, out of range...) is the client's: 400 (db-errors.ts).
  const refusedValue = dataError(error);
  if (refusedValue) return refusedValue;
  // The database unreachable (503, Retry-After) or out of space (507): db-outage.ts.
  const outage = outageError(error);
  if (outage) return outage;
  return new DomainError("INTERNAL", "An unexpected error occurred.");
}
