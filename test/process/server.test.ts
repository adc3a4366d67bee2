import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { withDatabase } from "../support/global-setup";
import { migratedDataDir } from "../support/migrated-data-dir";
import { start, startServer } from "./spawn";

/**
 * The service as a process, the way the README starts it: first-start key, BOOTSTRAP_API_KEY, the
 * keys CLI, the data-directory lock, and a clean SIGTERM. Runs src/ through tsx (./spawn.ts).
 */
async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; lastLine: string }> {
  const proc = start("src/cli/keys.ts", args, env);
  const code = await proc.exited;
  const stdout = proc.output().trim().split("\n");
  return { code, output: proc.output(), lastLine: stdout[stdout.length - 1] };
}

const get = (base: string, p: string, key?: string) => fetch(base + p, { headers: key ? { authorization: key } : {} });

describe("the service process on the embedded database", () => {
  const dataDir = migratedDataDir("pf-proc-");
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("prints a key on the first start, guards its data directory, and stops cleanly on SIGTERM", async () => {
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const key = /API key \(shown only now\):\s+(pfk_\S+)/.exec(server.output())?.[1];
      expect(key).toBeDefined();
      expect((await get(server.base, "/v1/sources", key)).status).toBe(200);
      expect((await get(server.base, "/health")).status).toBe(200);
      expect(await (await get(server.base, "/ready")).json()).toEqual({ status: "ready", database: "pglite" });

      // The keys CLI refuses to open the directory while the server holds it.
      const refused = await runCli(["create", "--account", "adviser"], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/in use by process \d+/);

      // SIGTERM while a request is in flight: the request completes, the process exits 0.
      const inFlight = get(server.base, "/v1/portfolios", key);
      await new Promise((r) => setTimeout(r, 5));
      server.child.kill("SIGTERM");
      expect((await inFlight).status).toBe(200);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('"msg":"stopped"');
      expect(fs.existsSync(path.join(dataDir, "service.lock"))).toBe(false);
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("creates keys from the CLI and honours BOOTSTRAP_API_KEY; no key is printed once accounts exist", async () => {
    const created = await runCli(["create", "--account", "adviser"], { DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    expect(created.lastLine).toMatch(/^pfk_[A-Za-z0-9_-]{43}$/);
    const listed = await runCli(["list"], { DATA_DIR: dataDir });
    expect(listed.output).toMatch(/\tadviser\t1 key\(s\)/);

    const bootstrap = "bootstrap-" + crypto.randomBytes(12).toString("hex");
    const server = await startServer({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: bootstrap });
    try {
      expect(server.output()).not.toContain("shown only now");
      expect((await get(server.base, "/v1/portfolios", created.lastLine)).status).toBe(200);
      expect((await get(server.base, "/v1/portfolios", bootstrap)).status).toBe(200);
      expect((await get(server.base, "/v1/portfolios", "bootstrap-wrong")).status).toBe(401);
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });

  it("refuses to start on an invalid configuration, naming the variable", async () => {
    const proc = start("src/index.ts", [], { DATA_DIR: dataDir, PORT: "not-a-port" });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/PORT/);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
(serverUrl ? describe : describe.skip)("several stateless processes on one PostgreSQL database", () => {
  it("start together (one applies the migrations) and serve the same data", async () => {
    const name = `proc_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const env = {
      DATABASE_URL: withDatabase(serverUrl!, name),
      BOOTSTRAP_API_KEY: "shared-" + crypto.randomBytes(12).toString("hex"),
    };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    try {
      const created = await fetch(servers[0].base + "/v1/portfolios", {
        method: "POST",
        headers: { authorization: env.BOOTSTRAP_API_KEY, "content-type": "application/json" },
        body: JSON.stringify({ name: "Shared" }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const read = await get(servers[1].base, `/v1/portfolios/${id}`, env.BOOTSTRAP_API_KEY);
      expect(read.status).toBe(200);
      expect(await (await get(servers[1].base, "/ready")).json()).toEqual({ status: "ready", database: "postgresql" });
    } finally {
      for (const s of servers) s.child.kill("SIGTERM");
      expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
