import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Test } from "supertest";
import { useTestApp } from "../support/app";
import { expectProblem } from "../support/outcomes";
import { myTaxPdfSetup, pagesOf, PORTFOLIO_NAME, run } from "./tax-mytax-pdf.setup";

/**
 * The CGT schedule (docs/reports.md §5.1): the capital gains report as a PDF an accountant files,
 * GET …/reports/capital-gains/pdf, read back with poppler's pdftotext and pdffonts.
 *
 * FY2025 of the myTax PDF's investor (tax-mytax-pdf.setup.ts), an Individual, FIFO:
 *   AAA 1,000 bought 2023-08-01 @ 10.55 (10,550), sold 2024-09-10 @ 14.20 (14,200): 3,650, discountable
 *       (held more than 12 months, s115-25);
 *   BBB 500 bought 2024-03-01 @ 20 (10,000), sold 2025-02-03 @ 26.50 (13,250): 3,250, not discountable;
 *   CCC 100 bought 2024-04-15 @ 50 (5,000), sold 2025-03-03 @ 30 (3,000): a 2,000 loss;
 *   VAS's confirmed distribution: a discounted capital gain of 300, grossed up to 600.
 * s100-50: the 2,000 loss off BBB's 3,250 (1,250 left); the 3,650 + 600 discountable halved
 * (discount 2,125); 18H = 3,650 + 3,250 + 600 = 7,500; 18A = 1,250 + 2,125 = 3,375; 18V 0.
 */
const t = useTestApp();
let key: string;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cgt-schedule-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  key = await t.newAccount();
});

const { investor } = myTaxPdfSetup(
  t,
  () => key,
  () => dir,
);

const raw = (req: Test) =>
  req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => cb(null, Buffer.concat(chunks)));
  });

const schedule = (p: number | string, financialYear: string | number = 2025, k = key) =>
  raw(t.http.get(`/v1/portfolios/${p}/reports/capital-gains/pdf`).query({ financialYear }).set("authorization", k));

function saved(body: unknown, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, body as Buffer);
  return file;
}

it("prints the summary with 18H, 18A and 18V, every CGT event, the entity and page numbers, fonts embedded", async () => {
  const p = await investor();
  const res = await schedule(p);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/pdf\b/);
  expect(res.headers["content-disposition"]).toContain(`capital-gains-${p}-FY2025.pdf`);
  const file = saved(res.body, "investor");
  const pages = pagesOf(file);
  expect(pages).toHaveLength(1);
  const lines = pages[0].split("\n").map((l) => l.trim().replace(/\s+/g, " "));
  expect(lines).toEqual(
    expect.arrayContaining([
      "Capital gains tax schedule",
      `Portfolio: ${PORTFOLIO_NAME} (id ${p})`,
      "Income year: FY2025, 2024-07-01 to 2025-06-30",
      "Entity: Individual; CGT discount 50.00 %",
      "Short-term (non-discountable) gains 3,250.00",
      "Long-term (discountable) gains 3,650.00",
      "Trust capital gains (grossed up) 600.00",
      "Total current year capital gains (18H) 7,500.00",
      "Current year capital losses 2,000.00",
      "Losses applied to short-term gains 2,000.00",
      "CGT discount 2,125.00",
      "Net capital gain (18A) 3,375.00",
      "Net capital losses carried forward (18V) 0.00",
      "CGT events (3)",
      "AAA.ASX Sell 2023-08-01 2024-09-10 1,000 10,550.00 14,200.00 3,650.00 Yes FIFO",
      "BBB.ASX Sell 2024-03-01 2025-02-03 500 10,000.00 13,250.00 3,250.00 No FIFO",
      "CCC.ASX Sell 2024-04-15 2025-03-03 100 5,000.00 3,000.00 -2,000.00 No FIFO",
      `${PORTFOLIO_NAME} — CGT schedule FY2025 — Page 1 of 1`,
    ]),
  );
  // Every font embedded (pdffonts: the "emb" column), so it reads the same on any machine.
  const fonts = run("pdffonts", [file]).split("\n").slice(2).filter(Boolean);
  expect(fonts.length).toBeGreaterThan(0);
  for (const f of fonts) expect(f.split(/\s+/).slice(-5, -4)).toEqual(["yes"]);
});

it("the PDF has its own path: the report's route answers JSON or CSV only", async () => {
  const p = await investor();
  const askedForPdf = await t.http
    .get(`/v1/portfolios/${p}/reports/capital-gains`)
    .query({ financialYear: 2025 })
    .set("authorization", key)
    .set("accept", "application/pdf");
  expect([askedForPdf.status, askedForPdf.headers["content-type"]]).toEqual([
    200,
    expect.stringMatching(/^application\/json\b/),
  ]);
  const json = await t.http
    .get(`/v1/portfolios/${p}/reports/capital-gains?financialYear=2025`)
    .set("authorization", key);
  expect(json.headers["content-type"]).toMatch(/^application\/json\b/);
  expect(json.body.summary.totalCapitalGains).toBe(7500);
  // An explicit CSV wins whatever Accept says (it once fell into the PDF path and failed with a 500).
  const csv = await t.http
    .get(`/v1/portfolios/${p}/reports/capital-gains?financialYear=2025&format=csv`)
    .set("authorization", key)
    .set("accept", "application/pdf");
  expect([csv.status, csv.headers["content-type"]]).toEqual([200, expect.stringMatching(/^text\/csv\b/)]);
});

it("refuses as the report does: a bad year 400, another account's portfolio 404, both problem+json; a Read key reads it", async () => {
  const p = await investor();
  const bad = await schedule(p, "20x5");
  expect(expectProblem(bad, 400, "VALIDATION_FAILED")).toEqual([expect.objectContaining({ path: "financialYear" })]);
  expectProblem(await schedule(p, 2025, await t.newAccount("intruder")), 404, "NOT_FOUND");
  const reader = await t.newClientKey(key, "Read", [p]);
  const read = await schedule(p, 2025, reader);
  expect(read.status).toBe(200);
  expect(pagesOf(saved(read.body, "reader"))).toEqual(pagesOf(saved((await schedule(p)).body, "owner")));
});
