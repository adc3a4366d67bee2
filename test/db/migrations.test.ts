import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations, readMigrations, type Migration, type SqlSession } from "../../src/migrate";
import { migratedDataDir } from "../support/migrated-data-dir";
import { withDatabase } from "../support/global-setup";

const run = promisify(execFile);
const root = path.join(__dirname, "../..");

function pgliteSession(db: PGlite): SqlSession {
  return { query: (s, p) => db.query(s, p) as never, exec: async (s) => void (await db.exec(s)) };
}

/**
 * A database with every migration applied: the snapshot global-setup made by applying them
 * (TEST_PGLITE_SNAPSHOT), else (a run outside the global setup) a new one migrated here.
 */
async function migratedPglite(): Promise<PGlite> {
  const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
  if (snapshot) return PGlite.create({ loadDataDir: new Blob([fs.readFileSync(snapshot)]) });
  const db = await PGlite.create();
  await applyMigrations(pgliteSession(db));
  return db;
}

describe("migrations", () => {
  it("prisma/schema.prisma and prisma/migrations agree (no change left unmigrated)", async () => {
    const { stdout } = await run(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), "prisma/migrate-tool.ts", "check"],
      { cwd: root },
    );
    expect(stdout).toContain("agree");
  });

  it("are applied once, recorded in _prisma_migrations with Prisma's sha256 checksums", async () => {
    const db = await PGlite.create();
    try {
      const all = readMigrations();
      expect(await applyMigrations(pgliteSession(db))).toEqual(all.map((m) => m.name));
      expect(await applyMigrations(pgliteSession(db))).toEqual([]);
      const { rows } = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
        `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual(all.map((m) => m.name));
      for (const [i, r] of rows.entries()) {
        const sql = fs.readFileSync(path.join(root, "prisma/migrations", r.migration_name, "migration.sql"));
        expect(r.checksum).toBe(crypto.createHash("sha256").update(sql).digest("hex"));
        expect(r.finished_at).not.toBeNull();
        expect(all[i].checksum).toBe(r.checksum);
      }
    } finally {
      await db.close();
    }
  });

  it("refuse to run when an applied migration was edited afterwards", async () => {
    const db = await migratedPglite();
    try {
      const all = readMigrations();
      await applyMigrations(pgliteSession(db), all);
      const edited: Migration[] = all.map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
      await expect(applyMigrations(pgliteSession(db), edited)).rejects.toThrow(/changed after it was applied/);
    } finally {
      await db.close();
    }
  });

  it("roll a failing migration back entirely and do not record it", async () => {
    const db = await PGlite.create();
    try {
      const broken: Migration = {
        name: "99990101000000_broken",
        sql: "CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;",
        checksum: "x",
      };
      await expect(applyMigrations(pgliteSession(db), [...readMigrations(), broken])).rejects.toThrow(
        /99990101000000_broken failed/,
      );
      const tables = await db.query(`SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
      expect(tables.rows).toHaveLength(0);
      const recorded = await db.query(
        `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99990101000000_broken'`,
      );
      expect(recorded.rows).toHaveLength(0);
      // Everything before it stays applied, and a fixed history carries on from there.
      expect(await applyMigrations(pgliteSession(db))).toEqual([]);
    } finally {
      await db.close();
    }
  });

  const serverUrl = process.env.TEST_DATABASE_URL;
  (serverUrl ? it : it.skip)(
    "are applied exactly once when several processes start at once (PostgreSQL advisory lock)",
    async () => {
      const name = `mig_${crypto.randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const clients = Array.from(
        { length: 4 },
        () => new pg.Client({ connectionString: withDatabase(serverUrl!, name) }),
      );
      try {
        await Promise.all(clients.map((c) => c.connect()));
        const results = await Promise.all(
          clients.map((c) =>
            applyMigrations({ query: (s, p) => c.query(s, p) as never, exec: async (s) => void (await c.query(s)) }),
          ),
        );
        expect(results.flat().sort()).toEqual(readMigrations().map((m) => m.name));
        const { rows } = await clients[0].query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
        expect(rows[0].n).toBe(readMigrations().length);
      } finally {
        await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});

describe("the embedded database directory", () => {
  it("keeps its data across restarts and admits one process at a time", async () => {
    const { openDatabase } = await import("../../src/db");
    // Migrated already where it can be (the first open is not what is under test here).
    const dir = migratedDataDir("pf-data-");
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.prisma.account.create({ data: { name: "kept" } });
      // Another process holding the directory is refused with a clear message.
      fs.writeFileSync(path.join(dir, "service.lock"), String(process.ppid));
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by process/);
      fs.writeFileSync(path.join(dir, "service.lock"), String(process.pid));
      await first.close();
      expect(fs.existsSync(path.join(dir, "service.lock"))).toBe(false);

      const again = await openDatabase({ dataDir: dir });
      expect(await again.prisma.account.findMany({ select: { name: true } })).toEqual([{ name: "kept" }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
