import pg from "pg";
import pino from "pino";
import { PGlite } from "@electric-sql/pglite";
import { createApp } from "../src/app";
import { openDatabase } from "../src/db";
import { marketDataProviders } from "../src/modules/market-data/providers/registry";
import { MarketDataRefresher } from "../src/modules/market-data/refresh";
import { baselineServer, type Query } from "./baseline";

/**
 * One benchmark server in its own process: VARIANT=service (the real app) or VARIANT=baseline.
 * It opens DATABASE_URL, or the PGlite data directory BENCH_DATA_DIR (each process its own copy),
 * reports `{ready, port}` over IPC, and answers `{stats}` with the statements sent so far and
 * `{idle}` once its market-data refresh (BENCH_MARKET_URL, B15) has ended.
 */
async function main() {
  const variant = process.env.VARIANT;
  const url = process.env.DATABASE_URL || undefined;
  if (variant === "service") {
    const db = await openDatabase({ url, dataDir: process.env.BENCH_DATA_DIR, migrate: false });
    const log = pino({ level: "silent" });
    const marketUrl = process.env.BENCH_MARKET_URL;
    // B15: Yahoo is bench/fake-yahoo.ts, and its politeness limit (2/s) is lifted unless
    // BENCH_MARKET_RATE sets one, so the refresh's time is the service's own.
    const marketData = marketUrl
      ? new MarketDataRefresher(
          db,
          marketDataProviders(
            { provider: "yahoo", url: marketUrl, fxProvider: "none", fxUrl: marketUrl, schedule: "off", staleDays: 3 },
            undefined,
            { rate: { requests: Number(process.env.BENCH_MARKET_RATE || 1000), perMs: 1000 } },
          ),
          log,
          "off",
          3,
        )
      : undefined;
    const { httpServer } = await createApp({
      db,
      config: { rateLimitPerSecond: 0, rateLimitBurst: 1 },
      log,
      marketData,
      // B18: the web app as `npm run build` bundles it, into a folder of the bench's own.
      webAppDir: process.env.BENCH_WEB_DIR || undefined,
    });
    httpServer.listen(0, "127.0.0.1", () => {
      const address = httpServer.address() as { port: number };
      process.send!({ ready: true, port: address.port });
    });
    process.on("message", async (m: { stats?: boolean; idle?: boolean }) => {
      if (m.stats) process.send!({ statements: db.statementCount });
      if (m.idle) {
        await marketData?.idle();
        process.send!({ idle: true });
      }
    });
    return;
  }
  let query: Query;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    query = async (sql, params) => (await pool.query(sql, params)).rows;
  } else {
    const db = await PGlite.create(process.env.BENCH_DATA_DIR + "/pglite");
    query = async (sql, params) => (await db.query(sql, params)).rows as never;
  }
  const server = baselineServer(query);
  server.listen(0, "127.0.0.1", () =>
    process.send!({ ready: true, port: (server.address() as { port: number }).port }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
