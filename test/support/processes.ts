import { randomBytes } from "node:crypto";
import pg from "pg";
import { start, waitFor, exitWithin, type Proc } from "../process/spawn";
import { withDatabase } from "./global-setup";

/**
 * Several real API processes on one PostgreSQL database, as an installation runs them behind a
 * load balancer (OPERATIONS.md §1): each spawned as the process tests spawn the service
 * (test/process/spawn.ts: `node --import tsx src/index.ts`, NODE_ENV=production), on a port of
 * its own, all with the same bootstrap key, on a fresh copy of the migrated template database.
 * Only with TEST_DATABASE_URL: the embedded database admits one process.
 */
export const serverUrl = process.env.TEST_DATABASE_URL;

/** `describe` on PostgreSQL, `describe.skip` on the embedded database. */
export const describeOnPostgres = serverUrl ? describe : describe.skip;

export interface ApiProcess extends Proc {
  /** 0-based position in the installation, for messages. */
  index: number;
  base: string;
  port: number;
}

export interface Installation {
  processes: ApiProcess[];
  /** The bootstrap key of account `default`, valid on every process. */
  key: string;
  /** The database's URL (a second client, a check of what was written). */
  url: string;
  /** Runs SQL on the installation's database. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Starts a new process in the place of `index` (a rolling restart's next step), on a new port. */
  replace(index: number): Promise<ApiProcess>;
  /** SIGTERMs every process still running, waits for them, drops the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Environment of every process (over the spawn defaults: providers off, rate limit off). */
  env?: Record<string, string>;
  /** Environment of one process, by index. */
  envOf?: (index: number) => Record<string, string>;
}

const STOP_BOUND_MS = 20_000;

export async function startInstallation(count: number, options: StartOptions = {}): Promise<Installation> {
  if (!serverUrl) throw new Error("startInstallation needs TEST_DATABASE_URL (a PostgreSQL server)");
  const template = process.env.TEST_TEMPLATE_DATABASE;
  const name = `multi_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {});
  const key = `multi-${randomBytes(12).toString("hex")}`;

  const processes: ApiProcess[] = [];
  const stop = async () => {
    await Promise.all(
      processes.map(async (p) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return;
        p.child.kill("SIGTERM");
        if ((await exitWithin(p, STOP_BOUND_MS)) === "still running") p.child.kill("SIGKILL");
      }),
    );
    await pool.end();
    const a = new pg.Client({ connectionString: serverUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await a.end();
  };

  const spawnOne = async (index: number): Promise<ApiProcess> => {
    const proc = start("src/index.ts", [], {
      DATABASE_URL: url,
      BOOTSTRAP_API_KEY: key,
      HOST: "127.0.0.1",
      DB_POOL_SIZE: "5",
      ...options.env,
      ...options.envOf?.(index),
    });
    const p: ApiProcess = { ...proc, index, base: "", port: 0 };
    processes.push(p);
    // The log names the address actually bound.
    const m = await waitFor(
      proc,
      /"host":"127\.0\.0\.1","port":(\d+),"msg":"listening on http:\/\/127\.0\.0\.1:\1 /,
      90_000,
    );
    p.port = Number(m[1]);
    p.base = `http://127.0.0.1:${p.port}`;
    return p;
  };

  try {
    // Started together, as a deployment starts its instances: start-up races are part of the test.
    const started = await Promise.all(Array.from({ length: count }, (_, index) => spawnOne(index)));
    const installation: Installation = {
      processes: started,
      key,
      url,
      sql: async (text, params) => (await pool.query(text, params)).rows,
      replace: async (index) => (installation.processes[index] = await spawnOne(index)),
      stop,
    };
    return installation;
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** One REST call with a key; the body parsed as JSON when it is JSON. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = options.key;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as T };
}

/** Polls `check` until it answers true or `ms` pass; answers how long it took, or null. */
export async function within(ms: number, check: () => Promise<boolean>, everyMs = 20): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started <= ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return null;
}

/** The `time` (epoch ms) of the first JSON log line of `proc` whose msg matches. */
export function loggedAt(proc: Proc, msg: RegExp): number | null {
  for (const line of proc.output().split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as { time?: string | number; msg?: string };
      if (entry.msg && msg.test(entry.msg) && entry.time !== undefined) return new Date(entry.time).getTime();
    } catch {
      /* a partial line */
    }
  }
  return null;
}
