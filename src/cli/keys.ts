import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDatabase } from "../db";
import { createAccountKey, listAccounts } from "../modules/accounts/accounts.service";

/**
 * API keys from the command line:
 *   npm run -s keys -- create --account <name> [--label <text>]   prints the new key as the last line
 *   npm run -s keys -- list                                       accounts with their key counts
 * It opens the same database as the server (DATABASE_URL, or the embedded one in DATA_DIR; the
 * embedded one only while the server is stopped).
 */
const USAGE = "usage: npm run -s keys -- create --account <name> [--label <text>] | list";

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { account: { type: "string" }, label: { type: "string" } },
  });
  const command = positionals[0];
  if (command !== "create" && command !== "list") {
    console.error(USAGE);
    return 2;
  }
  if (command === "create" && !values.account) {
    console.error("--account <name> is required.\n" + USAGE);
    return 2;
  }
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    if (command === "create") {
      const { account, key } = await createAccountKey(db.prisma, { accountName: values.account!, label: values.label });
      console.error(`New API key for account '${account.name}' (id ${account.id}). It is shown only now:`);
      console.log(key);
    } else {
      for (const a of await listAccounts(db.prisma)) {
        console.log(
          `${a.id}\t${a.name}\t${a._count.apiKeys} key(s)\t${a._count.portfolios} portfolio(s)\tcreated ${a.createdAt.toISOString()}`,
        );
      }
    }
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
