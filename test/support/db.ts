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

/**
 * A database for one test file, as the migrated template or snapshot left it: on PostgreSQL a new
 * database from the template; on PGlite the one the worker lends (lend below), else one booted
 * from the snapshot.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let db: Database;
  let sql: TestDatabase["sql"];
  let reset: () => Promise<void>;
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
    const exec = async (script: string) => void (await pool.query(script));
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
    reset = await resetter(await clearedTables(sql), sql, exec);
  } else {
    const worker = (globalThis as { __workerDatabases?: WorkerDatabases }).__workerDatabases;
    const borrowed = worker?.take();
    const pglite = borrowed ?? (await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(snapshotFile())]) }));
    sql = async (text, params) => (await pglite.query(text, params)).rows as never;
    const exec = async (script: string) => void (await pglite.exec(script));
    reset = await resetter(await clearedTables(sql), sql, exec);
    // The first database of a worker, as a file finds it after the reset: what a clean one is.
    if (worker && !worker.pristine) {
      await reset();
      worker.pristine = await fingerprint(sql);
    }
    db = await openDatabase({ pglite: worker ? lend(pglite, worker, sql, reset) : pglite, migrate: false });
  }
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

async function clearedTables(sql: TestDatabase["sql"]): Promise<string[]> {
  const rows = await sql<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  return rows.map((r) => r.tablename).filter((t) => !KEEP.has(t));
}

function snapshotFile(): string {
  const file = process.env.TEST_PGLITE_SNAPSHOT;
  if (!file) throw new Error("TEST_PGLITE_SNAPSHOT is not set: run the tests through jest (global-setup.ts makes it)");
  return file;
}

/** What a jest worker keeps across test files (environment.js). */
export interface WorkerDatabases {
  /** A clean migrated database no file holds, or undefined. */
  take(): PGlite | undefined;
  /** Keeps a clean database for the next file (closes it when one is kept already). */
  give(db: PGlite): Promise<void>;
  /** The fingerprint of a clean database, once the worker's first one was made. */
  pristine: string | undefined;
}

/** How long a finished file's database may take to come back clean before it is dropped. */
const GIVE_BACK_MS = 5_000;

/**
 * The worker's database as one file sees it: closing it hands it back for the next file instead,
 * once it is clean. Clean is checked, not assumed: the session reset (DISCARD ALL: settings,
 * LISTENs, advisory locks, temporary tables, prepared statements; it fails inside a transaction),
 * the file's reset (every table emptied, sequences restarted, master securities as seeded) and the
 * sequences no table owns restarted, then the fingerprint of schema, roles, settings, kept tables
 * and sequences equal to the worker's first database after the same reset. Anything else (a schema a test left changed, a transaction left
 * open, a database closed underneath) and it is closed, and the next file boots its own from the
 * snapshot. The channels the app listened on are unsubscribed in PGlite too, so no listener of a
 * finished file (and the module graph it holds) outlives it.
 */
function lend(pglite: PGlite, worker: WorkerDatabases, sql: TestDatabase["sql"], reset: () => Promise<void>): PGlite {
  const channels = new Set<string>();
  const giveBack = async () => {
    for (const channel of channels) await pglite.unlisten(channel);
    await pglite.exec("DISCARD ALL");
    await reset();
    // The sequences no table owns (ledger_version_seq), which the reset leaves running.
    await pglite.exec(`DO $$ DECLARE s regclass; BEGIN
      FOR s IN SELECT c.oid::regclass FROM pg_class c WHERE c.relkind = 'S' AND NOT EXISTS
          (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
        LOOP EXECUTE format('ALTER SEQUENCE %s RESTART', s); END LOOP; END $$`);
    return (await fingerprint(sql)) === worker.pristine;
  };
  const close = async () => {
    if (pglite.closed) return;
    const timeout = new Promise<false>((resolve) => setTimeout(resolve, GIVE_BACK_MS, false).unref());
    const clean = await Promise.race([giveBack().catch(() => false), timeout]);
    if (clean) await worker.give(pglite);
    else await pglite.close().catch(() => undefined);
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === "close") return close;
      if (property === "listen")
        return (channel: string, ...rest: unknown[]) => {
          channels.add(channel);
          return (target.listen as (...args: unknown[]) => unknown)(channel, ...rest);
        };
      // PGlite's methods use private fields: they run on the database itself, not the proxy.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Everything a test could leave behind that the reset does not clear, in one hash. */
async function fingerprint(sql: TestDatabase["sql"]): Promise<string> {
  const [row] = await sql<{ h: string }>(`SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS h FROM (
      SELECT 'rel ' || c.oid::regclass::text || ' ' || c.relkind::text || ' ' || c.relpersistence::text FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
      UNION ALL SELECT 'col ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
          || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
      UNION ALL SELECT 'con ' || conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace
      UNION ALL SELECT 'fn ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
      UNION ALL SELECT 'trg ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
      UNION ALL SELECT 'role ' || rolname || ' ' || rolsuper FROM pg_roles
      UNION ALL SELECT 'db ' || datname FROM pg_database
      UNION ALL SELECT 'set ' || name || '=' || setting FROM pg_settings WHERE source NOT IN ('default', 'override')
      UNION ALL SELECT 'seq ' || schemaname || '.' || sequencename || ' ' || coalesce(last_value::text, '') FROM pg_sequences
      UNION ALL SELECT 'rows source ' || md5(coalesce(string_agg(s::text, ',' ORDER BY s.id), '')) FROM source s
      UNION ALL SELECT 'rows migrations ' || md5(coalesce(string_agg(m.id, ',' ORDER BY m.id), '')) FROM _prisma_migrations m
      UNION ALL SELECT 'listening ' || c FROM pg_listening_channels() c
      UNION ALL SELECT 'lock ' || locktype FROM pg_locks WHERE locktype = 'advisory'
    ) f(x)`);
  return row.h;
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
