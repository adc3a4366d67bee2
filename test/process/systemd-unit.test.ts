import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { withDatabase } from "../support/global-setup";
import { exitWithin, root, waitFor, type Proc } from "./spawn";

/**
 * The example systemd unit (deploy/portfolio-service@.service, README "Running in production")
 * works as written. systemd cannot run here, so the test does what it would: the [Service]
 * section's Environment= lines (specifiers expanded, %i the instance: a port), the variables an
 * operator puts in its EnvironmentFile= (the database, a key), nothing else of this shell's
 * environment but PATH, and its ExecStart= command line word for word, in a checkout built as
 * the unit's comment says (`npm run build`) standing for its WorkingDirectory=. Then /ready, and
 * the unit's KillSignal= ends the process cleanly well within TimeoutStopSec=.
 */
const UNIT = path.join(root, "deploy/portfolio-service@.service");
const KEY = "systemd-unit-" + crypto.randomBytes(12).toString("hex");

interface Unit {
  environment: Record<string, string>;
  environmentFiles: string[];
  execStart: string[];
  killSignal: NodeJS.Signals;
  timeoutStopSec: number;
}

/** The [Service] settings the test needs, parsed as systemd reads them (systemd.exec(5), systemd.service(5)). */
function readUnit(file: string, instance: string): Unit {
  const expand = (value: string) =>
    value.replace(/%(.)/g, (_, c: string) => {
      if (c === "i" || c === "I") return instance;
      if (c === "%") return "%";
      throw new Error(`the test does not expand the specifier %${c}`);
    });
  let section = "";
  const unit: Unit = {
    environment: {},
    environmentFiles: [],
    execStart: [],
    killSignal: "SIGTERM",
    timeoutStopSec: 90,
  };
  for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (section !== "Service") continue;
    const [name, ...rest] = line.split("=");
    const value = expand(rest.join("="));
    if (name === "Environment") {
      // Space-separated assignments; one in double quotes may hold spaces.
      for (const m of value.matchAll(/"([^"]*)"|(\S+)/g)) {
        const assignment = m[1] ?? m[2];
        const eq = assignment.indexOf("=");
        unit.environment[assignment.slice(0, eq)] = assignment.slice(eq + 1);
      }
    } else if (name === "EnvironmentFile") unit.environmentFiles.push(value);
    else if (name === "ExecStart") {
      expect(value).not.toMatch(/["'\\$;|&<>]/); // a plain command line: split on spaces, as written
      unit.execStart = value.split(/\s+/);
    } else if (name === "KillSignal") unit.killSignal = value as NodeJS.Signals;
    else if (name === "TimeoutStopSec") unit.timeoutStopSec = Number(value);
  }
  return unit;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the operator's EnvironmentFile holds for this test: PostgreSQL when there is one, else the embedded database. */
async function environmentFile(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  // No test reaches a host outside the machine.
  const common = { BOOTSTRAP_API_KEY: KEY, MARKET_DATA_PROVIDER: "none", FX_PROVIDER: "none" };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `systemd_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    return {
      env: { ...common, DATABASE_URL: withDatabase(serverUrl, name) },
      cleanup: async () => {
        const a = new pg.Client({ connectionString: serverUrl });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pf-systemd-"));
  return {
    env: { ...common, DATA_DIR: path.join(dir, "data") },
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function run(command: string[], env: Record<string, string>): Proc {
  const child = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe("the example systemd unit", () => {
  beforeAll(() => {
    // The unit's deployment step: build once (nothing to do when dist/ is current).
    // As an operator runs it: without the npm settings of the test run (CI's `npm test
    // --ignore-scripts` would otherwise reach this npm and skip a pre- or post-build script).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
    const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, encoding: "utf8", env });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  }, 240_000);

  it("starts from its ExecStart with its environment, is ready, and stops cleanly on its KillSignal", async () => {
    const port = await freePort();
    const unit = readUnit(UNIT, String(port));
    expect(unit.environment.PORT).toBe(String(port));
    expect(unit.environmentFiles).toEqual(["/etc/portfolio-service/env"]);
    const file = await environmentFile();
    const proc = run(unit.execStart, { PATH: process.env.PATH ?? "/usr/bin:/bin", ...file.env, ...unit.environment });
    try {
      await waitFor(proc, /"msg":"listening/, 60_000);
      // HOST=0.0.0.0 is every interface, and the log says so.
      expect(proc.output()).toContain(`"host":"0.0.0.0","port":${port},"msg":"listening on all interfaces`);
      // A new database: every migration is applied at start, and named.
      expect(proc.output()).toMatch(/"msg":"migrations applied: \d+_init, /);
      const base = `http://127.0.0.1:${port}`;
      const ready = await fetch(base + "/ready");
      expect(ready.status).toBe(200);
      expect((await fetch(base + "/v1/portfolios", { headers: { authorization: KEY } })).status).toBe(200);

      const signalled = Date.now();
      proc.child.kill(unit.killSignal);
      await waitFor(proc, /shutting down/, 5_000);
      // Out of rotation at once, still serving during SHUTDOWN_DELAY_MS.
      const leaving = await fetch(base + "/ready");
      expect(leaving.status).toBe(503);
      expect(leaving.headers.get("content-type")).toContain("application/problem+json");
      expect(leaving.headers.get("connection")).toBe("close");
      expect((await fetch(base + "/v1/portfolios", { headers: { authorization: KEY } })).status).toBe(200);

      expect(await exitWithin(proc, unit.timeoutStopSec * 1000)).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(Number(unit.environment.SHUTDOWN_DELAY_MS ?? 0));
      expect(proc.output()).toContain('"msg":"stopped"');
    } finally {
      proc.child.kill("SIGKILL");
      await file.cleanup();
    }
  }, 120_000);
});
