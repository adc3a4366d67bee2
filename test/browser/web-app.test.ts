import fs from "node:fs";
import path from "node:path";
import Decimal from "decimal.js";
import type { Page } from "playwright-core";
import type { DemoBook } from "../../src/cli/demo-book";
import type { MarketDataRefresher } from "../../src/modules/market-data/refresh";
import type { TestDatabase } from "../support/db";
import { useDemoWebApp, WAIT } from "./demo-web-app";

/**
 * The web app at /app (WEB.md) in Debian's Chromium, every host but 127.0.0.1 blocked, on the demo
 * book (npm run demo's, filled through the API from replayed provider responses): sign-in, each
 * view with the API's figures, drawn charts, the keyboard, an axe-core scan, sign-out and a 401.
 * One browser, one page and one database for the whole file; screenshots of every view at
 * 1280×800 and 390×844 go to test-output/browser/app-*.png.
 */

const SHOTS = path.join(__dirname, "../../test-output/browser");
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const web = useDemoWebApp();
const { seen, gql, open } = web;
let db: TestDatabase;
let api: string;
let key: string;
let book: DemoBook;
let page: Page;
let marketData: MarketDataRefresher;
beforeAll(() => {
  ({ db, api, key, book, page, marketData } = web);
  fs.mkdirSync(SHOTS, { recursive: true });
});

const expectClean = (allowedErrors: RegExp[] = []) => {
  expect(seen.blocked).toEqual([]);
  expect(seen.failed).toEqual([]);
  expect(seen.errors.filter((e) => !allowedErrors.some((r) => r.test(e)))).toEqual([]);
  // Only the app's own files, /graphql, and the myTax PDF's REST path.
  const own = /^\/app\/(assets\/[\w.-]+)?$|^\/graphql$|^\/v1\/portfolios\/\d+\/reports\/ato-mytax\/pdf$/;
  expect(seen.requests.filter((p) => !own.test(p))).toEqual([]);
};

/** A money figure as shown ("$161,038.12") against the API's decimal, to the cent. */
const asShown = (text: string) => text.replace(/[$,\s]/g, "").replace(/^\((.*)\)$/, "-$1");
const cents = (value: string) => new Decimal(value).toFixed(2);

