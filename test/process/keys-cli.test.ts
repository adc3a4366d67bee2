import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { withDatabase } from "../support/global-setup";
import { migratedDataDir } from "../support/migrated-data-dir";
import { start, startServer } from "./spawn";

/**
 * The keys CLI as an operator runs it (README: Managing API keys), while the server runs: on the
 * embedded database it cannot open the data directory, says what to do instead, and manages the
 * keys through the server's API; with the server stopped it opens the database (a lost key's
 * recovery); on PostgreSQL it opens the database while the server runs.
 */
async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; stdout: string[]; lastLine: string }> {
  // The operator's own PORTFOLIO_URL and PORTFOLIO_API_KEY never reach a run that does not name them.
  const proc = start("src/cli/keys.ts", args, { PORTFOLIO_URL: "", PORTFOLIO_API_KEY: "", ...env });
  const code = await proc.exited;
  const lines = proc.output().trim().split("\n");
  // What the CLI prints on stdout (keys and list lines), from the output both streams share.
  const stdout = lines.filter((line) => /^(pfk_\S+|\d+\t.*)$/.test(line));
  return { code, output: proc.output(), stdout, lastLine: stdout[stdout.length - 1] ?? "" };
}

/** Each story spawns the CLI up to ten times (a few seconds each through tsx) besides a server. */
const CLI_STORY_MS = 240_000;

const status = async (base: string, key: string) =>
  (await fetch(base + "/v1/portfolios", { headers: { authorization: key } })).status;

/** The id of the listed key with this name (list-keys prints `id kind name created [this key]`). */
const idNamed = (listed: string[], name: string) => listed.find((l) => l.split("\t")[2] === name)?.split("\t")[0];

