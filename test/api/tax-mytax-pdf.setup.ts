/**
 * The investor the tax-mytax-pdf.*.test.ts stories print, the download of GET
 * /v1/portfolios/{p}/reports/ato-mytax/pdf, and the poppler-utils readings of the file (text, pages,
 * fonts, an image of a page). Importing it registers no hook: a suite hands its app, its key and its
 * scratch directory over, `myTaxPdfSetup(t, () => key, () => dir)`.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Decimal } from "decimal.js";
import type { Response, Test } from "supertest";
import { newPortfolio, newTrade, postCreated, newRoundTrip } from "../factories";
import { type Json } from "../support/outcomes";
import type { TestApp } from "../support/app";

export const PORTFOLIO_NAME = "Citizen Family Shares";

/** As the PDF prints an amount: 2 decimals, comma thousands separators, a leading minus. */
export function printed(amount: number | string): string {
  const fixed = new Decimal(amount).toFixed(2);
  const negative = fixed.startsWith("-");
  const [whole, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  return `${negative ? "-" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const run = (tool: string, args: string[]): string =>
  execFileSync(tool, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

/** The text of each page, as poppler lays it out (pages are separated by form feeds). */
export function pagesOf(file: string): string[] {
  const text = run("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"]);
  const pages = text.split("\f");
  if (pages[pages.length - 1].trim() === "") pages.pop();
  return pages;
}

export function pdfInfo(file: string): Record<string, string> {
  return Object.fromEntries(
    run("pdfinfo", [file])
      .split("\n")
      .filter((l) => l.includes(":"))
      .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

/** The scenario and the download over the suite's app, and the readings in its directory (inside tests only). */
export function myTaxPdfSetup(t: TestApp, key: () => string, dir: () => string) {
  const income = async (body: Json) => {
    const created = await postCreated<{ id: number }>(t, key(), "/v1/income", body);
    expect((await t.http.put(`/v1/income/${created.id}/confirm`).set("authorization", key())).status).toBe(200);
    return created.id;
  };

  async function investor(): Promise<number> {
    const portfolioId = await newPortfolio(t, key(), { name: PORTFOLIO_NAME });
    await newRoundTrip(t, key(), portfolioId, "AAA", ["2023-08-01", 1000, 10.55], ["2024-09-10", 1000, 14.2]);
    await newRoundTrip(t, key(), portfolioId, "BBB", ["2024-03-01", 500, 20], ["2025-02-03", 500, 26.5]);
    await newRoundTrip(t, key(), portfolioId, "CCC", ["2024-04-15", 100, 50], ["2025-03-03", 100, 30]);
    const cba = await newTrade(t, key(), {
      portfolioId,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-10-02",
      quantity: 200,
      price: 95,
    });
    const vas = await newTrade(t, key(), {
      portfolioId,
      symbol: "VAS",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-11-01",
      quantity: 100,
      price: 90,
    });
    await income({
      holdingId: cba.holdingId,
      exDividendDate: "2024-08-14",
      paidDate: "2024-09-26",
      frankedAmount: 1050,
    });
    await income({
      holdingId: vas.holdingId,
      exDividendDate: "2025-06-30",
      paidDate: "2025-07-15",
      isTrustIncome: true,
      unfrankedAmount: 1334.5,
      components: {
        nonPrimaryProductionIncome: 1234.5,
        frankedDistributions: 100,
        frankingCredits: 40,
        discountedCapitalGains: 300,
      },
    });
    const cash = await postCreated<{ id: number }>(t, key(), "/v1/cash-accounts", {
      portfolioId,
      name: "Saver",
      currencyCode: "AUD",
    });
    await postCreated(t, key(), "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "Deposit",
      date: "2024-07-01",
      amount: 20000,
    });
    await postCreated(t, key(), "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "InterestPayment",
      date: "2025-01-31",
      amount: 345.67,
    });
    return portfolioId;
  }

  /** GET the PDF, keeping the body as raw bytes whatever its type (problem+json included). */
  function getPdf(portfolioId: number | string, financialYear: string | number = 2025, k = key()): Test {
    return t.http
      .get(`/v1/portfolios/${portfolioId}/reports/ato-mytax/pdf`)
      .query({ financialYear })
      .set("authorization", k)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => cb(null, Buffer.concat(chunks)));
      });
  }

  /** Downloads the PDF (asserting the HTTP envelope) and writes it to a file; returns the file's path. */
  async function downloadPdf(
    portfolioId: number,
    name: string,
  ): Promise<{ file: string; bytes: Buffer; res: Response }> {
    const res = await getPdf(portfolioId);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/pdf\b/);
    const bytes = res.body as Buffer;
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const file = join(dir(), `${name}.pdf`);
    writeFileSync(file, bytes);
    return { file, bytes, res };
  }
  return { income, investor, getPdf, downloadPdf };
}
