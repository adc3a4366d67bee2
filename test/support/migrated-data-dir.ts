import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A new DATA_DIR that already holds a migrated, empty embedded database: the snapshot global-setup
 * made (TEST_PGLITE_SNAPSHOT, a PGlite data-directory tar) unpacked where the service looks for
 * its database (`<DATA_DIR>/pglite`, src/db.ts). A service's first start there skips initdb and
 * the migrations (about 5 s through a spawned process) and is otherwise a first start: no account,
 * no key, no market-data run. The tests of a start on a truly new directory (the migrations applied
 * and named) use an empty one.
 */
export function migratedDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
  if (!snapshot) return dir;
  fs.mkdirSync(path.join(dir, "pglite"));
  const untar = spawnSync("tar", ["-xf", snapshot, "-C", path.join(dir, "pglite")], { encoding: "utf8" });
  if (untar.status !== 0) throw new Error(`migratedDataDir: tar failed: ${untar.stderr}`);
  return dir;
}
