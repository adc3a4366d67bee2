import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import { loadConfig } from "./config";
import { openDatabase } from "./db";
import { drainOnClose } from "./http/drain";
import { createLogger } from "./logger";
import { migrationsAppliedInProcess } from "./migrate";
import { ensureBootstrapAccount } from "./modules/accounts/accounts.service";
import { marketDataProviders } from "./modules/market-data/providers/registry";
import { MarketDataRefresher } from "./modules/market-data/refresh";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Process entry: configure, open the database, build the app, listen, shut down cleanly. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const db = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
  });
  log.info({ database: db.kind, dataDir: config.databaseUrl ? undefined : config.dataDir }, "database ready");
  const migrations = migrationsAppliedInProcess() ?? [];
  log.info(
    { migrations },
    migrations.length ? `migrations applied: ${migrations.join(", ")}` : "migrations: none pending",
  );

  const { createdKey } = await ensureBootstrapAccount(db.prisma, config.bootstrapApiKey, log);
  if (createdKey) {
    // Printed once, on the first start with no account: the only time this key is ever shown.
    process.stdout.write(
      `\nFirst start: created account 'default'. Its API key (shown only now):\n\n  ${createdKey}\n\nSend it as 'Authorization: <key>'. More keys: npm run -s keys -- create --account <name>\n\n`,
    );
  }

  // Apollo's own signal handlers are off (src/graphql/server.ts): shutdown has one owner, here.
  const { schedule, staleDays } = config.marketData;
  const marketData = new MarketDataRefresher(db, marketDataProviders(config.marketData), log, schedule, staleDays);
  // Set on SIGTERM: /ready answers 503 from then on, so a load balancer takes the process out.
  const lifecycle = { stopping: false };
  const { httpServer, stop } = await createApp({ db, config, log, marketData, lifecycle });

  const drain = drainOnClose(httpServer);
  try {
    await listen(httpServer, config.port, config.host);
  } catch (error) {
    // Close cleanly (PGlite checkpoints), then report the listen failure, not a cleanup one.
    await stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
  const { address: host, port } = httpServer.address() as AddressInfo;
  log.info({ host, port }, listeningMessage(host, port));
  // After listening: a refresh never delays the start, and its failures are a state (/v1/market-data/status).
  marketData.start().catch((error) => log.warn({ err: error }, "market-data schedule not started"));

  const shutdown = async (signal: string) => {
    if (lifecycle.stopping) return;
    lifecycle.stopping = true;
    drain.leaveRotation();
    log.info({ signal, delayMs: config.shutdownDelayMs }, "shutting down: /ready answers 503");
    // Still serving while the load balancer's health check sees the 503 and routes elsewhere.
    if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    const closed = drain.close();
    log.info("stopped accepting connections; draining in-flight requests");
    // The last part of the budget is kept for closing the database. PGlite's close is a clean
    // PostgreSQL shutdown (a checkpoint); without one the next start recovers from the WAL, and
    // sequences resume past the values they had logged ahead: ids would jump by up to 32.
    const reserve = Math.min(3_000, Math.floor(config.shutdownTimeoutMs / 4));
    // Both timers stay referenced: an emptied event loop must not end the process before the
    // database is closed.
    const cut = setTimeout(() => {
      log.warn("drain timed out; closing remaining connections");
      drain.destroyAll();
    }, config.shutdownTimeoutMs - reserve);
    setTimeout(() => {
      log.error("the database did not close in time; exiting without closing it");
      process.exit(1);
    }, config.shutdownTimeoutMs);
    try {
      await closed;
      clearTimeout(cut);
      await stop(); // Apollo's own drain finds no connection left.
      await marketData.stop(); // The security in flight is not written; the next run fetches it again.
      await db.close();
      log.info("stopped");
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "unclean shutdown");
      process.exit(1);
    }
  };
  for (const s of SIGNALS) process.on(s, () => void shutdown(s));
}

/** Where the server listens, as an operator reads it: the wildcard address is every interface. */
function listeningMessage(host: string, port: number): string {
  const what = "(REST /v1, GraphQL /graphql, docs /docs)";
  if (host === "0.0.0.0" || host === "::") {
    return `listening on all interfaces, port ${port} (${host}:${port}) ${what}`;
  }
  return `listening on http://${host.includes(":") ? `[${host}]` : host}:${port} ${what}`;
}

/** Listens, or fails with one line an operator can act on (a port in use, a privileged port...). */
function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      const reason =
        error.code === "EADDRINUSE"
          ? `the port is already in use by another process; stop it or set PORT to a free port`
          : error.code === "EACCES"
            ? `permission denied (ports below 1024 need privileges); set PORT to 1024 or above`
            : error.code === "EADDRNOTAVAIL"
              ? `HOST is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0`
              : `${error.code ?? error.message}`;
      reject(new Error(`Cannot listen on ${where}: ${reason}.`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

main().catch((error) => {
  // Start-up failures (configuration, DATA_DIR, database, a taken port) carry a message written for operators.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
