import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { EmbeddedStatistics } from "./lib/embedded-statistics";
import { listenOn, type ChannelListener } from "./lib/pg-listener";
import { nativeBytea } from "./lib/pglite-bytea";
import { counting, countStatement, type StatementCounter, type StatementObserver } from "./lib/statement-counter";
import { statementNames } from "./lib/statement-names";
import { lockDataDir, pgliteOpenError, prepareDataDir } from "./lib/storage";
import { applyMigrations, type SqlSession } from "./migrate";

export type { PrismaClient, StatementObserver };

/** A database's connections now: in use by a statement, idle, and statements waiting for one. */
export interface ConnectionCounts {
  inUse: number;
  idle: number;
  waiting: number;
}

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
  /**
   * PostgreSQL: the pool's. PGlite: its one connection, busy while a statement runs. (Optional,
   * as is observeStatements: a stand-in database, such as a test's stub, may have neither.)
   */
  connections?(): ConnectionCounts;
  /** Observes every statement from now on (undefined: stops); one observer at a time. */
  observeStatements?(observer: StatementObserver | undefined): void;
  /**
   * Hears the notifications (`NOTIFY`, `pg_notify`) on `channel`, which PostgreSQL delivers after
   * commit to every process. PostgreSQL: over a connection of its own per call, reconnected with
   * backoff; `onState` says when notifications may have been missed (false) and when they are
   * heard again (true). PGlite: in-process. Answers the way to stop; close() stops them all.
   * (Optional: a stand-in database has none, and whoever caches by it must not trust its cache.)
   */
  listen?(channel: string, listener: ChannelListener): () => Promise<void>;
  /**
   * PostgreSQL only: one statement straight through the pool, for the service's own upkeep on every
   * request (the rate limit's draw), where Prisma's own work per statement (a fifth of a millisecond
   * of CPU, against a twentieth for pg alone) would be most of a small read's. Prepared once per
   * connection under `name`; counted and observed as Prisma's statements are.
   */
  query?<T>(name: string, sql: string, params: unknown[]): Promise<T[]>;
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

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const counter: StatementCounter = { n: 0, active: 0 };
  const observeStatements = (observer: StatementObserver | undefined) => void (counter.observer = observer);
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
    // Prisma's statements prepared once a connection (src/lib/statement-names.ts).
    const adapter = new PrismaPg(pool, { statementNameGenerator: statementNames() });
    const prisma = new PrismaClient({ adapter: counting(adapter, counter) });
    const listening = new Set<() => Promise<void>>();
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
      connections: () => ({
        inUse: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      observeStatements,
      query: async <T>(name: string, sql: string, params: unknown[]) =>
        (await countStatement(counter, sql, () => pool.query({ name, text: sql, values: params }))).rows as T[],
      listen: (channel, listener) => {
        const stop = listenOn(
          { connectionString: options.url!, connectTimeoutMs: options.connectTimeoutMs },
          channel,
          listener,
        );
        listening.add(stop);
        return () => (listening.delete(stop), stop());
      },
      close: async () => {
        await Promise.all([...listening].map((stop) => stop()));
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
    adapter: counting(
      new PrismaPGlite(nativeBytea(db)),
      counter,
      (sql, rows) => statistics.noteStatement(sql, rows),
      true,
    ),
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
    // One connection, running one statement at a time: the others sent meanwhile wait for it.
    connections: () => ({
      inUse: Math.min(1, counter.active),
      idle: counter.active > 0 ? 0 : 1,
      waiting: Math.max(0, counter.active - 1),
    }),
    observeStatements,
    listen: (channel, listener) => {
      // A LISTEN that failed is never reported as listening: whoever relies on it stays wary.
      const unlisten = db
        .listen(channel, (payload) => listener.onMessage(payload))
        .then(
          (stop) => {
            listener.onState?.(true);
            return stop;
          },
          () => undefined,
        );
      return async () => {
        const stop = await unlisten;
        await stop?.().catch(() => {});
        listener.onState?.(false);
      };
    },
    close: async () => {
      await statistics.stop();
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
}
