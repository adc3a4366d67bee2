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
  const reset = await resetter(tables, sql, exec);
  return Object.assign(Object.create(db) as Database, {
    url,
    sql,
    reset,
    close: async () => {
      await db.close();
      await drop();
    },
  }) as TestDatabase;
}

/**
 * The reset between tests: every table but KEEP emptied, the sequences they own restarted, the
 * seeded master securities as the migration wrote them, and the key caches told (the '*' the
 * TRUNCATE trigger on api_key sends).
 *
 * As superuser (PGlite always; the CI server too) this DELETEs with triggers and foreign-key
 * checks off (`session_replication_role = replica`) in one DO block, and keeps the master
 * securities unless their hash shows a test changed one: a TRUNCATE of 35 tables makes new files
 * for every table and index, 50-70 ms a test on PGlite against about 15 for the DELETEs, and the
 * reseed was another 17. Without superuser, TRUNCATE … RESTART IDENTITY and the reseed.
 */
async function resetter(
  tables: string[],
  sql: TestDatabase["sql"],
  exec: (script: string) => Promise<void>,
): Promise<() => Promise<void>> {
  const truncate = async () => {
    await sql(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} RESTART IDENTITY CASCADE`);
    for (const seed of RESEED) await exec(seed);
  };
  const [{ rolsuper }] = await sql<{ rolsuper: boolean }>(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`);
  if (!rolsuper) return truncate;
  // The sequences the cleared tables own (TRUNCATE … RESTART IDENTITY restarts exactly these).
  const owned = await sql<{ seq: string; tbl: string }>(
    `SELECT s.oid::regclass::text AS seq, t.relname AS tbl FROM pg_class s
       JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
       JOIN pg_class t ON t.oid = d.refobjid
     WHERE s.relkind = 'S' AND t.relname = ANY($1)`,
    [tables],
  );
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const restart = (tbl: (t: string) => boolean) =>
    owned
      .filter((o) => tbl(o.tbl))
      .map((o) => `PERFORM setval(${quote(o.seq)}, 1, false);`)
      .join(" ");
  const securitySeq = owned.find((o) => o.tbl === "security")?.seq;
  if (!securitySeq) return truncate;
  const masterHash = `SELECT md5(coalesce(string_agg(s::text, E'\\n' ORDER BY s.id), '')) AS h FROM "security" s`;
  const notify = `PERFORM pg_notify('api_key_changed', '*');`;
  const clear = `DO $$ BEGIN SET LOCAL session_replication_role = replica;
    ${tables
      .filter((t) => t !== "security")
      .map((t) => `DELETE FROM "${t}";`)
      .join(" ")}
    DELETE FROM "security" WHERE account_id IS NOT NULL;
    ${restart((t) => t !== "security")}
    PERFORM setval(${quote(securitySeq)}, coalesce((SELECT max(id) FROM "security"), 1), (SELECT count(*) > 0 FROM "security"));
    ${notify} END $$`;
  const reseed = async () => {
    await exec(
      `DO $$ BEGIN SET LOCAL session_replication_role = replica; DELETE FROM "security"; ${restart((t) => t === "security")} END $$`,
    );
    for (const seed of RESEED) await exec(seed);
    return (await sql<{ h: string }>(masterHash))[0].h;
  };
  let clean = (await sql<{ h: string }>(masterHash))[0].h;
  return async () => {
    await exec(clear);
    if ((await sql<{ h: string }>(masterHash))[0].h !== clean) clean = await reseed();
  };
}
