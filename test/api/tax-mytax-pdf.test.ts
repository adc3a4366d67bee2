import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decimal } from "decimal.js";
import type { Response, Test } from "supertest";
import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../support/kit";
import { expectProblem, type Json } from "../support/outcomes";

/**
 * The ATO myTax PDF (REPORTS.md §5.4: GET /v1/portfolios/{p}/reports/ato-mytax/pdf), read back
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
let t: TestApp;
let key: string;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), "mytax-pdf-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

const PORTFOLIO_NAME = "Citizen Family Shares";

const income = async (body: Json) => {
  const created = await postCreated<{ id: number }>(t, key, "/v1/income", body);
  expect((await t.http.put(`/v1/income/${created.id}/confirm`).set("authorization", key)).status).toBe(200);
  return created.id;
};

const buySell = async (
  portfolioId: number,
  symbol: string,
  buy: [string, number, number],
  sell: [string, number, number],
) => {
  const b = await newTrade(t, key, {
    portfolioId,
    symbol,
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: buy[0],
    quantity: buy[1],
    price: buy[2],
  });
  await newTrade(t, key, {
    portfolioId,
    symbol,
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: sell[0],
    quantity: sell[1],
    price: sell[2],
  });
  return b.holdingId;
};

async function investor(): Promise<number> {
  const portfolioId = await newPortfolio(t, key, { name: PORTFOLIO_NAME });
  await buySell(portfolioId, "AAA", ["2023-08-01", 1000, 10.55], ["2024-09-10", 1000, 14.2]);
  await buySell(portfolioId, "BBB", ["2024-03-01", 500, 20], ["2025-02-03", 500, 26.5]);
  await buySell(portfolioId, "CCC", ["2024-04-15", 100, 50], ["2025-03-03", 100, 30]);
  const cba = await newTrade(t, key, {
    portfolioId,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-10-02",
    quantity: 200,
    price: 95,
  });
  const vas = await newTrade(t, key, {
    portfolioId,
    symbol: "VAS",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-11-01",
    quantity: 100,
    price: 90,
  });
  await income({ holdingId: cba.holdingId, exDividendDate: "2024-08-14", paidDate: "2024-09-26", frankedAmount: 1050 });
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
  const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId,
    name: "Saver",
    currencyCode: "AUD",
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "Deposit",
    date: "2024-07-01",
    amount: 20000,
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "InterestPayment",
    date: "2025-01-31",
    amount: 345.67,
  });
  return portfolioId;
}

/** As the PDF prints an amount: 2 decimals, comma thousands separators, a leading minus. */
function printed(amount: number | string): string {
  const fixed = new Decimal(amount).toFixed(2);
  const negative = fixed.startsWith("-");
  const [whole, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  return `${negative ? "-" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** GET the PDF, keeping the body as raw bytes whatever its type (problem+json included). */
function getPdf(portfolioId: number | string, financialYear: string | number = 2025, k = key): Test {
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
async function downloadPdf(portfolioId: number, name: string): Promise<{ file: string; bytes: Buffer; res: Response }> {
  const res = await getPdf(portfolioId);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/pdf\b/);
  const bytes = res.body as Buffer;
  expect(Buffer.isBuffer(bytes)).toBe(true);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return { file, bytes, res };
}

const run = (tool: string, args: string[]): string =>
  execFileSync(tool, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

/** The text of each page, as poppler lays it out (pages are separated by form feeds). */
function pagesOf(file: string): string[] {
  const text = run("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"]);
  const pages = text.split("\f");
  if (pages[pages.length - 1].trim() === "") pages.pop();
  return pages;
}

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

function pdfInfo(file: string): Record<string, string> {
  return Object.fromEntries(
    run("pdfinfo", [file])
      .split("\n")
      .filter((l) => l.includes(":"))
      .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

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

describe("large amounts under every label", () => {
  it("prints every amount whole on its row: the income per holding with a column per label, and a sale in the millions", async () => {
    const portfolioId = await newPortfolio(t, key, { name: "Wide income" });
    // Cost base 12,345,600.00, proceeds 23,456,700.00, gain 11,111,100.00.
    await buySell(portfolioId, "BIGCO", ["2023-07-03", 1_000_000, 12.3456], ["2024-09-10", 1_000_000, 23.4567]);
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
