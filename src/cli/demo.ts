import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createApp } from "../app";
import { loadConfig } from "../config";
import { openDatabase } from "../db";
import { createLogger } from "../logger";
import { createAccountKey } from "../modules/accounts/accounts.service";
import { marketDataProviders } from "../modules/market-data/providers/registry";
import { MarketDataRefresher } from "../modules/market-data/refresh";
import { fillDemoAccount } from "./demo-book";
import { demoMarket, isoDay, writeDemoRecordings } from "./demo-market";

/**
 * `npm run demo` (README: The web app): a fresh embedded database in DEMO_DIR (default ./data-demo,
 * made anew on every run), account `demo` filled through the API from the replay provider's
 * recordings (src/cli/demo-book.ts), the service listening on it; prints the key and the web app's
 * URL. Nothing leaves the machine. Ctrl-C stops it; the service's own data (DATA_DIR) is not touched.
 */
const MARKER = ".portfolio-service-demo";

async function main() {
  const demoDir = path.resolve(process.env.DEMO_DIR ?? "data-demo");
  if (fs.existsSync(demoDir)) {
    if (!fs.existsSync(path.join(demoDir, MARKER)))
      throw new Error(`${demoDir} exists and is not a demo directory: set DEMO_DIR to a new directory.`);
    fs.rmSync(demoDir, { recursive: true, force: true });
  }
  fs.mkdirSync(demoDir, { recursive: true });
  fs.writeFileSync(path.join(demoDir, MARKER), "Made by npm run demo; removed by its next run.\n");
  const recordings = path.join(demoDir, "recordings");
  const market = demoMarket(isoDay(new Date()));
  writeDemoRecordings(recordings, market);

  const config = loadConfig({
    LOG_LEVEL: "warn",
    // This machine only, unless HOST says otherwise: the demo prints its key.
    HOST: "127.0.0.1",
    ...process.env,
    DATABASE_URL: "",
    DATA_DIR: path.join(demoDir, "db"),
    MARKET_DATA_PROVIDER: "replay",
    FX_PROVIDER: "replay",
    MARKET_DATA_REPLAY_DIR: recordings,
    MARKET_DATA_SCHEDULE: "off",
  });
  const log = createLogger(config.logLevel);
  const db = await openDatabase({ dataDir: config.dataDir });
  const { marketData: md } = config;
  const marketData = new MarketDataRefresher(db, marketDataProviders(md), log, md.schedule, md.staleDays);
  const { httpServer, stop } = await createApp({ db, config, log, marketData });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const { key } = await createAccountKey(db.prisma, { accountName: "demo" });
  process.stderr.write("Filling account 'demo' (two portfolios, three years of trades and prices)…\n");
  await fillDemoAccount(`http://127.0.0.1:${port}`, key, market);

  process.stdout.write(
    `\nThe demo is ready (embedded database in ${demoDir}, market data replayed from ${recordings}).\n\n` +
      `  Web app:  http://localhost:${port}/app/\n  API key:  ${key}\n\n` +
      `Paste the key on the sign-in page. GraphiQL: http://localhost:${port}/graphiql. Ctrl-C stops the demo.\n`,
  );

  const shutdown = async () => {
    httpServer.close();
    httpServer.closeAllConnections();
    await stop();
    await marketData.stop();
    await db.close();
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
