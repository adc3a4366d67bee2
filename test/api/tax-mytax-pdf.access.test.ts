import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectProblem } from "../support/outcomes";
import { printed, pagesOf, myTaxPdfSetup } from "./tax-mytax-pdf.setup";

/**
 * Who may download the myTax PDF: another account (404), a portfolio not in AUD (422), a bad year
 * (400), a Read client key (the same document).
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

const { investor, getPdf, downloadPdf } = myTaxPdfSetup(
  t,
  () => key,
  () => dir,
);

describe("who may download it", () => {
  it("another account's portfolio: 404 problem+json", async () => {
    const p = await investor();
    const intruder = await t.newAccount("intruder");
    expectProblem(await getPdf(p, 2025, intruder), 404, "NOT_FOUND");
  });

  it("a portfolio not in AUD: 422", async () => {
    const usd = await newPortfolio(t, key, { name: "US", baseCurrencyCode: "USD" });
    expectProblem(await getPdf(usd), 422, "BUSINESS_RULE");
  });

  it("a financial year that is not one: 400 naming financialYear", async () => {
    const p = await investor();
    const errors = expectProblem(await getPdf(p, "20x5"), 400, "VALIDATION_FAILED");
    expect(errors).toEqual([expect.objectContaining({ path: "financialYear" })]);
  });

  it("a Read client key downloads the same document", async () => {
    const p = await investor();
    const reader = await t.newClientKey(key, "Read", [p]);
    const res = await getPdf(p, 2025, reader);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/pdf\b/);
    const file = join(dir, "reader.pdf");
    writeFileSync(file, res.body as Buffer);
    const owner = await downloadPdf(p, "owner");
    expect(pagesOf(file)).toEqual(pagesOf(owner.file));
  });
});
