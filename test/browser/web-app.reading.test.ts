import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import type { DemoBook } from "../../src/cli/demo-book";
import { BROKER_FORMATS } from "../../src/modules/trades/broker-formats/registry";
import { monthStarts } from "../../src/web/periods";
import { DESKTOP, PHONE, useDemoWebApp, WAIT } from "./demo-web-app";

/**
 * The web app's figures read for what they are, on the demo book as web-app.test.ts sets it up:
 * the myTax PDF under the server's name, returns labelled by period (cumulative or a year's), the
 * rebalance from today's drift with its warnings in words and its cash typed as people type it,
 * tables that scroll on a phone as named regions, a missing portfolio said once, import errors
 * that point to the app's own format choice, and the last prices with a refresh followed to its end.
 */

const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const web = useDemoWebApp();
const { gql, open } = web;
let api: string;
let key: string;
let book: DemoBook;
let page: Page;
let tmp: string;
beforeAll(async () => {
  ({ api, key, book, page, tmp } = web);
  await page.goto(`${api}/app/`);
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("API key").press("Enter");
  await page.locator(".portfolio").first().waitFor(WAIT);
});

/** A percentage as the app shows it (src/web/format.ts). */
const shown = (value: number | null) => (value === null ? "—" : `${value.toFixed(2)}%`);

/** axe-core's serious and critical findings on the page as it is. */
async function axeFindings(): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } })
      .axe;
    return (await axe.run()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => v.id);
  });
}

