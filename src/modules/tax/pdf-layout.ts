import type { Decimal } from "../../lib/money";
import type { CgtSummary } from "./cgt";
import type { DisposalRow } from "./disposal-rows";

/**
 * The layout the tax documents share (the myTax PDF, the CGT schedule): A4 pages with Noto Sans
 * embedded, so a document reads the same on any machine; headings that keep a table with them;
 * ruled tables whose header repeats on every page they run onto; "Page n of m" footers.
 * Rendering only: every figure comes from the report.
 */
const REGULAR = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff");
const BOLD = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff");

export const MARGIN = 48;
export const A4 = { width: 595.28, height: 841.89 };
export const CONTENT_WIDTH = A4.width - 2 * MARGIN;
export const BOTTOM = A4.height - MARGIN - 20;
/** A table cell's padding either side (table()) and a point to spare, so a figure as wide as its column stays on one line. */
export const CELL_SLACK = 2 * 3 + 2;

/** 1234567.891 → "1,234,567.89" (or every decimal the value has, without `dp`): exact digits, no floating point. */
export function formatAmount(amount: Decimal, dp?: number): string {
  const fixed = dp === undefined ? amount.toFixed() : amount.toFixed(dp);
  const negative = fixed.startsWith("-");
  const [whole, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fraction ? "." + fraction : ""}`;
}

export interface Column {
  title: string;
  width: number;
  align?: "left" | "right";
}

/** What a tax PDF opens with: its metadata, its title and whose figures it holds. */
export interface TaxPdfOpening {
  info: { Title: string; Subject: string };
  title: string;
  subject: TaxPdfSubject;
  /** "Prepared on … from the portfolio's records", with the currency. */
  prepared: string;
  /** Unconfirmed income of the year, which no figure of the report counts, and what that means for the reader. */
  unconfirmed: { count: number; grossAmount: Decimal; meaning: string };
}

/**
 * A new A4 document with the fonts registered, opened with its title, the portfolio, the income
 * year, the entity and its discount, how it was prepared and the income it leaves out (so the page
 * does not read as complete); and the bytes it will have once ended. pdfkit is loaded on the first
 * PDF: a process (or a test file) that never writes one does not pay for it.
 */
export async function openTaxPdf(opening: TaxPdfOpening): Promise<{
  pdf: PDFKit.PDFDocument;
  bytes: Promise<Uint8Array>;
}> {
  const { default: PDFDocument } = await import("pdfkit");
  const pdf = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    info: { ...opening.info, Creator: "Portfolio service" },
  });
  pdf.registerFont("body", REGULAR);
  pdf.registerFont("bold", BOLD);
  const chunks: Buffer[] = [];
  pdf.on("data", (c: Buffer) => chunks.push(c));
  const bytes = new Promise<Uint8Array>((resolve, reject) => {
    pdf.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on("error", reject);
  });

  const { subject, unconfirmed: left } = opening;
  pdf.font("bold").fontSize(18).text(opening.title, MARGIN, MARGIN);
  pdf.moveDown(0.3);
  pdf.font("body").fontSize(10);
  pdf.text(`Portfolio: ${subject.portfolioName} (id ${subject.portfolioId})`);
  pdf.text(`Income year: FY${subject.financialYear}, ${subject.from} to ${subject.to}`);
  pdf.text(`Entity: ${subject.entityType}; CGT discount ${formatAmount(subject.discountPercent, 2)} %`);
  pdf.text(opening.prepared);
  if (left.count > 0)
    pdf.text(
      `Not included: ${left.count} unconfirmed income record${left.count === 1 ? "" : "s"} paid in the year, ${formatAmount(left.grossAmount, 2)} gross; ${left.meaning}.`,
    );
  pdf.moveDown(0.8);
  return { pdf, bytes };
}

/** Whose figures a tax PDF holds: its portfolio, income year and entity. */
export interface TaxPdfSubject {
  portfolioId: number;
  portfolioName: string;
  financialYear: number;
  from: string;
  to: string;
  entityType: string;
  discountPercent: Decimal;
}

/**
 * The small print under the figures (`note`: the rules they follow and what they leave out), then
 * "`footer` — Page i of N" at the foot of every page, and the document ended.
 */
export function finishTaxPdf(pdf: PDFKit.PDFDocument, note: string, footer: string): void {
  pdf.moveDown(0.5);
  pdf
    .font("body")
    .fontSize(8)
    .fillColor("#444")
    .text(note, MARGIN, undefined, { width: CONTENT_WIDTH })
    .fillColor("black");
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // pdfkit continues text that starts below the bottom margin on a new page: lift the margin
    // while the footer is written, so it lands on the page it numbers.
    const bottomMargin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf
      .font("body")
      .fontSize(8)
      .text(`${footer} — Page ${i + 1} of ${range.count}`, MARGIN, A4.height - MARGIN, {
        width: CONTENT_WIDTH,
        align: "center",
        lineBreak: false,
      });
    pdf.page.margins.bottom = bottomMargin;
  }
  pdf.end();
}

export function heading(pdf: PDFKit.PDFDocument, title: string, keepWith = 60): void {
  // A short table moves whole to the next page rather than leave a few rows behind; a longer one
  // (the disposals) starts here if its header and a few rows fit.
  if (pdf.y + 24 + keepWith > BOTTOM && MARGIN + 24 + keepWith <= BOTTOM) pdf.addPage();
  else if (pdf.y > BOTTOM - 60) pdf.addPage();
  pdf.font("bold").fontSize(12).text(title, MARGIN, pdf.y);
  pdf.moveDown(0.3);
}

/** A ruled table; a row that would cross the bottom margin starts a new page under a repeated header. */
export function table(pdf: PDFKit.PDFDocument, columns: Column[], rows: string[][], fontSize = 9): void {
  const padding = 3;
  const rowHeight = (cells: string[], font: string) => {
    pdf.font(font).fontSize(fontSize);
    return (
      Math.max(...cells.map((c, i) => pdf.heightOfString(c, { width: columns[i].width - 2 * padding }))) + 2 * padding
    );
  };
  const drawRow = (cells: string[], font: string, shade: boolean) => {
    const h = rowHeight(cells, font);
    const top = pdf.y;
    if (shade) pdf.rect(MARGIN, top, CONTENT_WIDTH, h).fill("#eeeeee").fillColor("black");
    let x = MARGIN;
    pdf.font(font).fontSize(fontSize);
    cells.forEach((c, i) => {
      pdf.text(c, x + padding, top + padding, {
        width: columns[i].width - 2 * padding,
        align: columns[i].align ?? "left",
      });
      x += columns[i].width;
    });
    pdf
      .moveTo(MARGIN, top + h)
      .lineTo(MARGIN + CONTENT_WIDTH, top + h)
      .lineWidth(0.3)
      .strokeColor("#999999")
      .stroke();
    pdf.x = MARGIN;
    pdf.y = top + h;
  };
  const header = columns.map((c) => c.title);
  drawRow(header, "bold", true);
  for (const row of rows) {
    if (pdf.y + rowHeight(row, "body") > BOTTOM) {
      pdf.addPage();
      drawRow(header, "bold", true);
    }
    drawRow(row, "body", false);
  }
  pdf.moveDown(0.8);
}

/**
 * The capital gains summary (docs/reports.md §5.1) under its heading, then the year's CGT events
 * parcel by parcel under `eventsTitle` and their count.
 */
export function capitalGainsSections(
  pdf: PDFKit.PDFDocument,
  summary: CgtSummary,
  disposals: readonly Omit<DisposalRow, "financialYear">[],
  eventsTitle: string,
): void {
  heading(pdf, "Capital gains summary", 13 * 18);
  capitalGainsSummaryTable(pdf, summary);
  heading(pdf, `${eventsTitle} (${disposals.length})`);
  disposalsTable(pdf, disposals);
}

/** The capital gains summary (docs/reports.md §5.1) as a table, 18H, 18A and 18V named. */
function capitalGainsSummaryTable(pdf: PDFKit.PDFDocument, s: CgtSummary): void {
  table(
    pdf,
    [
      { title: "Figure", width: 340 },
      { title: "Amount", width: CONTENT_WIDTH - 340, align: "right" },
    ],
    (
      [
        ["Short-term (non-discountable) gains", s.shortTermGains],
        ["Long-term (discountable) gains", s.longTermGains],
        ["Trust capital gains (grossed up)", s.trustCapitalGains],
        ["Total current year capital gains (18H)", s.totalCapitalGains],
        ["Current year capital losses", s.capitalLosses],
        ["Losses applied to short-term gains", s.lossesAppliedToShortTerm],
        ["Losses applied to long-term gains", s.lossesAppliedToLongTerm],
        ["Carried-forward losses available", s.carriedForwardLossesAvailable],
        ["Carried-forward losses applied", s.carriedForwardLossesApplied],
        ["CGT discount", s.discount],
        ["Net capital gain (18A)", s.netCapitalGain],
        ["Net capital losses carried forward (18V)", s.netCapitalLossesCarriedForward],
      ] as [string, Decimal][]
    ).map(([name, amount]) => [name, formatAmount(amount, 2)]),
  );
}

/** The year's CGT events parcel by parcel (docs/reports.md §5.1), or a line saying there are none. */
function disposalsTable(pdf: PDFKit.PDFDocument, disposals: readonly Omit<DisposalRow, "financialYear">[]): void {
  if (disposals.length === 0) {
    pdf.font("body").fontSize(9).text("No CGT events in the year.", MARGIN).moveDown(0.8);
    return;
  }
  table(
    pdf,
    [
      { title: "Holding", width: 62 },
      { title: "Event", width: 50 },
      { title: "Acquired", width: 52 },
      { title: "Disposed", width: 52 },
      { title: "Units", width: 48, align: "right" },
      { title: "Cost base", width: 58, align: "right" },
      { title: "Proceeds", width: 58, align: "right" },
      { title: "Gain", width: 58, align: "right" },
      { title: "Disc.", width: 26 },
      { title: "Method", width: CONTENT_WIDTH - 464 },
    ],
    disposals.map((d) => [
      `${d.symbol}.${d.exchange}`,
      d.eventType === "CapitalReturnExcess" ? "G1" : d.eventType,
      d.acquisitionDate,
      d.disposalDate,
      formatAmount(d.quantity),
      formatAmount(d.costBase, 2),
      formatAmount(d.proceeds, 2),
      formatAmount(d.capitalGain, 2),
      d.isDiscountable ? "Yes" : "No",
      d.method ?? "",
    ]),
    7.5,
  );
}
