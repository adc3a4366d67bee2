import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { EmbeddedStatistics } from "./lib/embedded-statistics";
import { pgliteOpenError, prepareDataDir } from "./lib/storage";
import { applyMigrations, type SqlSession } from "./migrate";

export type { PrismaClient };

/**
 * The one database factory. With no URL the service runs on PGlite, PostgreSQL compiled to WASM,
 * in-process, with its files in DATA_DIR: nothing else to install. A `postgresql://` URL runs the
 * same schema and code on a server. Pending migrations are applied before the client is handed
 * out, on both.
 */
export interface Database {
  prisma: PrismaClient;
  kind: "pglite" | "postgresql";
  /** SQL statements sent so far (queries and commands, inside transactions too). */
  readonly statementCount: number;
  /**
   * PGlite: runs the planner-statistics upkeep for what has been written now instead of when the
   * writes go quiet (lib/embedded-statistics). PostgreSQL: nothing (its autovacuum does it).
   */
  settleStatistics(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Takes the installation-wide lock `key` if no one holds it (a PostgreSQL advisory lock, held by
   * a connection of its own until released or until the process dies; the embedded database has
   * one process, so a lock in memory). Answers its release, or null when it is held elsewhere.
   */
  tryLock(key: number): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

/** The embedded database's locks: it admits one process (lockDataDir), so memory is the installation. */
function memoryLocks(): Database["tryLock"] {
  const held = new Set<number>();
  return async (key) => {
    if (held.has(key)) return null;
    held.add(key);
    return async () => void held.delete(key);
  };
}

export interface OpenDatabaseOptions {
  /** postgresql:// URL; when absent, PGlite. */
  url?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  dataDir?: string;
  /** An already opened PGlite (tests restore one from a migrated snapshot). */
  pglite?: PGlite;
  poolSize?: number;
  /**
   * PostgreSQL only: how long opening a connection may take. A server that is down or unreachable
   * then fails the request fast (503) instead of holding it until the operating system gives up.
   */
  connectTimeoutMs?: number;
  /** Apply pending migrations first (default true). */
  migrate?: boolean;
}

/**
 * Wraps an adapter factory to count every statement Prisma sends (the no-N+1 tests read it) and,
 * when asked, to report each one with the rows it changed or returned.
 */
function counting(
  factory: SqlDriverAdapterFactory,
  counter: { n: number },
  onStatement?: (sql: string, rows: number) => void,
  yieldBetween = false,
): SqlDriverAdapterFactory {
  // The embedded database runs in this thread: statements sent together (a Promise.all of a
  // range load) would run back to back as one block of microtasks. With `yieldBetween` each
  // statement starts on its own turn of the event loop, one turn after the one before it, so
  // other requests (a health check) wait at most one statement. Only starts are spaced: nothing
  // waits for another statement to finish (a transaction's statements cannot deadlock on it).
  let turnstile = Promise.resolve();
  const nextTurn = () => (turnstile = turnstile.then(() => new Promise<void>((resolve) => setImmediate(resolve))));
  const countQueries = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            counter.n++;
            const result = (
              yieldBetween ? nextTurn().then(() => value.apply(obj, args)) : value.apply(obj, args)
            ) as Promise<number | { rows: unknown[] }>;
            if (!onStatement) return result;
            const sql = (args[0] as { sql: string }).sql;
            return result.then((r) => {
              onStatement(sql, typeof r === "number" ? r : r.rows.length);
              return r;
            });
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) => countQueries((await value.apply(obj, args)) as Transaction);
        }
        return value.bind(obj);
      },
    });
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === "connect") return async () => countQueries((await value.call(obj)) as SqlDriverAdapter);
      return typeof value === "function" ? value.bind(obj) : value;
    },
  });
}

/** PGlite data directories admit one process; a lock file turns a second opener away clearly. */
function lockDataDir(dir: string): () => void {
  const lockFile = path.join(dir, "service.lock");
  if (fs.existsSync(lockFile)) {
    const pid = Number(fs.readFileSync(lockFile, "utf8"));
    let alive = false;
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
    }
    if (alive) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${pid}. Stop that process first, or set DATABASE_URL to a PostgreSQL server to run several processes.`,
      );
    }
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const counter = { n: 0 };
  const migrate = options.migrate ?? true;

  if (options.url) {
    if (migrate) {
      const client = new pg.Client({
        connectionString: options.url,
        connectionTimeoutMillis: options.connectTimeoutMs,
      });
      await client.connect();
      try {
        await applyMigrations({
          query: (sql, params) => client.query(sql, params) as never,
          exec: async (sql) => void (await client.query(sql)),
        });
      } finally {
        await client.end();
      }
    }
    // TCP keep-alive probing from 10 s of silence: a connection whose server vanished without a
    // word (a cut network) fails once the probes go unanswered, not after the OS's two hours.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An idle connection the server ends (restart, failover, admin termination) is an 'error' event
    // on the pool; unheard, Node would crash the process. The pool drops it and opens a new one.
    pool.on("error", () => {});
    const prisma = new PrismaClient({ adapter: counting(new PrismaPg(pool), counter) });
    return {
      prisma,
      kind: "postgresql",
      get statementCount() {
        return counter.n;
      },
      settleStatistics: async () => {},
      ping: async () => void (await pool.query("SELECT 1")),
      tryLock: async (key) => {
        const client = await pool.connect();
        try {
          const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [key]);
          if (!rows[0]?.locked) {
            client.release();
            return null;
          }
        } catch (error) {
          client.release(true);
          throw error;
        }
        return async () => {
          // A connection whose unlock failed is closed, not pooled: closing it releases the lock.
          await client.query("SELECT pg_advisory_unlock($1)", [key]).then(
            () => client.release(),
            () => client.release(true),
          );
        };
      },
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  let unlock = () => {};
  let pglite = options.pglite;
  if (!pglite) {
    const dataDir = options.dataDir ?? "memory://";
    if (!dataDir.startsWith("memory://")) {
      prepareDataDir(dataDir);
      unlock = lockDataDir(dataDir);
    }
    try {
      pglite = await PGlite.create(dataDir.startsWith("memory://") ? undefined : path.join(dataDir, "pglite"));
    } catch (error) {
      unlock();
      throw pgliteOpenError(dataDir, error);
    }
  }
  const db = pglite;
  if (migrate) {
    const session: SqlSession = {
      query: (sql, params) => db.query(sql, params) as never,
      exec: async (sql) => void (await db.exec(sql)),
    };
    await applyMigrations(session);
  }
  const statistics = new EmbeddedStatistics(db);
  await statistics.analyzeNeverAnalyzed();
  const prisma = new PrismaClient({
    adapter: counting(new PrismaPGlite(db), counter, (sql, rows) => statistics.noteStatement(sql, rows), true),
  });
  return {
    prisma,
    kind: "pglite",
    get statementCount() {
      return counter.n;
    },
    settleStatistics: () => statistics.settle(),
    ping: async () => void (await db.query("SELECT 1")),
    tryLock: memoryLocks(),
    close: async () => {
      await statistics.stop();
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
}