describe("the web app's figures, read for what they are", () => {
  it("saves the myTax PDF under the name a quoted filename or a filename* gives (was only a quoted one)", async () => {
    await open(`#/portfolio/${book.individualId}/tax`, "#net-capital-gain");
    const pdf = "**/v1/portfolios/*/reports/ato-mytax/pdf*";
    for (const [disposition, name] of [
      [`attachment; filename="mytax 1.pdf"`, "mytax 1.pdf"],
      [`attachment; filename="mytax.pdf"; filename*=UTF-8''mytax-%C3%A9t%C3%A9.pdf`, "mytax-été.pdf"],
    ]) {
      await page.route(pdf, (route) =>
        route.fulfill({
          contentType: "application/pdf",
          headers: { "content-disposition": disposition },
          body: "%PDF-1.4",
        }),
      );
      const [download] = await Promise.all([page.waitForEvent("download", WAIT), page.locator("#mytax-pdf").click()]);
      expect(download.suggestedFilename()).toBe(name);
      await page.unroute(pdf);
    }
  });

  it("Portfolios and Overview: the total return's amount beside the whole period's percentage, not a year's", async () => {
    const { portfolios } = await gql<{
      portfolios: { id: string; performance: { modifiedDietz: { cumulativePercent: number | null } } }[];
    }>(`{ portfolios { id performance { modifiedDietz { cumulativePercent } } } }`);
    await open("#/portfolios", "[data-portfolio-id]");
    for (const p of portfolios) {
      const card = page.locator(`[data-portfolio-id="${p.id}"]`);
      expect(await card.locator(".portfolio-return").innerText()).toContain(
        `(${shown(p.performance.modifiedDietz.cumulativePercent)})`,
      );
      expect(await card.innerText()).toMatch(/Total return since \d+\s\w{3}\s\d{4}/);
    }
    await open(`#/portfolio/${book.individualId}/overview`, "#total-value");
    const { performance } = await gql<{
      performance: {
        modifiedDietz: { cumulativePercent: number };
        totalReturn: { totalReturnPercent: number; isAnnualized: boolean };
      };
    }>(
      `query($id: ID!) { performance(portfolioId: $id) { modifiedDietz { cumulativePercent } totalReturn { totalReturnPercent isAnnualized } } }`,
      { id: book.individualId },
    );
    expect(performance.totalReturn.isAnnualized).toBe(true); // the demo book's three years
    const headline = await page.locator("#total-return").innerText();
    expect(headline).toContain(`(${shown(performance.modifiedDietz.cumulativePercent)})`);
    expect(headline).not.toContain(shown(performance.totalReturn.totalReturnPercent));
  });

  it("Overview: the holdings' return is named for what it is, over the range, its percentage a year's (was Gain)", async () => {
    const headers = await page.locator("#holdings-table thead th").allInnerTexts();
    expect(headers.map((h) => h.replace(/[▲▼\s]+$/, ""))).toEqual(
      expect.arrayContaining(["Value", "Return", "Return a year"]),
    );
    expect(headers.join()).not.toMatch(/Gain/);
    expect(await page.locator("#holdings-table caption").innerText()).toMatch(/return from .* to .*, income included/);
    expect(await page.locator("#holdings-return-help").innerText()).toMatch(/not the unrealised gain/);
  });

  it("the value chart names each month once, at its start (was Jul 2026, Jul 2026, Aug 2026)", async () => {
    expect(monthStarts([])).toEqual([]);
    expect(monthStarts(["2025-07-01", "2025-07-02", "2025-07-31", "2025-08-01", "2025-08-02", "2025-09-01"])).toEqual([
      0, 3, 5,
    ]);
    // A range from mid-month: its first label is the next month's start.
    expect(monthStarts(["2025-11-28", "2025-11-29", "2025-12-01", "2026-01-01"])).toEqual([2, 3]);
    // Weekly points: the first point of each month.
    expect(monthStarts(["2024-06-24", "2024-07-01", "2024-07-08", "2024-08-05", "2024-08-12"])).toEqual([1, 3]);
    // Days in one month that does not start in range: the first point, so the axis is not bare.
    expect(monthStarts(["2026-11-20", "2026-11-21"])).toEqual([0]);
  });

  it("Rebalance: today's drift first, as computeRebalance has it with no cash; what cash to invest does, and whose cash counts", async () => {
    const { computeRebalance } = await gql<{
      computeRebalance: { driftReport: { entries: { label: string; currentPct: number }[] } };
    }>(`mutation($id: ID!) { computeRebalance(portfolioId: $id) { driftReport { entries { label currentPct } } } }`, {
      id: book.individualId,
    });
    await open(`#/portfolio/${book.individualId}/rebalance`, "#drift-table");
    expect(await page.locator("#cash-to-invest").inputValue()).toBe("0");
    for (const e of computeRebalance.driftReport.entries) {
      const row = page.locator("#drift-table tbody tr", { has: page.locator("th", { hasText: e.label }) });
      expect(await row.innerText()).toContain(shown(e.currentPct));
    }
    expect(await page.locator("#cash-to-invest-help").innerText()).toMatch(/new money you would add/);
    expect(await page.locator("#legs").innerText()).toMatch(/Cash accounts counted[\s\S]*no Cash bucket/);
    expect(await page.locator("main").innerText()).toMatch(/by asset class: \d+ buckets\./);
  });

  it("Rebalance: the cash typed with separators or a $ is taken; anything else is refused in words and the stale trades go", async () => {
    const input = page.locator("#cash-to-invest");
    for (const typed of ["10,000", "$5000", "$ 2,500.50"]) {
      await input.fill(typed);
      await page.getByRole("button", { name: "Compute trades" }).click();
      await page.locator("#legs-table td", { hasText: "Buy" }).first().waitFor(WAIT);
      expect(await page.getByRole("alert").count()).toBe(0);
    }
    // The warnings in words: money as money, no API field names (was "136.1092 ... (in cashRemaining)").
    const warnings = await page.locator("#legs .warnings").innerText();
    expect(warnings).toMatch(/\$\d[\d,]*\.\d\d of the cash unspent/);
    expect(warnings).not.toMatch(/cashRemaining|minTradeValue|\d\.\d{3}/);
    // Prices as money, the one way the app writes amounts (was "AUD 81.82").
    const prices = await page.locator("#legs-table tbody td").allInnerTexts();
    expect(prices.filter((t) => /^[A-Z]{3} \d/.test(t))).toEqual([]);

    await input.fill("ten thousand");
    await page.getByRole("button", { name: "Compute trades" }).click();
    await expect(page.getByRole("alert").innerText()).resolves.toMatch(/amount in dollars and cents, such as 10000/);
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#legs-table").count()).toBe(0);
  });

  it("on a phone every table that scrolls is a named region the keyboard reaches, and the rebalance's Status shows", async () => {
    await page.setViewportSize(PHONE);
    try {
      for (const [hash, ready] of [
        [`#/portfolio/${book.individualId}/income`, "#payments"],
        [`#/portfolio/${book.individualId}/tax`, "#harvest"],
        [`#/portfolio/${book.individualId}/rebalance`, "#drift-table"],
        ["#/data", "#securities"],
      ]) {
        await open(hash, ready);
        await page.waitForTimeout(200); // the regions are measured on their ResizeObserver
        expect({ hash, findings: await axeFindings() }).toEqual({ hash, findings: [] });
        const regions = await page.$$eval(".table-wrap", (wraps) =>
          wraps
            .filter((w) => w.scrollWidth > w.clientWidth + 1)
            .map((w) => ({
              tabindex: w.getAttribute("tabindex"),
              role: w.getAttribute("role"),
              named: Boolean(w.getAttribute("aria-label")),
            })),
        );
        expect(regions.filter((r) => r.tabindex !== "0" || r.role !== "region" || !r.named)).toEqual([]);
      }
      // The rebalance's Status column sits inside the phone's view of its table, unscrolled.
      await open(`#/portfolio/${book.individualId}/rebalance`, "#drift-table");
      const [status, wrap] = await Promise.all([
        page.locator("#drift-table thead th", { hasText: "Status" }).boundingBox(),
        page.locator("#drift .table-wrap").boundingBox(),
      ]);
      expect(status!.x + status!.width).toBeLessThanOrEqual(wrap!.x + wrap!.width);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("a portfolio that is not there is said once, with no offer to try again (a 404 answers the same every time)", async () => {
    for (const view of ["tax", "income", "rebalance", "overview"]) {
      await page.evaluate((h) => (location.hash = h), `#/portfolio/999/${view}`);
      await page.getByRole("alert").first().waitFor(WAIT);
      await page.waitForFunction(() => !document.querySelector(".loading"), undefined, WAIT);
      expect(await page.getByRole("alert").allInnerTexts()).toEqual(["Portfolio 999 was not found."]);
      expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    }
  });

  it("Data: each security's last price with its date, and a refresh followed until its run ends", async () => {
    await open("#/data", "#securities");
    const row = page.locator("#securities tbody tr", { has: page.locator("th", { hasText: "CBA.ASX" }) });
    expect(await row.locator("td").nth(1).innerText()).toMatch(/^\$\d+\.\d\d\s+\d+\s\w{3}\s\d{4}$/);
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page
      .locator("#refresh-status", { hasText: /Refresh run \d+ (succeeded|partly failed|failed)/ })
      .waitFor({ timeout: 60_000 });
    await expect(page.locator("#last-run").innerText()).resolves.not.toMatch(/Running/);
  });

  it("Data: an import refused is told in words that point to the Format choice, which the import then uses", async () => {
    const unknown = path.join(tmp, "unknown.csv");
    fs.writeFileSync(unknown, "foo,bar,baz\n1,2,3\n");
    await page.getByLabel("Portfolio").selectOption(book.individualId);
    await page.getByLabel("Broker file (CSV)").setInputFiles(unknown);
    // The choice is the API's list (tradeImportFormats): the CSV formats, in the order auto tries them.
    const offered = await page
      .getByLabel("Format")
      .locator("option")
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(["auto", "native", ...BROKER_FORMATS.filter((f) => f.media === "csv").map((f) => f.id)]);
    await page.getByRole("button", { name: "Preview" }).click();
    const refusal = await page.getByRole("alert").innerText();
    expect(refusal).toMatch(/pick its format under Format/);
    expect(refusal).toMatch(/SelfWealth Movements: Trade Date, Settlement Date/);
    expect(refusal).not.toMatch(/\?format=|\(body\)|is not commsec/);

    // A format named is the one read: SelfWealth's file as CommSec's is refused, as its own read.
    const selfwealth = path.join(__dirname, "../fixtures/brokers/selfwealth.csv");
    await page.getByLabel("Broker file (CSV)").setInputFiles(selfwealth);
    await page.getByLabel("Format").selectOption("commsec");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("alert").innerText()).resolves.toMatch(/not a CommSec Transactions file/);
    await page.getByLabel("Format").selectOption("selfwealth");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator("#import-result", { hasText: "Preview" }).waitFor(WAIT);
    expect(await page.locator("#import-result").innerText()).toMatch(/selfwealth: \d+ trade\(s\) would be imported/);
  });
});