describe("the keys CLI on the embedded database", () => {
  const dataDir = migratedDataDir("pf-keys-");
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let firstKey: string;

  it(
    "while the server runs: says what to do instead of opening the database, and works through the server",
    async () => {
      const server = await startServer({ DATA_DIR: dataDir });
      try {
        firstKey = /API key \(shown only now\):\s+(pfk_\S+)/.exec(server.output())![1];
        const via = { DATA_DIR: dataDir, PORTFOLIO_URL: server.base, PORTFOLIO_API_KEY: firstKey };
        // --url instead of PORTFOLIO_URL; the key only ever from the environment (argv shows in ps).
        const flags = ["--url", server.base];
        const keyOnly = { DATA_DIR: dataDir, PORTFOLIO_API_KEY: firstKey };
        // The runs refused before any change (the locked directory, bad command lines, another
        // account) change nothing the first create depends on: they run beside it.
        const [locked, made, inArgv, inClear, account] = await Promise.all([
          runCli(["list-keys", "--account", "default"], { DATA_DIR: dataDir }),
          runCli(["create", "--name", "Laptop"], via),
          runCli(["list-keys", ...flags, "--key", firstKey], keyOnly),
          runCli(["list-keys", "--url", "http://portfolio.example:4000"], keyOnly),
          // Through the server only the key's own account: --account is refused, naming why.
          runCli(["create", "--account", "other"], via),
        ]);
        expect(locked.code).toBe(1);
        expect(locked.output).toMatch(/in use by process \d+/);
        for (const option of ["--url", "PORTFOLIO_URL", "PORTFOLIO_API_KEY", "stop the server", "DATABASE_URL"])
          expect(locked.output).toContain(option);
        expect(inArgv.code).toBe(2);
        expect(inArgv.output).toContain("set PORTFOLIO_API_KEY");
        expect(inClear.code).toBe(2);
        expect(inClear.output).toContain("in clear");
        expect(account.code).toBe(2);
        expect(account.output).toMatch(/key's own account/);

        expect(made.code).toBe(0);
        expect(made.lastLine).toMatch(/^pfk_[A-Za-z0-9_-]{43}$/);
        expect(await status(server.base, made.lastLine)).toBe(200);

        const listed = await runCli(["list-keys"], via);
        expect(listed.code).toBe(0);
        expect(listed.stdout).toEqual([
          expect.stringMatching(/^\d+\tAccount\tfirst start\tcreated \S+Z\t\(this key\)$/),
          expect.stringMatching(/^\d+\tAccount\tLaptop\tcreated \S+Z$/),
        ]);
        expect(listed.output).not.toContain(made.lastLine);

        const rotated = await runCli(["rotate", idNamed(listed.stdout, "Laptop")!, ...flags], keyOnly);
        expect(rotated.code).toBe(0);
        expect(await status(server.base, made.lastLine)).toBe(401);
        expect(await status(server.base, rotated.lastLine)).toBe(200);

        const newId = idNamed((await runCli(["list-keys"], via)).stdout, "Laptop")!;
        expect((await runCli(["revoke", newId, ...flags], keyOnly)).code).toBe(0);
        expect(await status(server.base, rotated.lastLine)).toBe(401);

        // The last account key stays; the server's problem is shown.
        const ownId = idNamed(listed.stdout, "first start")!;
        const last = await runCli(["revoke", ownId], via);
        expect(last.code).toBe(1);
        expect(last.output).toMatch(/409 CONFLICT: .*last account key/);
        expect(await status(server.base, firstKey)).toBe(200);
      } finally {
        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
      }
    },
    CLI_STORY_MS,
  );

  it(
    "with the server stopped: a lost key is replaced from the database, and the old one revoked",
    async () => {
      const recovered = await runCli(["create", "--account", "default", "--name", "recovered"], { DATA_DIR: dataDir });
      expect(recovered.code).toBe(0);
      const listed = await runCli(["list-keys", "--account", "default"], { DATA_DIR: dataDir });
      expect(listed.stdout.map((l) => l.split("\t")[2])).toEqual(["first start", "recovered"]);
      const lost = idNamed(listed.stdout, "first start")!;
      expect((await runCli(["revoke", lost, "--account", "default"], { DATA_DIR: dataDir })).code).toBe(0);
      const unknown = await runCli(["revoke", "999", "--account", "default"], { DATA_DIR: dataDir });
      expect(unknown.code).toBe(1);
      expect(unknown.output).toMatch(/API key 999 was not found/);

      const server = await startServer({ DATA_DIR: dataDir });
      try {
        expect(await status(server.base, recovered.lastLine)).toBe(200);
        expect(await status(server.base, firstKey)).toBe(401);
      } finally {
        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
      }
    },
    CLI_STORY_MS,
  );

  it(
    "answers a bad command line with the usage (exit 2)",
    async () => {
      // Each is refused before the database is opened: they run at once.
      const bad = [[], ["revoke"], ["list-keys"], ["rotate", "1", "2", "--account", "a"], ["list", "--bogus"]];
      const runs = await Promise.all(bad.map((args) => runCli(args, { DATA_DIR: dataDir })));
      for (const [i, run] of runs.entries()) {
        expect({ args: bad[i], code: run.code }).toEqual({ args: bad[i], code: 2 });
        expect(run.output).toContain("usage: npm run -s keys");
      }
    },
    CLI_STORY_MS,
  );
});

const serverUrl = process.env.TEST_DATABASE_URL;
(serverUrl ? describe : describe.skip)("the keys CLI on PostgreSQL", () => {
  it(
    "opens the database while the server runs; what it changes, the server honours at once",
    async () => {
      const name = `keys_${crypto.randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const env = { DATABASE_URL: withDatabase(serverUrl!, name) };
      const server = await startServer({ ...env, BOOTSTRAP_API_KEY: "boot-" + crypto.randomBytes(12).toString("hex") });
      try {
        const made = await runCli(["create", "--account", "adviser", "--name", "Ops"], env);
        expect(made.code).toBe(0);
        expect(await status(server.base, made.lastLine)).toBe(200);
        // Another account's keys, listed beside the second create (a read of another account).
        const [second, other] = await Promise.all([
          runCli(["create", "--account", "adviser", "--name", "Spare"], env),
          runCli(["list-keys", "--account", "default"], env),
        ]);
        const listed = await runCli(["list-keys", "--account", "adviser"], env);
        expect(listed.stdout.map((l) => l.split("\t").slice(1, 3))).toEqual([
          ["Account", "Ops"],
          ["Account", "Spare"],
        ]);

        // Three changes to three different keys: none depends on another's outcome.
        const [rotated, revoked, foreign] = await Promise.all([
          runCli(["rotate", idNamed(listed.stdout, "Ops")!, "--account", "adviser"], env),
          runCli(["revoke", idNamed(listed.stdout, "Spare")!, "--account", "adviser"], env),
          // Another account's key id is not this account's.
          runCli(["revoke", other.stdout[0].split("\t")[0], "--account", "adviser"], env),
        ]);
        expect(rotated.code).toBe(0);
        expect(await status(server.base, made.lastLine)).toBe(401);
        expect(await status(server.base, rotated.lastLine)).toBe(200);

        expect(revoked.code).toBe(0);
        expect(await status(server.base, second.lastLine)).toBe(401);
        expect(foreign.code).toBe(1);
        expect(foreign.output).toMatch(/was not found/);
      } finally {
        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    },
    CLI_STORY_MS,
  );
});
