import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { type Json } from "../support/outcomes";
import { printed, escape, run, pagesOf, pdfInfo, myTaxPdfSetup } from "./tax-mytax-pdf.setup";

/**
 * The myTax PDF of a year of 120 sales: several pages, the disposals header repeated on each, every
 * page numbered.
 *
 * The ATO myTax PDF (docs/reports.md §5.4: GET /v1/portfolios/{p}/reports/ato-mytax/pdf), read back
 * with poppler (pdftotext, pdffonts, pdfinfo, pdftoppm) the way an accountant's viewer would:
 * every label of the JSON report with its amount as printed (thousands separators, 2 decimals),
 * the capital gains summary, every disposal, the income per holding, "Page i of N" on every page,
 * A4, fonts embedded, and a first page that is not blank.
 *
 * FY2025 (1 July 2024 – 30 June 2025) of an Individual, FIFO, every buy in FY2024:
 *   AAA  buy 1,000 @ 10.55 on 2023-08-01 (10,550), sell 1,000 @ 14.20 on 2024-09-10 (14,200):
 *        gain 3,650, held more than 12 months: discountable.
 *   BBB  buy 500 @ 20 on 2024-03-01 (10,000), sell 500 @ 26.50 on 2025-02-03 (13,250): gain 3,250, short.
 *   CCC  buy 100 @ 50 on 2024-04-15 (5,000), sell 100 @ 30 on 2025-03-03 (3,000): loss 2,000.
 *   CBA  buy 200 @ 95 on 2023-10-02; a dividend of 1,050 franked paid 2024-09-26 → 11T 1,050, 11U 450.
 *   VAS  buy 100 @ 90 on 2023-11-01; a distribution ex 2025-06-30 with AMIT components:
 *        13U 1,234.50, 13C 100, 13Q 40, discounted capital gain 300 → 18H 600.
 *   Saver cash account: interest 345.67 on 2025-01-31 → 10L 345.67.
 * s100-50: the 2,000 loss off the short 3,250 (1,250 left); the discountable 3,650 + 600 halved
 * (discount 2,125); 18H = 3,250 + 3,650 + 600 = 7,500; 18A = 1,250 + 2,125 = 3,375; 18V 0.
 * Further scenarios: amounts in the hundreds of thousands under every income label and a sale in
 * the millions (nothing may be broken over two lines), a year of 120 sales (several pages, the
 * disposals header repeated, the footer on its own page), and who may download the file.
 */

const t = useTestApp();
let key: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mytax-pdf-"));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  key = await t.newAccount();
});

const { downloadPdf } = myTaxPdfSetup(
  t,
  () => key,
  () => dir,
);

/** The text of a horizontal band of a page, `top` and `height` in points from the top edge (A4 is 842 high). */
function bandOf(file: string, page: number, top: number, height: number): string {
  return run("pdftotext", [
    "-layout",
    "-enc",
    "UTF-8",
    "-f",
    String(page),
    "-l",
    String(page),
    "-x",
    "0",
    "-y",
    String(top),
    "-W",
    "596",
    "-H",
    String(height),
    file,
    "-",
  ]).replace(/\f/g, "");
}

describe("a year of 120 sales", () => {
  const SALES = 120;
  const dayOf = (i: number) => new Date(Date.UTC(2024, 6, 1 + i * 2)).toISOString().slice(0, 10);

  async function trader(): Promise<number> {
    const portfolioId = await newPortfolio(t, key, { name: "Busy trader" });
    const symbols = ["LOT", "MNY", "XYZW"];
    const rows: Json[] = symbols.map((symbol) => ({
      symbol,
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-07-03",
      quantity: 10_000,
      price: 10,
    }));
    for (let i = 0; i < SALES; i++)
      rows.push({
        symbol: symbols[i % 3],
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: dayOf(i),
        quantity: 10 + i,
        price: 9 + (i % 7) * 0.5,
      });
    const res = await t.http.post(`/v1/portfolios/${portfolioId}/trades/import`).set("authorization", key).send(rows);
    expect({ status: res.status, imported: res.body.imported }).toEqual({
      status: expect.any(Number),
      imported: rows.length,
    });
    expect(res.status).toBeLessThan(300);
    return portfolioId;
  }

  it("runs over several pages, the disposals header repeated on each, every page numbered", async () => {
    const p = await trader();
    const cg = await t.http
      .get(`/v1/portfolios/${p}/reports/capital-gains`)
      .query({ financialYear: 2025 })
      .set("authorization", key);
    expect(cg.status).toBe(200);
    const disposals = cg.body.disposals as {
      symbol: string;
      disposalDate: string;
      costBase: number;
      proceeds: number;
      capitalGain: number;
    }[];
    expect(disposals).toHaveLength(SALES);

    const { file } = await downloadPdf(p, "trader");
    const pages = pagesOf(file);
    const count = Number(pdfInfo(file).Pages);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(pages).toHaveLength(count);
    pages.forEach((page, i) =>
      expect({ page: i + 1, footer: page.includes(`Page ${i + 1} of ${count}`) }).toEqual({
        page: i + 1,
        footer: true,
      }),
    );
    // The footer sits in the bottom margin (the last 60 points of the page) with nothing else there.
    pages.forEach((_, i) => {
      const band = bandOf(file, i + 1, 842 - 60, 60)
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      expect({ page: i + 1, band }).toEqual({
        page: i + 1,
        band: [`Busy trader — FY2025 — Page ${i + 1} of ${count}`],
      });
    });
    // No page is only a footer.
    pages.forEach((page, i) =>
      expect({
        page: i + 1,
        empty: page.split("\n").filter((l) => l.trim() && !/Page \d+ of \d+/.test(l)).length === 0,
      }).toEqual({ page: i + 1, empty: false }),
    );

    expect(pages.join("\n")).toContain(`Disposals (${SALES})`);
    const disposalRow = /^\s*(LOT|MNY|XYZW)\.ASX\s/;
    const pagesWithDisposals = pages
      .map((page, i) => ({ page: i + 1, rows: page.split("\n").filter((l) => disposalRow.test(l)) }))
      .filter((p) => p.rows.length > 0);
    expect(pagesWithDisposals.length).toBeGreaterThanOrEqual(2);
    for (const { page } of pagesWithDisposals) {
      const header = pages[page - 1]
        .split("\n")
        .find((l) => /Holding\s+Event\s+Acquired\s+Disposed\s+Units\s+Cost base\s+Proceeds\s+Gain/.test(l));
      expect({ page, header: header !== undefined }).toEqual({ page, header: true });
      // The header comes before the page's first row.
      const lines = pages[page - 1].split("\n");
      expect(lines.findIndex((l) => l === header)).toBeLessThan(lines.findIndex((l) => disposalRow.test(l)));
    }

    // Every sale once, whole: its date, its cost base, its proceeds and its gain on one line.
    const rows = pagesWithDisposals.flatMap((p) => p.rows);
    expect(rows).toHaveLength(SALES);
    for (const d of disposals) {
      const matching = rows.filter((r) => r.includes(`${d.symbol}.ASX`) && r.includes(d.disposalDate));
      expect({ sale: d.disposalDate, rows: matching.length }).toEqual({ sale: d.disposalDate, rows: 1 });
      expect(matching[0]).toMatch(
        new RegExp(
          `${escape(printed(d.costBase))}\\s+${escape(printed(d.proceeds))}\\s+${escape(printed(d.capitalGain))}\\s`,
        ),
      );
    }
  });
});
