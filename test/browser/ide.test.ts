import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pino from "pino";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createApp, type App } from "../../src/app";
import { loadConfig } from "../../src/config";
import { createAccountKey } from "../../src/modules/accounts/accounts.service";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * The browser pages of the service in a real Chromium with every host but 127.0.0.1 blocked, as
 * on an office network without internet: the API reference (/docs), the offline GraphQL IDE
 * (/graphiql), the Sandbox page (/graphql) with Apollo's CDN unreachable, and CORS as a browser
 * enforces it. Screenshots go to test-output/browser/.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = path.join(__dirname, "../../test-output/browser");
const WAIT = { timeout: 20_000 };

let db: TestDatabase;
let app: App;
let api: string;
let browser: Browser;
/** Page servers of two other origins: the first is in CORS_ORIGINS, the second is not. */
let allowedPages: http.Server;
let otherPages: http.Server;

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const close = (server: http.Server | undefined) =>
  new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));

/** A third-party web page whose own script calls the API's /graphql with a key. */
function corsPage(req: http.IncomingMessage, res: http.ServerResponse): void {
  const params = new URL(req.url ?? "/", "http://x").searchParams;
  const settings = JSON.stringify({ api: params.get("api"), key: params.get("key") }).replace(/</g, "\\u003c");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!DOCTYPE html><html><head><title>Another origin</title><link rel="icon" href="data:,"></head><body>
<h1>A page on another origin</h1><p id="out">waiting</p>
<script>
  const s = ${settings};
  fetch(s.api + "/graphql", { method: "POST", headers: { "content-type": "application/json", authorization: s.key }, body: JSON.stringify({ query: "{ portfolios { name } }" }) })
    .then((r) => r.json())
    .then((j) => { document.getElementById("out").textContent = "result: " + j.data.portfolios.map((p) => p.name).join(", "); })
    .catch((e) => { document.getElementById("out").textContent = "fetch failed: " + e.message; });
</script></body></html>`);
}

interface OfflinePage {
  page: Page;
  context: BrowserContext;
  /** Every request the browser tried to send off this machine (each one was aborted). */
  blocked: string[];
  /** Console errors and uncaught exceptions on the page. */
  errors: string[];
}

/** A fresh browser profile that can reach 127.0.0.1 only. */
async function offlinePage(): Promise<OfflinePage> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: "block" });
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    blocked.push(url.href);
    return route.abort("internetdisconnected");
  });
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  return { page, context, blocked, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, name), fullPage: false });

async function newKeyWithPortfolio(portfolioName: string): Promise<string> {
  const { key } = await createAccountKey(db.prisma, { accountName: `browser ${portfolioName}` });
  const res = await fetch(`${api}/v1/portfolios`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: key },
    body: JSON.stringify({ name: portfolioName }),
  });
  expect(res.status).toBe(201);
  return key;
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: the browser tests need one. Install Debian's package (apt-get install -y chromium) ` +
        `or point CHROMIUM_PATH at a Chromium or Chrome binary. Playwright's own browser download is not used.`,
    );
  }
  fs.mkdirSync(SHOTS, { recursive: true });
  allowedPages = http.createServer(corsPage);
  otherPages = http.createServer(corsPage);
  const allowedOrigin = await listen(allowedPages);
  await listen(otherPages);

  db = await openTestDatabase();
  // The configuration a deployment would read from its environment, with this page origin allowed.
  const config = { ...loadConfig({ RATE_LIMIT_PER_SECOND: "0", CORS_ORIGINS: allowedOrigin }), dataDir: undefined };
  app = await createApp({ db, log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }), config });
  api = await listen(app.httpServer);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await close(app?.httpServer);
  await app?.stop();
  await db?.close();
  await close(allowedPages);
  await close(otherPages);
});

