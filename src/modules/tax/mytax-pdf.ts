import PDFDocument from "pdfkit";
import { Decimal } from "../../lib/money";
import type { MyTaxDocument } from "./mytax-document";
import { INCOME_LABELS } from "./taxable-income";

/**
 * The myTax report as a PDF an accountant can file from (docs/reports.md §5.4): A4, the portfolio, the
 * year and the entity; every label with its amount; the capital gains summary; the disposals
 * (a table whose header repeats on every page it runs onto); the income per holding and the
 * interest per cash account; "Page n of m" on every page. Noto Sans is embedded, so the document
 * reads the same on any machine. Rendering only: every figure comes from the report.
 */
const REGULAR = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff");
const BOLD = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff");

const MARGIN = 48;
const A4 = { width: 595.28, height: 841.89 };
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
const BOTTOM = A4.height - MARGIN - 20;

/** 1234567.891 → "1,234,567.89" (or every decimal the value has, without `dp`): exact digits, no floating point. */
export function formatAmount(amount: Decimal, dp?: number): string {
  const fixed = dp === undefined ? amount.toFixed() : amount.toFixed(dp);
  const negative = fixed.startsWith("-");
  const [whole, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fraction ? "." + fraction : ""}`;
}

interface Column {
  title: string;
  width: number;
  align?: "left" | "right";
}

export async function renderMyTaxPdf(doc: MyTaxDocument, generatedOn: string): Promise<Uint8Array> {
  const { report } = doc;
  const pdf = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `ATO myTax — ${report.portfolioName} — FY${report.financialYear}`,
      Subject: "Investment figures for myTax",
      Creator: "Portfolio service",
    },
  });
  pdf.registerFont("body", REGULAR);
  pdf.registerFont("bold", BOLD);
  const chunks: Buffer[] = [];
  pdf.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    pdf.on("end", () => resolve());
    pdf.on("error", reject);
  });

  pdf.font("bold").fontSize(18).text("ATO myTax — investment figures", MARGIN, MARGIN);
  pdf.moveDown(0.3);
  pdf.font("body").fontSize(10);
  pdf.text(`Portfolio: ${report.portfolioName} (id ${report.portfolioId})`);
  pdf.text(`Income year: FY${report.financialYear}, ${doc.from} to ${doc.to}`);
  pdf.text(`Entity: ${report.entityType}; CGT discount ${formatAmount(doc.discountPercent, 2)} %`);
  pdf.text(`Prepared on ${generatedOn} from the portfolio's confirmed records. Amounts in AUD.`);
  // Only confirmed income enters the labels: say what was left out, so the page does not read as complete.
  const left = report.unconfirmedIncome;
  if (left.count > 0)
    pdf.text(
      `Not included: ${left.count} unconfirmed income record${left.count === 1 ? "" : "s"} paid in the year, ${formatAmount(left.grossAmount, 2)} gross; confirm them to count them.`,
    );
  pdf.moveDown(0.8);

  heading(pdf, "myTax labels");
  table(
    pdf,
    [
      { title: "Label", width: 40 },
      { title: "Section", width: 130 },
      { title: "Description", width: 245 },
      { title: "Amount", width: CONTENT_WIDTH - 415, align: "right" },
    ],
    report.labels.map((l) => [l.label, l.section, l.description, formatAmount(l.amount, 2)]),
  );

  const s = report.capitalGains;
  heading(pdf, "Capital gains summary", 13 * 18);
  table(
    pdf,
    [
      { title: "Figure", width: 340 },
      { title: "Amount", width: CONTENT_WIDTH - 340, align: "right" },
    ],
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
    ].map(([name, amount]) => [name as string, formatAmount(amount as Decimal, 2)]),
  );

  heading(pdf, `Disposals (${doc.disposals.length})`);
  if (doc.disposals.length === 0) pdf.font("body").fontSize(9).text("No CGT events in the year.", MARGIN).moveDown(0.8);
  else
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
      doc.disposals.map((d) => [
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

  heading(pdf, "Income per holding");
  const labelColumns = INCOME_LABELS.filter(
    (l) => l !== "10L" && l !== "10M" && doc.income.holdings.some((h) => h.labels[l]),
  );
  if (doc.income.holdings.length === 0)
    pdf.font("body").fontSize(9).text("No confirmed income in the year.", MARGIN).moveDown(0.8);
  else {
    // Each label column as wide as its widest amount: a figure is never broken over two lines.
    // Columns that do not fit beside the holding go into a further table under the first.
    const rows = doc.income.holdings.map((h) => ({
      holding: `${h.symbol}.${h.exchange}`,
      amounts: labelColumns.map((l) => (h.labels[l] ? formatAmount(h.labels[l]!, 2) : "")),
    }));
    pdf.font("body").fontSize(8);
    const widths = labelColumns.map((l, c) => Math.max(40, ...rows.map((r) => pdf.widthOfString(r.amounts[c]))) + 8);
    for (let start = 0; start < labelColumns.length;) {
      let end = start;
      let used = 90;
      while (end < labelColumns.length && used + widths[end] <= CONTENT_WIDTH) used += widths[end++];
      end = Math.max(end, start + 1);
      table(
        pdf,
        [
          { title: "Holding", width: 90 },
          ...labelColumns
            .slice(start, end)
            .map((l, i) => ({ title: l, width: widths[start + i], align: "right" as const })),
        ],
        rows.map((r) => [r.holding, ...r.amounts.slice(start, end)]),
        8,
      );
      start = end;
    }
  }
  if (doc.income.interest.length > 0) {
    heading(pdf, "Interest per cash account");
    table(
      pdf,
      [
        { title: "Cash account", width: 340 },
        { title: "10L", width: CONTENT_WIDTH - 340, align: "right" },
      ],
      doc.income.interest.map((a) => [a.name, formatAmount(a.labels["10L"] ?? new Decimal(0), 2)]),
    );
  }

  pdf.moveDown(0.5);
  pdf
    .font("body")
    .fontSize(8)
    .fillColor("#444")
    .text(
      "Figures follow ITAA 1997 s100-50 (losses against non-discount gains first, then the discount) with the parcel method recorded for each sale. " +
        "Not covered: the indexation method, pre-CGT assets, and anything outside these records; check them against your own statements before you lodge.",
      MARGIN,
      undefined,
      { width: CONTENT_WIDTH },
    )
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
      .text(
        `${report.portfolioName} — FY${report.financialYear} — Page ${i + 1} of ${range.count}`,
        MARGIN,
        A4.height - MARGIN,
        { width: CONTENT_WIDTH, align: "center", lineBreak: false },
      );
    pdf.page.margins.bottom = bottomMargin;
  }
  pdf.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

function heading(pdf: PDFKit.PDFDocument, title: string, keepWith = 60): void {
  // A short table moves whole to the next page rather than leave a few rows behind; a longer one
  // (the disposals) starts here if its header and a few rows fit.
  if (pdf.y + 24 + keepWith > BOTTOM && MARGIN + 24 + keepWith <= BOTTOM) pdf.addPage();
  else if (pdf.y > BOTTOM - 60) pdf.addPage();
  pdf.font("bold").fontSize(12).text(title, MARGIN, pdf.y);
  pdf.moveDown(0.3);
}

/** A ruled table; a row that would cross the bottom margin starts a new page under a repeated header. */
function table(pdf: PDFKit.PDFDocument, columns: Column[], rows: string[][], fontSize = 9): void {
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
