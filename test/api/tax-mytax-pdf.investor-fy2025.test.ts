import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "../support/app";
import { PORTFOLIO_NAME, printed, escape, run, pagesOf, pdfInfo, myTaxPdfSetup } from "./tax-mytax-pdf.setup";

/**
 * The myTax PDF of an investor's FY2025: the attachment, every label and amount, the disposals and the
 * income, the summary kept whole, A4 with embedded fonts, a page that renders, the same text twice.
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

const { income, investor, downloadPdf } = myTaxPdfSetup(
  t,
  () => key,
  () => dir,
);

/** pdffonts' table: one row per font with its name, type and whether it is embedded. */
function fontsOf(file: string): { name: string; type: string; emb: string }[] {
  const lines = run("pdffonts", [file]).split("\n");
  const rule = lines.findIndex((l) => /^-+ -+/.test(l));
  expect(rule).toBeGreaterThan(0);
  // Columns: name type encoding emb sub uni object ID; the type may contain spaces ("CID TrueType").
  const widths = lines[rule].split(" ").map((d) => d.length);
  const cut = (line: string) => {
    const cells: string[] = [];
    let at = 0;
    for (const w of widths) {
      cells.push(line.slice(at, at + w).trim());
      at += w + 1;
    }
    return cells;
  };
  return lines
    .slice(rule + 1)
    .filter((l) => l.trim())
    .map((l) => {
      const [name, type, , emb] = cut(l);
      return { name, type, emb };
    });
}

/** Page `page` as an 8-bit greyscale raster (PGM "P5": a text header, then one byte per pixel). */
function greyPage(file: string, page: number, dpi = 50): { width: number; height: number; pixels: Buffer } {
  const out = join(dir, `grey-${page}`);
  execFileSync("pdftoppm", [
    "-gray",
    "-r",
    String(dpi),
    "-f",
    String(page),
    "-l",
    String(page),
    "-singlefile",
    file,
    out,
  ]);
  const data = readFileSync(`${out}.pgm`);
  // P5 <ws> width <ws> height <ws> maxval <single ws> raster; comments do not occur in poppler's output.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString("latin1"));
  expect(header).not.toBeNull();
  const [whole, w, h, max] = header!;
  expect(Number(max)).toBe(255);
  const pixels = data.subarray(whole.length);
  expect(pixels.length).toBe(Number(w) * Number(h));
  return { width: Number(w), height: Number(h), pixels };
}

