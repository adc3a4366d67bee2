import fs from "node:fs";
import path from "node:path";

const MiB = 1024 * 1024;

/** An errno in words an operator can act on. */
function reason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the device";
    case "ENOENT":
      return "the file system does not allow it";
    default:
      return error.code ?? error.message;
  }
}

/**
 * Makes sure DATA_DIR exists, is a directory, and takes a write, so an unusable one stops the
 * start with one line naming it rather than a stack from deep inside PGlite. Parents are created
 * one at a time: Node's recursive mkdir never returns for a path under /proc.
 */
export function prepareDataDir(dir: string): void {
  const unusable = (problem: string) => new Error(`DATA_DIR ${dir} cannot hold the database: ${problem}.`);
  let step = "read it";
  try {
    const missing: string[] = [];
    let at = dir;
    for (; !fs.existsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.unshift(at);
    if (!fs.statSync(at).isDirectory())
      throw unusable(at === dir ? "it is a file, not a directory" : `${at} is a file, not a directory`);
    for (const d of missing) {
      step = `create ${d}`;
      fs.mkdirSync(d);
    }
    // access(W_OK) says yes to root even where writes fail (sysfs, a read-only mount): only a
    // real write tells.
    step = "write in it";
    const probe = path.join(dir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.unlinkSync(probe);
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code) throw error;
    throw unusable(`cannot ${step}: ${reason(error as NodeJS.ErrnoException)}`);
  }
}

/**
 * PGlite's file errors are Emscripten's (not Error instances, a WASI errno and no message): the
 * common ones in words, naming DATA_DIR. 51 is ENOSPC, initdb alone needs some 40 MiB.
 */
export function pgliteOpenError(dir: string, error: unknown): Error {
  const wasi: Record<number, string> = {
    2: "permission denied",
    63: "permission denied",
    51: "no space left on the device",
    69: "the file system is read-only",
  };
  const e = error as { name?: string; errno?: number; message?: string };
  if (e?.name !== "ErrnoError") return error instanceof Error ? error : new Error(String(error));
  const problem = (e.errno !== undefined && wasi[e.errno]) || `file error ${e.errno}`;
  return new Error(`DATA_DIR ${dir} cannot hold the database: opening it failed: ${problem}.`);
}

export interface DiskSpace {
  freeBytes: number;
  minFreeBytes: number;
  /** True when writes must be refused. */
  low: boolean;
}

/**
 * Free space in the file system holding `dir`, against a floor. PGlite cannot survive running out
 * of disk (a write that fails with ENOSPC leaves it panicking on the rollback, and the process
 * ends), so writes are refused before they start while free space is below the floor. statfs is
 * asked at most once per `maxAgeMs`, not once per request.
 */
export function diskSpaceMonitor(dir: string, minFreeMb: number, maxAgeMs = 1_000): () => DiskSpace {
  const minFreeBytes = minFreeMb * MiB;
  let checkedAt = -Infinity;
  let last: DiskSpace = { freeBytes: Infinity, minFreeBytes, low: false };
  return () => {
    const now = Date.now();
    if (now - checkedAt < maxAgeMs) return last;
    checkedAt = now;
    try {
      const s = fs.statfsSync(dir);
      // bavail: what an unprivileged writer may still use (root's reserve is not counted on).
      const freeBytes = s.bavail * s.bsize;
      last = { freeBytes, minFreeBytes, low: freeBytes < minFreeBytes };
    } catch {
      // A statfs that fails says nothing about space; keep the last answer.
    }
    return last;
  };
}

export const toMiB = (bytes: number) => Math.floor(bytes / MiB);

/** PGlite data directories admit one process; a lock file turns a second opener away clearly. */
export function lockDataDir(dir: string): () => void {
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
