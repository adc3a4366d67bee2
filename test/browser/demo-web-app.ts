import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createApp, type App } from "../../src/app";
import { fillDemoAccount, graphqlClient, type DemoBook } from "../../src/cli/demo-book";
import { demoMarket, isoDay, writeDemoRecordings } from "../../src/cli/demo-market";
import { bundleWebApp } from "../../src/cli/web-bundle";
import { loadConfig } from "../../src/config";
import { createAccountKey } from "../../src/modules/accounts/accounts.service";
import { marketDataProviders } from "../../src/modules/market-data/providers/registry";
import { MarketDataRefresher } from "../../src/modules/market-data/refresh";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * The web app on the demo book, for a browser suite: the service with the bundled app on a port of
 * its own, the demo account filled through the API from replayed provider responses (as `npm run
 * demo` fills it), and Debian's Chromium with every host but 127.0.0.1 blocked, on a page not yet signed in. Called
 * at a suite's top level, it registers the suite's beforeAll and afterAll (nothing happens on
 * import); the fields are set once beforeAll has run.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const WAIT = { timeout: 20_000 };
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface DemoWebApp {
  db: TestDatabase;
  app: App;
  /** The service's base URL (`http://127.0.0.1:<port>`). */
  api: string;
  key: string;
  book: DemoBook;
  marketData: MarketDataRefresher;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** A folder of the suite's own, removed afterwards. */
  tmp: string;
  /** What the page did: requests (by path), failures, console errors, attempts to leave the machine. */
  seen: { requests: string[]; failed: string[]; errors: string[]; blocked: string[] };
  gql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Goes to a view by its hash and waits for `ready` and for every loading note to go. */
  open(hash: string, ready: string): Promise<void>;
}

export function useDemoWebApp(): DemoWebApp {
  const web = {
    seen: { requests: [] as string[], failed: [] as string[], errors: [] as string[], blocked: [] as string[] },
    gql: <T>(query: string, variables?: Record<string, unknown>) =>
      graphqlClient(web.api, web.key)<T>(query, variables),
    async open(hash: string, ready: string) {
      await web.page.evaluate((h) => (location.hash = h), hash);
      await web.page.locator(ready).first().waitFor(WAIT);
      await web.page.waitForFunction(() => !document.querySelector(".loading"), undefined, WAIT);
    },
  } as DemoWebApp;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM))
      throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH.`);
    web.tmp = fs.mkdtempSync(path.join(os.tmpdir(), "web-app-"));
    const market = demoMarket(isoDay(new Date()));
    writeDemoRecordings(path.join(web.tmp, "recordings"), market);
    await bundleWebApp(path.join(web.tmp, "web"));

    web.db = await openTestDatabase();
    const env = {
      RATE_LIMIT_PER_SECOND: "0",
      MARKET_DATA_PROVIDER: "replay",
      FX_PROVIDER: "replay",
      MARKET_DATA_REPLAY_DIR: path.join(web.tmp, "recordings"),
      MARKET_DATA_SCHEDULE: "off",
    };
    const config = { ...loadConfig(env), dataDir: undefined };
    const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
    web.marketData = new MarketDataRefresher(web.db, marketDataProviders(config.marketData), log, "off", 3);
    web.app = await createApp({
      db: web.db,
      log,
      config,
      marketData: web.marketData,
      webAppDir: path.join(web.tmp, "web"),
    });
    await new Promise<void>((resolve) => web.app.httpServer.listen(0, "127.0.0.1", resolve));
    web.api = `http://127.0.0.1:${(web.app.httpServer.address() as AddressInfo).port}`;
    ({ key: web.key } = await createAccountKey(web.db.prisma, { accountName: "demo" }));
    web.book = await fillDemoAccount(web.api, web.key, market);

    web.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    web.context = await web.browser.newContext({ viewport: DESKTOP, serviceWorkers: "block" });
    const { seen } = web;
    await web.context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "127.0.0.1") return route.continue();
      seen.blocked.push(url.href);
      return route.abort("internetdisconnected");
    });
    web.page = await web.context.newPage();
    web.page.on("request", (r) => r.url().startsWith("http") && seen.requests.push(new URL(r.url()).pathname));
    web.page.on("requestfailed", (r) => seen.failed.push(`${r.url()} ${r.failure()?.errorText}`));
    web.page.on("console", (m) => m.type() === "error" && seen.errors.push(m.text()));
    web.page.on("pageerror", (e) => seen.errors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await web.browser?.close();
    const server = web.app?.httpServer;
    await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    await web.app?.stop();
    await web.marketData?.stop();
    await web.db?.close();
    if (web.tmp) fs.rmSync(web.tmp, { recursive: true, force: true });
  });
  return web;
}