describe("the myTax PDF of an investor's FY2025", () => {
  it("answers application/pdf as an attachment named after the portfolio and the year", async () => {
    const p = await investor();
    const { res, bytes } = await downloadPdf(p, "envelope");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename=mytax-${p}-FY2025.pdf`);
    expect(bytes.subarray(-8).toString("latin1")).toMatch(/%%EOF\s*$/);
  });

  it("prints the portfolio, the year, the entity, every label with its amount, the disposals and the income", async () => {
    const p = await investor();
    const json = await t.http
      .get(`/v1/portfolios/${p}/reports/ato-mytax`)
      .query({ financialYear: 2025 })
      .set("authorization", key);
    expect(json.status).toBe(200);
    const report = json.body as {
      labels: { label: string; amount: number }[];
      capitalGains: Record<string, number>;
      entityType: string;
    };
    const { file } = await downloadPdf(p, "investor");
    const pages = pagesOf(file);
    const text = pages.join("\n");
    const lines = text.split("\n");

    expect(text).toContain(PORTFOLIO_NAME);
    expect(text).toContain("FY2025");
    expect(text).toContain("2024-07-01");
    expect(text).toContain("2025-06-30");
    expect(report.entityType).toBe("Individual");
    expect(text).toMatch(/Entity: Individual/);

    // The figures the scenario makes, worked by hand (see the header), so the test does not only
    // echo the JSON report: 18H 3,250 + 3,650 + 600; 18A (3,250 − 2,000) + (3,650 + 600) × 50 %.
    const amounts = Object.fromEntries(report.labels.map((l) => [l.label, printed(l.amount)]));
    expect(amounts).toEqual({
      "10L": "345.67",
      "10M": "0.00",
      "11S": "0.00",
      "11T": "1,050.00",
      "11U": "450.00",
      "11V": "0.00",
      "13U": "1,234.50",
      "13C": "100.00",
      "13Q": "40.00",
      "13R": "0.00",
      "18H": "7,500.00",
      "18A": "3,375.00",
      "18V": "0.00",
      "20E": "0.00",
      "20M": "0.00",
      "20O": "0.00",
    });
    // Every label once, on a line of its own that ends with its amount (the label table's row).
    for (const l of report.labels) {
      const rows = lines.filter((line) => new RegExp(`^\\s*${l.label}\\s`).test(line));
      expect({ label: l.label, rows: rows.length }).toEqual({ label: l.label, rows: 1 });
      expect({ label: l.label, row: rows[0].trimEnd() }).toEqual({
        label: l.label,
        row: expect.stringMatching(new RegExp(`\\s${escape(printed(l.amount))}$`)),
      });
    }

    // The capital gains summary, each figure on its row.
    const summary: [string, string][] = [
      ["Short-term (non-discountable) gains", printed(report.capitalGains.shortTermGains)],
      ["Long-term (discountable) gains", printed(report.capitalGains.longTermGains)],
      ["Trust capital gains (grossed up)", printed(report.capitalGains.trustCapitalGains)],
      ["Current year capital losses", printed(report.capitalGains.capitalLosses)],
      ["CGT discount", printed(report.capitalGains.discount)],
      ["Net capital gain (18A)", printed(report.capitalGains.netCapitalGain)],
    ];
    expect(summary.map(([, a]) => a)).toEqual(["3,250.00", "3,650.00", "600.00", "2,000.00", "2,125.00", "3,375.00"]);
    for (const [name, amount] of summary)
      expect(lines.find((line) => line.trimStart().startsWith(name))?.trimEnd()).toMatch(
        new RegExp(`\\s${escape(amount)}$`),
      );

    // The disposals: one row per sale, with its dates, cost base, proceeds and gain.
    const disposals: [string, string, string, string, string][] = [
      ["AAA.ASX", "2023-08-01", "2024-09-10", "10,550.00", "14,200.00"],
      ["BBB.ASX", "2024-03-01", "2025-02-03", "10,000.00", "13,250.00"],
      ["CCC.ASX", "2024-04-15", "2025-03-03", "5,000.00", "3,000.00"],
    ];
    expect(text).toContain("Disposals (3)");
    for (const cells of disposals) {
      const row = lines.find((line) => line.includes(cells[0]) && line.includes(cells[2]));
      expect({ disposal: cells[0], row }).toEqual({
        disposal: cells[0],
        row: expect.stringMatching(new RegExp(cells.map(escape).join(".*"))),
      });
    }
    expect(lines.find((l) => l.includes("CCC.ASX"))).toMatch(/-2,000\.00/);

    // The income per holding and the interest per cash account.
    expect(lines.find((l) => /^\s*CBA\.ASX\s/.test(l))).toMatch(/1,050\.00.*450\.00/);
    expect(lines.find((l) => /^\s*VAS\.ASX\s/.test(l))).toMatch(/1,234\.50.*100\.00.*40\.00.*600\.00/);
    expect(lines.find((l) => /^\s*Saver\s/.test(l))).toMatch(/\s345\.67\s*$/);

    // Page numbers on every page, and pdfinfo agrees on the count.
    const count = Number(pdfInfo(file).Pages);
    expect(pages).toHaveLength(count);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${count}`));
  });

  it("keeps the capital gains summary whole on one page, 18A with the figures it comes from", async () => {
    const p = await investor();
    const pages = pagesOf((await downloadPdf(p, "summary")).file);
    // The labels table fills most of page 1, so the summary does not fit under it whole.
    const withSummary = pages.map((page, i) => ({
      page: i + 1,
      header: /^\s*Figure\s+Amount\s*$/m.test(page),
      first: page.includes("Short-term (non-discountable) gains"),
      last: page.includes("Net capital losses carried forward (18V)"),
    }));
    expect(withSummary.filter((s) => s.header)).toEqual([
      { page: expect.any(Number), header: true, first: true, last: true },
    ]);
  });

  it("is A4 with every font embedded (no base-14 Helvetica)", async () => {
    const p = await investor();
    const { file } = await downloadPdf(p, "fonts");
    const info = pdfInfo(file);
    expect(info["Page size"]).toMatch(/^595\.28 x 841\.89 pts \(A4\)/);
    for (let page = 1; page <= Number(info.Pages); page++) {
      expect(run("pdfinfo", ["-f", String(page), "-l", String(page), file])).toMatch(
        new RegExp(`Page\\s+${page} size:\\s+595\\.28 x 841\\.89 pts`),
      );
    }
    const fonts = fontsOf(file);
    expect(fonts.length).toBeGreaterThanOrEqual(2);
    for (const f of fonts)
      expect(f).toEqual({ name: expect.stringMatching(/NotoSans/), type: expect.any(String), emb: "yes" });
    expect(fonts.some((f) => /Helvetica/i.test(f.name))).toBe(false);
  });

  it("page 1 renders to an image that is not blank", async () => {
    const p = await investor();
    const { file } = await downloadPdf(p, "render");
    execFileSync("pdftoppm", ["-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", file, join(dir, "page1")]);
    const png = readFileSync(join(dir, "page1.png"));
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    // A4 at 50 dpi: 413.4 × 584.6 pixels, which poppler rounds up (or to the nearest).
    const size = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
    expect([413, 414]).toContain(size.width);
    expect([584, 585]).toContain(size.height);

    const { width, height, pixels } = greyPage(file, 1);
    expect({ width, height }).toEqual(size);
    let ink = 0;
    const levels = new Set<number>();
    for (const v of pixels) {
      if (v < 200) ink++;
      levels.add(v);
    }
    // A page of tables and text: a few per cent of the pixels carry ink, not nothing, not a flood.
    expect(ink / pixels.length).toBeGreaterThan(0.02);
    expect(ink / pixels.length).toBeLessThan(0.5);
    expect(levels.size).toBeGreaterThan(16);
    // Ink in the top third (the title and the labels) and in the lower half (tables go on).
    const rowsWithInk = (from: number, to: number) => {
      let n = 0;
      for (let y = from; y < to; y++) if (pixels.subarray(y * width, (y + 1) * width).some((v) => v < 128)) n++;
      return n;
    };
    expect(rowsWithInk(0, Math.floor(height / 3))).toBeGreaterThan(20);
    expect(rowsWithInk(Math.floor(height / 2), height)).toBeGreaterThan(20);
  });

  it("renders the same text twice (nothing but the file's own metadata differs)", async () => {
    const p = await investor();
    const a = pagesOf((await downloadPdf(p, "first")).file);
    const b = pagesOf((await downloadPdf(p, "second")).file);
    expect(b).toEqual(a);
  });
});