async function shoot(name: string): Promise<void> {
  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150); // Chart.js redraws on its ResizeObserver
    await page.screenshot({ path: path.join(SHOTS, `app-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Every canvas of the page has drawn something (a pixel that is not transparent). */
async function expectChartsDrawn(count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll("canvas").length === n, count, WAIT);
  const drawn = await page.$$eval("canvas", (canvases) =>
    canvases.map((c) => {
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    }),
  );
  expect(drawn).toEqual(Array(count).fill(true));
}

/** axe-core, injected through the DevTools protocol (the page's CSP allows no inline script). */
async function expectAccessible(): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } })
      .axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
  });
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  // Every table (src/web/table.tsx) has a caption, column headers by scope, and a header for each row.
  const tables = await page.$$eval("main table", (ts) =>
    ts.map((t) => ({
      caption: Boolean(t.querySelector("caption")?.textContent),
      unscoped: t.querySelectorAll("thead th:not([scope=col])").length,
      rowsWithoutHeader: Array.from(t.querySelectorAll("tbody tr, tfoot tr")).filter(
        (r) => r.querySelectorAll("th[scope=row]").length !== 1,
      ).length,
    })),
  );
  expect(tables.filter((t) => !t.caption || t.unscoped || t.rowsWithoutHeader)).toEqual([]);
}

describe("the web app on the demo book", () => {
  it("serves /app with a strict CSP and signs in with the pasted key, kept in sessionStorage only", async () => {
    const res = await page.goto(`${api}/app/`);
    expect(res?.status()).toBe(200);
    const csp = res?.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    await page.getByLabel("API key").fill(key);
    await shoot("sign-in");
    await page.getByLabel("API key").press("Enter");
    await page.locator(".portfolio").first().waitFor(WAIT);
    expect(page.url()).not.toContain(key);
    const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
    expect(Object.values(stored.session)).toContain(key);
    expect(JSON.stringify(stored.local)).not.toContain(key);
  });

  it("Portfolios: each portfolio's value as the API has it, and its client", async () => {
    const { portfolios } = await gql<{ portfolios: { id: string; performance: { totalValue: string } }[] }>(
      `{ portfolios { id performance { totalValue } } }`,
    );
    for (const p of portfolios) {
      const card = page.locator(`[data-portfolio-id="${p.id}"]`);
      expect(asShown(await card.locator(".portfolio-value").innerText())).toBe(cents(p.performance.totalValue));
    }
    await expect(page.locator(`[data-portfolio-id="${book.smsfId}"]`).innerText()).resolves.toContain("Alex Smith");
    await expectAccessible();
    await shoot("portfolios");
    expectClean();
  });

  it("Overview: value, holdings count and charts as the API answers; ranges, grouping and sorting", async () => {
    await open(`#/portfolio/${book.individualId}/overview`, "#total-value");
    const { performance } = await gql<{ performance: { totalValue: string; holdings: unknown[] } }>(
      `query($id: ID!) { performance(portfolioId: $id) { totalValue holdings { id } } }`,
      { id: book.individualId },
    );
    expect(asShown(await page.locator("#total-value").innerText())).toBe(cents(performance.totalValue));
    expect(await page.locator("#holdings-table tbody tr").count()).toBe(performance.holdings.length);
    await expectChartsDrawn(2);
    await expectAccessible();
    await shoot("overview");

    await page.getByText("FY to date", { exact: true }).click();
    await page.waitForFunction(
      () => /from 1\s+Jul/.test(document.querySelector("#value-chart")?.getAttribute("aria-label") ?? ""),
      undefined,
      WAIT,
    );
    // The value chart's figures as a table: its last point is the value the page states for the period's end.
    const rows = page.locator("#value-points tbody tr");
    expect(await rows.count()).toBeGreaterThan(1);
    expect(asShown((await rows.last().locator("td").first().textContent()) ?? "")).toBe(
      asShown(await page.locator("#total-value").innerText()),
    );
    // Regrouping reloads the page's data, the value series unchanged: its chart is not rebuilt.
    const chartId = () =>
      page.$eval("#value-chart", (c) => {
        const w = window as unknown as { chartIds?: WeakMap<object, number>; nextId?: number };
        const state = (c as unknown as { $chartjs?: object }).$chartjs!;
        w.chartIds ??= new WeakMap();
        if (!w.chartIds.has(state)) w.chartIds.set(state, (w.nextId = (w.nextId ?? 0) + 1));
        return w.chartIds.get(state);
      });
    const before = await chartId();
    await page.locator("#group-by").selectOption("sector");
    await page.locator('#allocation-chart[aria-label^="Allocation by sector"]').waitFor(WAIT);
    await expectChartsDrawn(2);
    expect(await chartId()).toBe(before);
    const units = page.locator("#holdings-table thead button", { hasText: "Units" });
    await units.click();
    await expect(page.locator("#holdings-table th[aria-sort]").innerText()).resolves.toContain("Units");
    expect(await page.locator("#holdings-table th[aria-sort]").getAttribute("aria-sort")).toBe("descending");
    expectClean();
  });

  it("Income: the forecast's total and its monthly bars", async () => {
    await open(`#/portfolio/${book.individualId}/income`, "#forecast-total");
    const { incomeForecast } = await gql<{ incomeForecast: { total: { cash: string } } }>(
      `query($id: ID!) { incomeForecast(portfolioId: $id) { total { cash } } }`,
      { id: book.individualId },
    );
    expect(new Decimal(incomeForecast.total.cash).gt(0)).toBe(true);
    expect(asShown(await page.locator("#forecast-total").innerText())).toBe(cents(incomeForecast.total.cash));
    await expectChartsDrawn(1);
    await expectAccessible();
    await shoot("income");
    expectClean();
  });

  it("Tax: the year's net capital gain, the myTax labels, the planner's lists and the PDF saved as a file", async () => {
    await open(`#/portfolio/${book.individualId}/tax`, "#net-capital-gain");
    await page.locator("#planner").waitFor(WAIT);
    const financialYear = Number(await page.locator("#tax-year").inputValue());
    const { capitalGainsReport: cg } = await gql<{ capitalGainsReport: { summary: { netCapitalGain: string } } }>(
      `query($id: ID!, $fy: Int) { capitalGainsReport(portfolioId: $id, financialYear: $fy) { summary { netCapitalGain } } }`,
      { id: book.individualId, fy: financialYear },
    );
    expect(asShown(await page.locator("#net-capital-gain").innerText())).toBe(cents(cg.summary.netCapitalGain));
    expect(await page.locator("#mytax-labels tbody tr").count()).toBeGreaterThan(0);
    expect(await page.locator("#harvest tbody tr").count()).toBeGreaterThan(0);
    expect(await page.locator("#wait-for-discount tbody tr").count()).toBeGreaterThan(0);
    // Last year's sales: the disposals table fills.
    const lastYear = await page.locator("#tax-year option").nth(1).getAttribute("value");
    await page.locator("#tax-year").selectOption(lastYear!);
    await page.locator("#disposals").waitFor(WAIT);
    const [download] = await Promise.all([
      page.waitForEvent("download", WAIT),
      page.getByRole("button", { name: "Download myTax PDF" }).click(),
    ]);
    // The server's name (an unquoted token, RFC 6266), not the app's stand-in.
    expect(download.suggestedFilename()).toBe(`mytax-${book.individualId}-FY${lastYear}.pdf`);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
    await expectAccessible();
    await shoot("tax");
    expectClean();
  });

  it("Rebalance: drift against the band, and the legs for a cash amount and mode", async () => {
    await open(`#/portfolio/${book.individualId}/rebalance`, "#drift-table");
    await expectChartsDrawn(1);
    await page.getByLabel("Cash to invest (AUD)").fill("10,000");
    await page.getByRole("button", { name: "Compute trades" }).click();
    await page.locator("#legs-table td", { hasText: "Buy" }).first().waitFor(WAIT);
    await page.getByLabel("Cash to invest (AUD)").fill("0");
    await page.getByLabel("Mode", { exact: true }).selectOption("BuyAndSell");
    await page.getByRole("button", { name: "Compute trades" }).click();
    // Buying only with $10,000 has no sell leg; buying and selling with none has.
    await page.locator("#legs-table td", { hasText: "Sell" }).first().waitFor(WAIT);
    await expectAccessible();
    await shoot("rebalance");
    expectClean();
  });

  it("Rebalance names a portfolio's own base currency (was AUD whatever the portfolio's)", async () => {
    const { createPortfolio } = await gql<{ createPortfolio: { id: string } }>(
      `mutation($input: CreatePortfolioInput!) { createPortfolio(input: $input) { id } }`,
      { input: { name: "US dollars", baseCurrencyCode: "USD" } },
    );
    await open(`#/portfolio/${createPortfolio.id}/rebalance`, "#cash-to-invest");
    await page.getByLabel("Cash to invest (USD)").waitFor(WAIT);
    expect(await page.getByLabel("Cash to invest (AUD)").count()).toBe(0);
  });

  it("a failed load says why and offers to try again, which loads the view", async () => {
    let refused = 0;
    await page.route("**/graphql", async (route) => {
      if (refused++ > 0) return route.fallback();
      await route.fulfill({
        status: 503,
        contentType: "application/problem+json",
        body: JSON.stringify({ status: 503, title: "Service unavailable", detail: "The database is not reachable." }),
      });
    });
    await page.evaluate((h) => (location.hash = h), `#/portfolio/${book.individualId}/income`);
    await page.getByRole("alert").getByRole("button", { name: "Try again" }).click(WAIT);
    await page.locator("#forecast-total").waitFor(WAIT);
    await page.unroute("**/graphql");
    expect(refused).toBeGreaterThanOrEqual(2);
    // The 503 is the only error the page saw (the browser logs it as a failed resource).
    expectClean([/status of 503/]);
  });

  it("a malformed address is the portfolio list, not a broken page (decodeURIComponent threw)", async () => {
    seen.errors.length = 0;
    await open("#/portfolio/%E0%A4%A/overview", "[data-portfolio-id]");
    expectClean();
  });

  it("Data: market-data status and refresh; a broker file previewed, then imported, through GraphQL", async () => {
    await open("#/data", "#securities");
    expect(await page.locator("#securities tbody tr").count()).toBeGreaterThanOrEqual(8);
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.waitForFunction(() => /started/.test(document.querySelector("#refresh-status")?.textContent ?? ""));
    await marketData.idle();
    await page.getByLabel("Portfolio").selectOption(book.individualId);
    await page
      .getByLabel("Broker file (CSV)")
      .setInputFiles(path.join(__dirname, "../fixtures/brokers/selfwealth.csv"));
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator("#import-result", { hasText: "Preview" }).waitFor(WAIT);
    expect(await page.locator("#import-result").innerText()).toMatch(/selfwealth: \d+ trade\(s\) would be imported/);
    await expectAccessible();
    await shoot("data");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.locator("#import-result", { hasText: "Imported" }).waitFor(WAIT);
    expectClean();
  });

  it("every control is reached and worked from the keyboard", async () => {
    await open(`#/portfolio/${book.individualId}/overview`, "#total-value");
    await page.locator("body").focus();
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      reached.add(
        await page.evaluate(() => {
          const e = document.activeElement as HTMLElement;
          return `${e.tagName.toLowerCase()}:${e.getAttribute("name") ?? e.id ?? ""}:${e.textContent?.trim().slice(0, 20)}`;
        }),
      );
    }
    const all = [...reached].join("\n");
    for (const want of [/^a::Skip to content/m, /^a::Portfolios/m, /^a::Data/m, /^button::Sign out/m, /^a::Tax/m])
      expect(all).toMatch(want);
    expect(all).toMatch(/^input:range:/m);
    expect(all).toMatch(/^select:group-by/m);
    expect(all).toMatch(/^button::Holding/m);
    // A tab is followed with Enter; the view's heading takes the focus.
    await page.locator("nav.tabs a", { hasText: "Income" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("#forecast-total").waitFor(WAIT);
    expect(page.url()).toMatch(/\/income$/);
    expectClean();
  });

  it("the tax year and the rebalance are worked from the keyboard alone", async () => {
    /** Tab until the focused element is `selector` (at most 60 presses); fails if never. */
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press("Tab");
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await open(`#/portfolio/${book.individualId}/tax`, "#net-capital-gain");
    await page.locator("body").focus();
    await tabTo("#tax-year");
    const before = await page.locator("#tax-year").inputValue();
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction((y) => (document.querySelector("#tax-year") as HTMLSelectElement).value !== y, before);
    await page.waitForFunction(() => !document.querySelector(".loading"), undefined, WAIT);
    await tabTo("#mytax-pdf");

    await open(`#/portfolio/${book.individualId}/rebalance`, "#drift-table");
    await page.locator("body").focus();
    await tabTo("#cash-to-invest");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("0");
    await tabTo("#rebalance-mode");
    await page.keyboard.press("ArrowDown"); // Buy only → Buy and sell
    expect(await page.locator("#rebalance-mode").inputValue()).toBe("BuyAndSell");
    await tabTo("button[type=submit]");
    await page.keyboard.press("Enter");
    await page.locator("#legs-table td", { hasText: "Sell" }).first().waitFor(WAIT);
    expectClean();
  });

  it("Sign out forgets the key; a refused key returns to sign-in", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor(WAIT);
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(key);
    await page.reload();
    await page.getByLabel("API key").waitFor(WAIT);

    await page.getByLabel("API key").fill("pfk_not-a-key-of-this-service-at-all");
    await page.getByLabel("API key").press("Enter");
    await page.getByText("The API key was not accepted").waitFor(WAIT);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await shoot("refused");
    expectClean([/status of 401/]);
  });
});
