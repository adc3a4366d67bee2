import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { bundleWebApp } from "./web-bundle";

/**
 * `npm run build` (and `npm start` before it starts): compiles to dist/ only when what the build
 * reads has changed since the last build, so a restart with nothing changed starts in seconds
 * instead of paying for a whole type-checked compile (about 20 s on two cores).
 *
 * "Changed" is decided by content, not by file times (a checkout, a copy or an unpacked archive
 * sets times freely): a SHA-256 over every file of src/ and generated/, the tsconfig files,
 * package-lock.json (a dependency's types can change what compiles) and the compiler's version,
 * kept in dist/.build-stamp after a successful compile. `--force` compiles whatever the stamp says.
 *
 * The compile does not type-check (tsc --noCheck: about 6 s instead of 20): every file is
 * transpiled on its own (tsconfig's isolatedModules), so types cannot change what it emits, and
 * `npm test` (CI) type-checks the whole project before any test runs.
 *
 * The web app (src/web) is bundled in the same step into dist/web (src/cli/web-bundle.ts, esbuild:
 * well under a second), under the same fingerprint.
 *
 * Several starts at once (a template unit starting its instances together) compile once: a lock
 * file serialises them, and whoever waited finds the stamp current.
 */
const DIST = path.join(PROJECT_ROOT, "dist");
const STAMP = path.join(DIST, ".build-stamp");
const LOCK = path.join(DIST, ".build.lock");
const ENTRY = path.join(DIST, "src/index.js");
const WEB_ENTRY = path.join(DIST, "web/index.html");
const INPUT_DIRS = ["src", "generated"];
const INPUT_FILES = ["tsconfig.json", "tsconfig.build.json", "package-lock.json"];

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    return [path.join(entry.parentPath, entry.name)];
  });
}

/** The fingerprint of everything the compile reads from this project. */
function sourceHash(): string {
  const hash = crypto.createHash("sha256");
  const compiler = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, "node_modules/typescript/package.json"), "utf8"),
  ) as { version: string };
  hash.update(`typescript ${compiler.version}\0`);
  const files = [
    ...INPUT_DIRS.flatMap((d) => filesUnder(path.join(PROJECT_ROOT, d))),
    ...INPUT_FILES.map((f) => path.join(PROJECT_ROOT, f)).filter((f) => fs.existsSync(f)),
  ]
    .map((f) => path.relative(PROJECT_ROOT, f))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(PROJECT_ROOT, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function isCurrent(hash: string): boolean {
  return (
    fs.existsSync(ENTRY) &&
    fs.existsSync(WEB_ENTRY) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, "utf8").trim() === hash
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists and belongs to another user (a build run as root).
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the build lock, waiting while another live build holds it (a dead holder's lock is taken over). */
async function lock(): Promise<() => void> {
  fs.mkdirSync(DIST, { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(LOCK, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let text: string;
    try {
      text = fs.readFileSync(LOCK, "utf8").trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // released meanwhile: try again
      throw error;
    }
    // Empty: its holder has created it and not yet written its pid (wait as for a live one), unless
    // it has stayed empty for seconds (a holder that died in between).
    const holder = Number(text);
    const since = fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    const dead = text ? !holder || !alive(holder) : Date.now() - since > 10_000;
    if (dead) {
      fs.rmSync(LOCK, { force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(argv: string[]): Promise<number> {
  const force = argv.includes("--force");
  if (!force && isCurrent(sourceHash())) return 0;
  const release = await lock();
  try {
    // Hashed again under the lock: a build that finished while this one waited made it current.
    const hash = sourceHash();
    if (!force && isCurrent(hash)) return 0;
    fs.rmSync(STAMP, { force: true });
    const started = Date.now();
    // The web app bundles its operations' text from generated/: regenerate it from schema.graphql and
    // src/web/operations.graphql first, so an edited operation is never bundled stale.
    const codegen = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(PROJECT_ROOT, "src/graphql/codegen.ts")],
      {
        cwd: PROJECT_ROOT,
        stdio: "inherit",
      },
    );
    if (codegen.status !== 0) return codegen.status ?? 1;
    const tsc = spawnSync(
      process.execPath,
      [path.join(PROJECT_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--noCheck"],
      { cwd: PROJECT_ROOT, stdio: "inherit" },
    );
    if (tsc.status !== 0) return tsc.status ?? 1;
    await bundleWebApp();
    // What was built from: the sources as the codegen left them.
    fs.writeFileSync(STAMP, sourceHash() + "\n");
    console.error(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
