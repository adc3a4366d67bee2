import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../src/lib/paths";

/**
 * The benchmark servers as JavaScript compiled by tsc, the form `npm start` runs (dist/), not
 * through tsx: tsx keeps every function's name by wrapping each closure it creates in a call that
 * defines the name, which a request pays for every closure it makes (the rules of an imported row
 * make several per row). Both servers, the service and the baseline, run compiled, into
 * tmp/bench-build (under the project, so that node_modules resolves; tmp/ is ignored by git).
 * Answers the folder; the compile takes a few seconds and does not type-check (npm test does).
 */
export function compileBenchServers(): string {
  const out = path.join(PROJECT_ROOT, "tmp", "bench-build");
  // Afresh: a source deleted since the last run must not leave its compiled file behind to load.
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const config = path.join(out, "tsconfig.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(PROJECT_ROOT, "tsconfig.build.json"),
      compilerOptions: { outDir: out, rootDir: PROJECT_ROOT, sourceMap: false },
      include: ["src", "generated", "bench"].map((d) => path.join(PROJECT_ROOT, d)),
      exclude: [path.join(PROJECT_ROOT, "src/web")],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [path.join(PROJECT_ROOT, "node_modules/typescript/bin/tsc"), "-p", config, "--noCheck"],
    { cwd: PROJECT_ROOT, stdio: "inherit" },
  );
  if (tsc.status !== 0) throw new Error(`compiling the benchmark servers failed (tsc exit ${tsc.status})`);
  return out;
}