describe("the service's browser pages without internet", () => {
  it("/docs: Swagger UI, from the service's own files, lists the operations", async () => {
    const { page, context, blocked, errors } = await offlinePage();
    try {
      await page.goto(`${api}/docs/`);
      await page.getByText("List portfolios").first().waitFor(WAIT);
      await page.getByText("Create a portfolio").first().waitFor(WAIT);
      await shot(page, "docs.png");
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("/graphiql: loads without a key, takes the key in its Headers editor and shows the query's result", async () => {
    const key = await newKeyWithPortfolio("Offline IDE Fund");
    const { page, context, blocked, errors } = await offlinePage();
    try {
      const res = await page.goto(`${api}/graphiql`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()["content-security-policy"]).toMatch(/default-src 'none'/);
      const query = page.locator(".graphiql-query-editor .CodeMirror");
      await query.waitFor(WAIT);
      // The headers editor is open, holding the placeholder rather than a key.
      const headers = page.locator(".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror");
      await headers.waitFor(WAIT);
      expect(await headers.innerText()).toContain("<your API key>");
      await shot(page, "graphiql-start.png");
      // The schema loaded without a key (introspection): the Docs panel can list the root types.
      await page.getByRole("button", { name: /show documentation explorer/i }).click();
      await page.locator(".graphiql-doc-explorer").getByText("Query", { exact: true }).first().waitFor(WAIT);

      // Run as it opens: the placeholder is not sent as a key, and the answer says what to send.
      await page.locator(".graphiql-execute-button").click();
      await page.waitForFunction(
        () => document.querySelector(".result-window")?.textContent?.includes("UNAUTHENTICATED"),
        undefined,
        WAIT,
      );
      expect(await page.locator(".result-window").innerText()).toContain("A valid API key is required");
      // Headers are never persisted, and the settings offer no switch to persist them.
      await page.getByRole("button", { name: /open settings dialog/i }).click();
      const settings = page.getByRole("dialog");
      await settings.getByText("Theme").first().waitFor(WAIT);
      expect(await settings.innerText()).not.toMatch(/persist headers/i);
      await page.keyboard.press("Escape");

      // As a person would: replace the headers with their key, write the query, press run.
      await headers.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.insertText(`{"Authorization": "${key}"}`);
      await query.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.insertText("{ portfolios { id name } }");
      await page.locator(".graphiql-execute-button").click();

      const result = page.locator(".graphiql-response .CodeMirror, .result-window .CodeMirror").first();
      await page.waitForFunction(
        (text) => document.querySelector(".result-window")?.textContent?.includes(text),
        "Offline IDE Fund",
        WAIT,
      );
      const shown = await result.innerText();
      expect(shown).toContain('"name": "Offline IDE Fund"');
      expect(shown).not.toContain("errors");
      await shot(page, "graphiql-result.png");

      expect(blocked).toEqual([]);
      // The one error the console shows is the key-less run's 401: no CSP refusal, no script error.
      expect(errors).toEqual([expect.stringMatching(/status of 401/)]);
      // Headers are secrets: nothing the page stored holds the key.
      const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage, ...window.sessionStorage }));
      expect(stored).toContain("portfolios { id name }");
      expect(stored).not.toContain(key);
    } finally {
      await context.close();
    }
  });

  it("/graphql in a browser: Apollo's CDN unreachable, the page still links to the offline IDE", async () => {
    const { page, context, blocked } = await offlinePage();
    try {
      const res = await page.goto(`${api}/graphql`);
      expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
      const link = page.getByRole("link", { name: /open GraphiQL at \/graphiql/ });
      await link.waitFor({ state: "visible", ...WAIT });
      // Apollo's fallback fades in; wait for it, for a screenshot a person could read.
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector(".fallback")!).opacity === "1",
        undefined,
        WAIT,
      );
      await shot(page, "graphql-offline.png");
      // The page did try Apollo's CDN: this is the offline case, not a page that needs nothing.
      expect(blocked.some((u) => u.includes("apollographql.com"))).toBe(true);

      await link.click();
      await page.waitForURL(`${api}/graphiql`, WAIT);
      await page.locator(".graphiql-query-editor .CodeMirror").waitFor(WAIT);
    } finally {
      await context.close();
    }
  });
});

describe("CORS as a browser enforces it", () => {
  /** Opens the page server's page, whose script calls /graphql with the key; returns what it shows. */
  async function fromPageOn(server: http.Server, key: string, screenshot: string): Promise<string> {
    const { page, context } = await offlinePage();
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await page.goto(`${origin}/?${new URLSearchParams({ api, key })}`);
      await page.waitForFunction(() => document.getElementById("out")?.textContent !== "waiting", undefined, WAIT);
      await shot(page, screenshot);
      return await page.locator("#out").innerText();
    } finally {
      await context.close();
    }
  }

  it("a page on an origin in CORS_ORIGINS reads /graphql with a key", async () => {
    const key = await newKeyWithPortfolio("Cross Origin Fund");
    expect(await fromPageOn(allowedPages, key, "cors-allowed.png")).toBe("result: Cross Origin Fund");
  });

  it("a page on an origin not in CORS_ORIGINS cannot read /graphql, key or not", async () => {
    const key = await newKeyWithPortfolio("Other Origin Fund");
    expect(await fromPageOn(otherPages, key, "cors-refused.png")).toMatch(/^fetch failed/);
  });
});
