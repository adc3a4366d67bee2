import { randomUUID } from "node:crypto";
import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";

/**
 * The `idempotency_key` table: who holds a key, and the first answer once there is one. Every
 * decision is one statement the database arbitrates (a unique index, a conditional UPDATE), so
 * any number of API processes in front of one database agree on who runs a request.
 * These are system operations of the HTTP layer (like accounts.service), so they take the database.
 */

/** docs/conventions.md §7.2: a key answers for 24 h, then it is forgotten and may run again. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * A key still in progress after this long belongs to a process that died mid-request: a retry
 * takes it over. Longer than any request runs (a 20 MiB import included) so a slow first run is
 * never run twice.
 */
export const ABANDONED_AFTER_MS = 10 * 60 * 1000;

/** Whose namespace a key lives in: the account's own keys share one; each client has its own. */
export interface KeyScope {
  accountId: number;
  clientId: number | null;
}

export interface KeyRequest {
  method: string;
  path: string;
  fingerprint: string;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** Null when the answer was not kept (it carried a secret). */
  body: Uint8Array | null;
}

export type Claim =
  /** This run holds the key: run the request, then complete or release with `attempt`. */
  | { kind: "run"; attempt: string }
  /** An earlier run with the same request finished: its answer. */
  | { kind: "done"; answer: StoredAnswer }
  /** An earlier run with the same key is still going. */
  | { kind: "in-progress" }
  /** The key was used for a different request. */
  | { kind: "mismatch"; method: string; path: string };

interface Row {
  id: bigint;
  method: string;
  path: string;
  fingerprint: string;
  status: number | null;
  headers: unknown;
  body: Uint8Array | null;
  completed: boolean;
  /** Judged by the database's clock, the one clock every process shares. */
  stale: boolean;
}

const ms = (n: number) => Prisma.sql`(${n}::float8 * interval '1 millisecond')`;
const EXPIRED = Prisma.sql`created_at < now() - ${ms(KEY_LIFETIME_MS)}`;
const ABANDONED = Prisma.sql`(completed_at IS NULL AND created_at < now() - ${ms(ABANDONED_AFTER_MS)})`;

/** The row of a key in its namespace; each branch matches one of the two partial unique indexes. */
const keyIs = (scope: KeyScope, key: string) =>
  scope.clientId === null
    ? Prisma.sql`account_id = ${scope.accountId} AND client_id IS NULL AND key = ${key}`
    : Prisma.sql`client_id = ${scope.clientId} AND account_id = ${scope.accountId} AND key = ${key}`;

/**
 * Decides what a request with this key does. A live row is answered with a read only (a replay
 * writes nothing); a new key is inserted, and the unique index picks one winner among concurrent
 * inserts; an expired or abandoned row is taken over by a conditional UPDATE only one run wins.
 */
export async function claimKey(db: PrismaClient, scope: KeyScope, key: string, request: KeyRequest): Promise<Claim> {
  // Three rounds cover every interleaving: a row seen gone may come back, a row seen may go.
  for (let round = 0; round < 3; round++) {
    const [row] = await db.$queryRaw<Row[]>`
      SELECT id, method, path, fingerprint, status, headers, body, completed_at IS NOT NULL AS completed, (${EXPIRED} OR ${ABANDONED}) AS stale
      FROM idempotency_key WHERE ${keyIs(scope, key)}`;
    if (row && !row.stale) return decide(row, request);
    const attempt = randomUUID();
    if (!row) {
      const inserted = await db.$queryRaw<{ id: bigint }[]>`
        INSERT INTO idempotency_key (account_id, client_id, key, method, path, fingerprint, attempt)
        VALUES (${scope.accountId}, ${scope.clientId}::int, ${key}, ${request.method}, ${request.path}, ${request.fingerprint}, ${attempt}::uuid)
        ON CONFLICT DO NOTHING
        RETURNING id`;
      if (inserted.length === 1) return { kind: "run", attempt };
      continue;
    }
    // The WHERE is re-checked on the row's newest version under its lock, so of two runs taking
    // over the same row only one updates it; the other sees 0 rows and reads again.
    const taken = await db.$executeRaw`
      UPDATE idempotency_key
      SET method = ${request.method}, path = ${request.path}, fingerprint = ${request.fingerprint}, attempt = ${attempt}::uuid,
          status = NULL, headers = NULL, body = NULL, created_at = now(), completed_at = NULL
      WHERE id = ${row.id} AND (${EXPIRED} OR ${ABANDONED})`;
    if (taken === 1) return { kind: "run", attempt };
  }
  // Still contended after three rounds: another run is busy with the key right now.
  return { kind: "in-progress" };
}

function decide(row: Row, request: KeyRequest): Claim {
  if (row.fingerprint !== request.fingerprint) return { kind: "mismatch", method: row.method, path: row.path };
  if (!row.completed || row.status === null) return { kind: "in-progress" };
  return {
    kind: "done",
    answer: { status: row.status, headers: (row.headers ?? {}) as Record<string, string>, body: row.body },
  };
}

/** Stores the answer of the run that holds the key (`attempt`); a run taken over stores nothing. */
export async function completeKey(
  db: PrismaClient,
  scope: KeyScope,
  key: string,
  attempt: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.$executeRaw`
    UPDATE idempotency_key
    SET status = ${answer.status}, headers = ${JSON.stringify(answer.headers)}::jsonb, body = ${answer.body === null ? null : Buffer.from(answer.body)}::bytea, completed_at = now()
    WHERE ${keyIs(scope, key)} AND attempt = ${attempt}::uuid`;
}

/** Gives the key up (a 5xx, a transient refusal): a retry runs the request again. */
export async function releaseKey(db: PrismaClient, scope: KeyScope, key: string, attempt: string): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotency_key WHERE ${keyIs(scope, key)} AND attempt = ${attempt}::uuid`;
}

/**
 * Deletes up to `limit` expired rows. SKIP LOCKED lets processes purging at the same moment take
 * different rows instead of queueing behind each other; a row taken over meanwhile is fresh and
 * fails the age test.
 */
export async function purgeExpiredKeys(db: PrismaClient, limit = 500): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_key
    WHERE id IN (
      SELECT id FROM idempotency_key
      WHERE ${EXPIRED}
      ORDER BY created_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
      AND ${EXPIRED}`;
}
