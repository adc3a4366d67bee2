import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./lib/paths";

/**
 * Applies pending `prisma/migrations/<name>/migration.sql` files in-process, on PGlite and on a
 * PostgreSQL server alike. It keeps Prisma's own `_prisma_migrations` table (same DDL, sha256
 * checksums), so `prisma migrate status` agrees with it. A session-level advisory lock makes
 * concurrent starts of several API processes safe: one applies, the others wait and find nothing
 * left to do.
 */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a multi-statement script. */
  exec(sql: string): Promise<void>;
}

// Any fixed 64-bit number; it names this application's migration lock in pg_locks.
const MIGRATION_LOCK_ID = 4_716_203_559;

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma/migrations");

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

let appliedInProcess: string[] | undefined;

/**
 * The migrations the last run in this process applied (empty: none were pending), or undefined
 * when none ran. The database opener runs them; the process entry reports them in its start-up log.
 */
export function migrationsAppliedInProcess(): readonly string[] | undefined {
  return appliedInProcess;
}

/** Returns the names of the migrations it applied. */
export async function applyMigrations(db: SqlSession, migrations = readMigrations()): Promise<string[]> {
  await db.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
  try {
    await db.exec(MIGRATIONS_TABLE);
    const { rows } = await db.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      const checksum = applied.get(m.name);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) {
          throw new Error(
            `Migration ${m.name} was changed after it was applied (checksum mismatch). Write a new migration instead.`,
          );
        }
        continue;
      }
      await db.exec("BEGIN");
      try {
        await db.exec(m.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [crypto.randomUUID(), m.checksum, m.name],
        );
        await db.exec("COMMIT");
      } catch (error) {
        await db.exec("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`);
      }
      done.push(m.name);
    }
    appliedInProcess = done;
    return done;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
  }
}
