import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, newRoundTrip } from "../factories";
import { printed, escape, pagesOf, myTaxPdfSetup } from "./tax-mytax-pdf.setup";

/**
 * The myTax PDF with amounts in the hundreds of thousands under every income label and a sale in the
 * millions: each printed whole on its row.
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

const { income, downloadPdf } = myTaxPdfSetup(
  t,
  () => key,
  () => dir,
);

describe("large amounts under every label", () => {
  it("prints every amount whole on its row: the income per holding with a column per label, and a sale in the millions", async () => {
    const portfolioId = await newPortfolio(t, key, { name: "Wide income" });
    // Cost base 12,345,600.00, proceeds 23,456,700.00, gain 11,111,100.00.
    await newRoundTrip(
      t,
      key,
      portfolioId,
      "BIGCO",
      ["2023-07-03", 1_000_000, 12.3456],
      ["2024-09-10", 1_000_000, 23.4567],
    );
    const div = await newTrade(t, key, {
      portfolioId,
      symbol: "DIVCO",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-10-02",
      quantity: 10_000,
      price: 95,
    });
    const trust = await newTrade(t, key, {
      portfolioId,
      symbol: "TRUSTX",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-10-02",
      quantity: 10_000,
      price: 95,
    });
    // 11S 11T 11U 11V from the dividend; 13U 13C 13Q 13R 18H 20E 20M 20O from the distribution.
    await income({
      holdingId: div.holdingId,
      exDividendDate: "2024-08-14",
      paidDate: "2024-09-26",
      unfrankedAmount: 123_456.78,
      frankedAmount: 234_567.89,
      frankingCredits: 100_529.1,
      withholdingTax: 55_555.55,
    });
    await income({
      holdingId: trust.holdingId,
      exDividendDate: "2025-06-30",
      paidDate: "2025-07-15",
      isTrustIncome: true,
      unfrankedAmount: 777_777.77,
      components: {
        nonPrimaryProductionIncome: 345_678.91,
        frankedDistributions: 111_111.11,
        frankingCredits: 47_619.05,
        tfnWithheld: 22_222.22,
        discountedCapitalGains: 61_728.4,
        assessableForeignIncome: 98_765.43,
        foreignIncomeTaxOffset: 14_814.81,
      },
    });
    const taxable = await t.http
      .get(`/v1/portfolios/${portfolioId}/reports/taxable-income`)
      .query({ financialYear: 2025 })
      .set("authorization", key);
    expect(taxable.status).toBe(200);
    const holdings = taxable.body.holdings as { symbol: string; labels: Record<string, number> }[];
    expect(holdings.map((h) => Object.keys(h.labels).length)).toEqual([4, 8]);

    const { file } = await downloadPdf(portfolioId, "wide");
    const lines = pagesOf(file).join("\n").split("\n");
    const sale = lines.find((l) => /^\s*BIGCO\.ASX\s/.test(l));
    expect(sale).toMatch(/\s12,345,600\.00\s+23,456,700\.00\s+11,111,100\.00\s/);
    // The income per holding is one table: every label column on one header line beside
    // "Holding" (a second table of the columns that did not fit read as more holdings), and the
    // trusts' capital gains not titled 18H (the label table's 18H is the year's total).
    const incomeHeaders = lines.filter((l) => /^\s*Holding\s+(1[0-9][A-Z]|Trust|20[A-Z])/.test(l));
    expect(incomeHeaders.map((l) => l.trim().split(/\s+/))).toEqual([
      ["Holding", "11S", "11T", "11U", "11V", "13U", "13C", "13Q", "13R", "Trust", "CG", "20E", "20M", "20O"],
    ]);
    // Every amount whole (a figure broken over two lines is misread), on a line of its holding's.
    for (const h of holdings) {
      const rows = lines.filter((l) => new RegExp(`^\\s*${h.symbol}\\.ASX\\s`).test(l));
      const missing = Object.entries(h.labels).filter(
        ([, a]) => !rows.some((r) => new RegExp(`(^|\\s)${escape(printed(a))}(\\s|$)`).test(r)),
      );
      expect({ holding: h.symbol, missing, rows }).toEqual({ holding: h.symbol, missing: [], rows });
    }
  });
});
