import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations } from "../../src/migrate";

/**
 * Prepares one migrated database that every test file copies, so no file pays for initdb and
 * migrations again: a PGlite data-directory snapshot (PGlite boots from it in well under a second
 * instead of ~5 s), and with TEST_DATABASE_URL (PostgreSQL) also a template database. The snapshot
 * is made on PostgreSQL runs too: the spawned services of test/process start on the embedded
 * database there as well (migratedDataDir), and without it each paid the first start's migrations.
 */
export default async function globalSetup(): Promise<void> {
  // No test reaches a host outside the machine: whatever builds providers from the environment
  // (a spawned service, loadConfig) gets none unless the test names a local one.
  process.env.MARKET_DATA_PROVIDER ??= "none";
  process.env.FX_PROVIDER ??= "none";
  const url = process.env.TEST_DATABASE_URL;
  const [snapshot, template] = await Promise.all([pgliteSnapshot(), url ? templateDatabase(url) : undefined]);
  process.env.TEST_PGLITE_SNAPSHOT = snapshot;
  if (template) process.env.TEST_TEMPLATE_DATABASE = template;
}

/** A migrated, analysed PGlite data directory as a tar file; answers its path. */
async function pgliteSnapshot(): Promise<string> {
  const db = await PGlite.create();
  await applyMigrations({ query: (s, p) => db.query(s, p) as never, exec: async (s) => void (await db.exec(s)) });
  // Analyzed once here, so no test file's database pays for the first analysis on opening.
  await db.exec("ANALYZE");
  // PGlite opens `postgres` only: template0 and template1 are two thirds of the snapshot's files,
  // unpacked by every test file's database for nothing. Nothing in the tests creates a database
  // on PGlite.
  await db.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
  for (const statement of ["DROP DATABASE template0", "DROP DATABASE template1", "CHECKPOINT"])
    await db.exec(statement);
  const dump = await db.dumpDataDir("none");
  await db.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portfolio-test-")), "migrated.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

/** A migrated template database on the PostgreSQL server; answers its name. */
async function templateDatabase(url: string): Promise<string> {
  const template = templateName(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const client = new pg.Client({ connectionString: withDatabase(url, template) });
  await client.connect();
  await applyMigrations({
    query: (s, p) => client.query(s, p) as never,
    exec: async (s) => void (await client.query(s)),
  });
  await client.end();
  return template;
}

/** One template per test run, so concurrent runs on one server do not drop each other's. */
export function templateName(url: string): string {
  return `${new URL(url).pathname.slice(1) || "postgres"}_test_template_${process.pid}`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = "/" + database;
  return u.toString();
}
