import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { openDatabase, type Database } from "../../src/db";
import { withDatabase } from "./global-setup";

export interface TestDatabase extends Database {
  /** Empties every table but the seeded ones (sources) and the migration history. */
  reset(): Promise<void>;
  /** Runs raw SQL on the test database (outside Prisma), e.g. to inspect or break it. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The connection URL when on PostgreSQL (for a second client). */
  url?: string;
}

const KEEP = new Set(["_prisma_migrations", "source"]);

/** Seeds of tables that a reset empties (the security master references accounts, so it goes too). */
const MIGRATIONS = path.join(__dirname, "../../prisma/migrations");
const RESEED = fs
  .readdirSync(MIGRATIONS)
  .filter((d) => d.endsWith("_seed_securities"))
  .map((d) => fs.readFileSync(path.join(MIGRATIONS, d, "migration.sql"), "utf8"));

/** A database of its own for one test file: a copy of the migrated template or snapshot. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let db: Database;
  let sql: TestDatabase["sql"];
  let exec: (script: string) => Promise<void>;
  let drop = async () => {};
  let url: string | undefined;
  if (serverUrl) {
    const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${process.env.TEST_TEMPLATE_DATABASE}"`);
    await admin.end();
    url = withDatabase(serverUrl, name);
    db = await openDatabase({ url, migrate: false, poolSize: 25 });
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    sql = async (text, params) => (await pool.query(text, params)).rows;
    exec = async (script) => void (await pool.query(script));
    pool.on("error", () => {});
    drop = async () => {
      await pool.end();
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      // No FORCE: terminating a connection still open in this worker would surface as an
      // unhandled error in whichever test runs next. A database still in use is left behind
      // (the test server is thrown away).
      await a.query(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined);
      await a.end();
    };
  } else {
    const snapshot = fs.readFileSync(process.env.TEST_PGLITE_SNAPSHOT!);
    const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
    db = await openDatabase({ pglite, migrate: false });
    sql = async (text, params) => (await pglite.query(text, params)).rows as never;
    exec = async (script) => void (await pglite.exec(script));
  }
  const tables = (await sql<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`))
    .map((r) => r.tablename)
    .filter((t) => !KEEP.has(t));
  return Object.assign(Object.create(db) as Database, {
    url,
    sql,
    reset: async () => {
      await sql(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} RESTART IDENTITY CASCADE`);
      for (const seed of RESEED) await exec(seed);
    },
    close: async () => {
      await db.close();
      await drop();
    },
  }) as TestDatabase;
}
