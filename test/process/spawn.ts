import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";

/**
 * Runs src/ scripts as real processes. `node --import tsx` rather than the tsx CLI: the CLI is a
 * parent process that relays signals and SIGKILLs a child that has not acknowledged one within
 * 30 ms, which a child busy in PGlite may not; the tests signal the service itself. NODE_ENV is
 * production: under "test" Apollo skips the signal handlers it installs in a real deployment.
 */
export const root = path.join(__dirname, "../..");

export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function start(script: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NODE_OPTIONS: "",
      LOG_LEVEL: "info",
      PORT: "0",
      RATE_LIMIT_PER_SECOND: "0",
      // No test reaches a host outside the machine: a test that wants a provider names a local one.
      MARKET_DATA_PROVIDER: "none",
      FX_PROVIDER: "none",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function waitFor(proc: Proc, pattern: RegExp, ms = 45_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const m = pattern.exec(proc.output());
    if (m) return m;
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${pattern} in the output:\n${proc.output()}`);
}

export async function startServer(env: Record<string, string>): Promise<Proc & { base: string }> {
  const proc = start("src/index.ts", [], env);
  try {
    const m = await waitFor(proc, /"port":(\d+),"msg":"listening/);
    return { ...proc, base: `http://127.0.0.1:${m[1]}` };
  } catch (error) {
    proc.child.kill("SIGKILL");
    throw error;
  }
}

/** The exit code, or "still running" once `ms` have passed (a generous bound, not a timing). */
export function exitWithin(proc: Proc, ms: number): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout;
  const late = new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), ms)));
  return Promise.race([proc.exited, late]).finally(() => clearTimeout(timer));
}

/**
 * A POST whose headers go now and whose body goes on `finish()`: a request the server has begun
 * and cannot complete until then, to hold one in flight across a signal.
 */
export function heldPost(base: string, p: string, key: string, body: unknown) {
  const text = JSON.stringify(body);
  const url = new URL(p, base);
  // A keep-alive client: the server, not the client, must be the one to ask for the close.
  const agent = new http.Agent({ keepAlive: true });
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: "POST",
    agent,
    headers: { authorization: key, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
  });
  const response = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => {
        agent.destroy();
        resolve({ status: res.statusCode!, connection: res.headers.connection, body: data });
      });
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  return { response, finish: () => req.end(text) };
}
