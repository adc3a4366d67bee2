import { parseArgs } from "node:util";
import pino from "pino";
import { loadConfig } from "../config";
import { buildContext } from "../context";
import { openDatabase, type Database } from "../db";
import { createAccountKey, listAccounts } from "../modules/accounts/accounts.service";
import { CreateApiKeyInput } from "../modules/accounts/api-keys.schemas";
import { listApiKeys, revokeApiKey, rotateApiKey, type ApiKeyView } from "../modules/accounts/api-keys.service";
import { parseInput } from "../lib/validation";
import { SeriesCache } from "../modules/ledger/valuation/series-cache";

/**
 * API keys from the command line (README: Managing API keys). It opens the server's database
 * (DATABASE_URL, or the embedded one in DATA_DIR) or, given a server URL and an account key, goes
 * through the running server's API; the embedded database admits one process, so while the server
 * runs on it the server is the way in. New keys are printed as the last line of stdout.
 */
const USAGE = `usage: npm run -s keys -- <command>
  create --account <name> [--name <text>]   a new key for the account (made when it does not exist)
  list                                      accounts with their key counts
  list-keys --account <name>                the account's keys (never the keys themselves)
  revoke <keyId> --account <name>           the key is refused from its next request on
  rotate <keyId> --account <name>           a new key in place of the old one
Through the running server (needed for the embedded database while the server runs):
  --url <server> (or PORTFOLIO_URL) with the account key in PORTFOLIO_API_KEY; then create --name <text>,
  list-keys, revoke <keyId> and rotate <keyId> act on that key's account.`;

const COMMANDS = new Set(["create", "list", "list-keys", "revoke", "rotate"]);

/** A mistake in the command line: printed with the usage, exit status 2. */
class UsageError extends Error {}

interface Command {
  name: string;
  keyId?: string;
  account?: string;
  keyName?: string;
}

const show = (k: ApiKeyView) =>
  [
    k.id,
    k.kind === "Client" ? `Client ${k.clientId}` : "Account",
    k.name ?? "(no name)",
    `created ${new Date(k.createdAt).toISOString()}`,
    ...(k.current ? ["(this key)"] : []),
  ].join("\t");

type NewKey = ApiKeyView & { key: string };

function printNewKey(what: string, k: NewKey): void {
  console.error(`${what} (id ${k.id}). It is shown only now:`);
  console.log(k.key);
}

/** On the database itself: every account, as the operator of the installation. */
async function direct(cmd: Command, db: Database): Promise<void> {
  if (cmd.name === "create") {
    // The same rule for a name as the API's.
    const label = cmd.keyName === undefined ? undefined : parseInput(CreateApiKeyInput, { name: cmd.keyName }).name;
    const { account, key } = await createAccountKey(db.prisma, { accountName: cmd.account!, label });
    console.error(`New API key for account '${account.name}' (id ${account.id}). It is shown only now:`);
    console.log(key);
    return;
  }
  if (cmd.name === "list") {
    for (const a of await listAccounts(db.prisma)) {
      console.log(
        `${a.id}\t${a.name}\t${a._count.apiKeys} key(s)\t${a._count.portfolios} portfolio(s)\tcreated ${a.createdAt.toISOString()}`,
      );
    }
    return;
  }
  const account = await db.prisma.account.findUnique({
    where: { name: cmd.account! },
    select: { id: true, name: true },
  });
  if (!account) throw new Error(`There is no account named '${cmd.account}' (see: npm run -s keys -- list).`);
  // The operator is no key of the account: keyId 0 is none, so no key is `current`.
  const ctx = buildContext({
    db: db.prisma,
    auth: { keyId: 0, account },
    log: pino({ level: "silent" }),
    series: new SeriesCache(1),
  });
  if (cmd.name === "list-keys") for (const k of await listApiKeys(ctx)) console.log(show(k));
  else if (cmd.name === "revoke") {
    await revokeApiKey(ctx, cmd.keyId);
    console.error(`API key ${cmd.keyId} of account '${account.name}' is revoked.`);
  } else printNewKey(`API key ${cmd.keyId} is rotated: the new key`, await rotateApiKey(ctx, cmd.keyId));
}

