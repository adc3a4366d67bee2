#!/usr/bin/env -S npx tsx
/**
 * Creates and checks migrations offline.
 *
 * Prisma's native schema engine is a binary download this network cannot reach, so `prisma migrate
 * dev` is not available. The same engine ships as WebAssembly (inside the `prisma` package and as
 * `@prisma/schema-engine-wasm`); this tool drives its `diff` with throw-away in-memory PGlite
 * databases: it replays `prisma/migrations` on a shadow database and diffs the result against
 * `prisma/schema.prisma`. The SQL it writes is the engine's own, exactly what `migrate dev` writes.
 *
 *   npm run db:migrate -- --name add_holdings   write prisma/migrations/<timestamp>_add_holdings
 *   npm run db:check                            exit 1 when schema.prisma and migrations disagree
 *
 * Applying migrations is not done here: the server applies them itself (src/db/migrate.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

const root = path.resolve(__dirname, "..");
const schemaPath = path.join(root, "prisma/schema.prisma");
const migrationsDir = path.join(root, "prisma/migrations");

interface Engine {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
}

/** Instantiates the bundler-style wasm-bindgen build by hand, preferring the CLI's own engine. */
async function loadEngine(): Promise<{ SchemaEngine: { new: (...a: unknown[]) => Promise<Engine> } }> {
  const pkgDir = path.join(root, "node_modules/@prisma/schema-engine-wasm");
  const glue = await import(path.join(pkgDir, "schema_engine_bg.js"));
  const candidates = [
    path.join(root, "node_modules/prisma/build/schema_engine_bg.wasm"),
    path.join(pkgDir, "schema_engine_bg.wasm"),
  ];
  let lastError: unknown;
  for (const file of candidates) {
    try {
      const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), { "./schema_engine_bg.js": glue });
      glue.__wbg_set_wasm(instance.exports);
      (instance.exports.__wbindgen_start as () => void)();
      return glue;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** pglite-prisma-adapter does not await exec() in executeScript; a broken script must fail. */
async function connect(db: PGlite): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPGlite(db).connect();
  adapter.executeScript = async (script: string) => {
    await db.exec(script);
  };
  return adapter;
}

function adapterFactory(): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: "postgres",
    adapterName: "pglite-offline-migrations",
    connect: async () => connect(await PGlite.create()),
    connectToShadowDb: async () => connect(await PGlite.create()),
  };
}

function migrationsList() {
  const dirs = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

/** The SQL that takes the database from the migration history to schema.prisma ("" when none). */
export async function pendingSchemaChange(): Promise<string> {
  const { SchemaEngine } = await loadEngine();
  const schema = fs.readFileSync(schemaPath, "utf8");
  const logs: string[] = [];
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (line: string) => logs.push(line),
    bindMigrationAwareSqlAdapterFactory(adapterFactory()),
  );
  const list = migrationsList();
  const result = await engine.diff({
    from: list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" },
    to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  const sql = (result.stdout ?? "").trim();
  return /^-- This is an empty migration\.?$/.test(sql) ? "" : sql;
}

function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "check") {
    const sql = await pendingSchemaChange();
    if (!sql) {
      console.log("prisma/schema.prisma and prisma/migrations agree.");
      return 0;
    }
    console.error(
      "prisma/schema.prisma has changes no migration holds. Run `npm run db:migrate -- --name <what>`:\n\n" + sql,
    );
    return 1;
  }
  if (command === "create") {
    const nameIndex = rest.indexOf("--name");
    const name = nameIndex >= 0 ? rest[nameIndex + 1] : undefined;
    if (!name || !/^[a-z0-9_]+$/.test(name)) {
      console.error("usage: npm run db:migrate -- --name <snake_case_name>");
      return 2;
    }
    const sql = await pendingSchemaChange();
    if (!sql) {
      console.log("Already in sync: no migration written.");
      return 0;
    }
    const dir = path.join(migrationsDir, `${timestamp()}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql + "\n");
    const lock = path.join(migrationsDir, "migration_lock.toml");
    if (!fs.existsSync(lock)) {
      fs.writeFileSync(
        lock,
        '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
      );
    }
    console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
    return 0;
  }
  console.error("usage: prisma/migrate-tool.ts create --name <name> | check");
  return 2;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
