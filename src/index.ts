import { createApp } from "./app";
import { loadConfig } from "./config";
import { openDatabase } from "./db";
import { createLogger } from "./logger";
import { ensureBootstrapAccount } from "./modules/accounts/accounts.service";

/** Process entry: configure, open the database, build the app, listen, shut down cleanly. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  log.info({ database: db.kind, dataDir: config.databaseUrl ? undefined : config.dataDir }, "database ready");

  const { createdKey } = await ensureBootstrapAccount(db.prisma, config.bootstrapApiKey, log);
  if (createdKey) {
    // Printed once, on the first start with no account: the only time this key is ever shown.
    process.stdout.write(
      `\nFirst start: created account 'default'. Its API key (shown only now):\n\n  ${createdKey}\n\nSend it as 'Authorization: <key>'. More keys: npm run -s keys -- create --account <name>\n\n`,
    );
  }

  const { httpServer, stop } = await createApp({ db, config, log });
  await new Promise<void>((resolve) => httpServer.listen(config.port, config.host, resolve));
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ port }, `listening on http://localhost:${port} (REST /v1, GraphQL /graphql, docs /docs)`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: draining in-flight requests");
    const force = setTimeout(() => {
      log.warn("drain timed out; closing remaining connections");
      httpServer.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      await stop(); // Apollo's drain plugin closes the HTTP server and waits for in-flight requests.
      await db.close();
      log.info("stopped");
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "unclean shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