/** Through the server's API: the account of the key given. */
async function remote(cmd: Command, url: string, key: string): Promise<void> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const target = url.replace(/\/+$/, "") + "/v1" + path;
    let res: Response;
    try {
      res = await fetch(target, {
        method,
        headers: { authorization: key, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error);
      throw new Error(`Cannot reach the server at ${url} (${cause}). Is it running, and is the URL right?`);
    }
    const text = await res.text();
    let answer: Record<string, unknown> | undefined;
    try {
      answer = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      answer = undefined; // not JSON: a proxy's page, or not this service at that URL
    }
    if (!res.ok) throw new Error(`The server answered ${res.status} ${answer?.code ?? ""}: ${answer?.detail ?? text}`);
    return answer as T;
  };
  if (cmd.name === "list-keys") {
    for (const k of await call<ApiKeyView[]>("GET", "/api-keys")) console.log(show(k));
  } else if (cmd.name === "create") {
    const made = await call<NewKey>("POST", "/api-keys", { name: cmd.keyName });
    printNewKey(`New API key '${made.name}'`, made);
  } else if (cmd.name === "revoke") {
    await call("DELETE", `/api-keys/${encodeURIComponent(cmd.keyId!)}`);
    console.error(`API key ${cmd.keyId} is revoked.`);
  } else {
    const made = await call<NewKey>("POST", `/api-keys/${encodeURIComponent(cmd.keyId!)}/rotate`);
    printNewKey(`API key ${cmd.keyId} is rotated: the new key`, made);
  }
}

/** The refusal of a second process by the embedded database (db.ts: lockDataDir). */
const LOCKED = /^The embedded database in (.+) is in use by process (\d+)\./;

/** What to do when the server holds the embedded database. */
const lockedAdvice = (dir: string, pid: string) =>
  `The embedded database in ${dir} is in use by process ${pid} (the server, most likely), and it admits one process. Either:
  - go through the running server: set PORTFOLIO_API_KEY to an account key and add --url http://localhost:4000
    (or set PORTFOLIO_URL); list-keys, create --name <text>, revoke <keyId> and rotate <keyId> then act on that
    key's account;
  - or stop the server, run this again, then start the server (a lost key: create --account <name> makes a new one);
  - or run the server on PostgreSQL (DATABASE_URL): this command then opens the database while the server runs.`;

/** The key may go over https anywhere, over plain http only to this machine. */
function sentSafely(url: string): boolean {
  try {
    const u = new URL(url);
    return (
      u.protocol === "https:" || (u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname))
    );
  } catch {
    throw new UsageError(`--url ${url} is not a URL (e.g. http://localhost:4000).`);
  }
}

function parse(argv: string[]): { cmd: Command; url?: string; key?: string } {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: "string" },
      name: { type: "string" },
      label: { type: "string" },
      url: { type: "string" },
      key: { type: "string" },
    },
  });
  const [name, keyId, ...extra] = positionals;
  if (!name || !COMMANDS.has(name)) throw new UsageError(name ? `Unknown command '${name}'.` : "A command is needed.");
  const takesId = name === "revoke" || name === "rotate";
  if (takesId && !keyId) throw new UsageError(`${name} needs the key's id (see list-keys).`);
  if ((!takesId && keyId) || extra.length) throw new UsageError(`Unexpected '${[keyId, ...extra].join(" ")}'.`);
  // A key on the command line would show in the process list (ps, /proc) and the shell's history.
  if (values.key !== undefined)
    throw new UsageError(
      "An account key is not taken on the command line (other users see it in ps): set PORTFOLIO_API_KEY.",
    );
  const url = values.url ?? (process.env.PORTFOLIO_URL || undefined);
  const key = process.env.PORTFOLIO_API_KEY || undefined;
  const cmd = { name, keyId, account: values.account, keyName: values.name ?? values.label };
  if (url) {
    if (!key) throw new UsageError(`Through the server at ${url} an account key is needed in PORTFOLIO_API_KEY.`);
    if (!sentSafely(url))
      throw new UsageError(
        `${url} would carry the key in clear across the network: use https://, or http:// to this machine only.`,
      );
    if (name === "list") throw new UsageError("list reads every account: it needs the database, not the server.");
    if (cmd.account)
      throw new UsageError(
        "Through the server the key's own account is managed: drop --account, or drop --url (and PORTFOLIO_URL) to open the database.",
      );
    if (name === "create" && !cmd.keyName) throw new UsageError("create through the server needs --name <text>.");
    return { cmd, url, key };
  }
  if (name !== "list" && !cmd.account) throw new UsageError(`${name} needs --account <name>.`);
  return { cmd };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { cmd, url, key } = parsed;
  if (url) {
    await remote(cmd, url, key!);
    return 0;
  }
  const config = loadConfig();
  let db: Database;
  try {
    db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  } catch (error) {
    const locked = LOCKED.exec(error instanceof Error ? error.message : "");
    if (!locked) throw error;
    console.error(lockedAdvice(locked[1], locked[2]));
    return 1;
  }
  try {
    await direct(cmd, db);
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
