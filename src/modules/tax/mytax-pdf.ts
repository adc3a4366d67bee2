import { Decimal } from "../../lib/money";
import type { MyTaxDocument } from "./mytax-document";
import {
  capitalGainsSections,
  CELL_SLACK,
  CONTENT_WIDTH,
  finishTaxPdf,
  formatAmount,
  heading,
  MARGIN,
  openTaxPdf,
  table,
} from "./pdf-layout";
import { INCOME_LABELS } from "./taxable-income";

/**
 * The myTax report as a PDF an accountant can file from (docs/reports.md §5.4): A4, the portfolio, the
 * year and the entity; every label with its amount; the capital gains summary; the disposals
 * (a table whose header repeats on every page it runs onto); the income per holding and the
 * interest per cash account; "Page n of m" on every page (pdf-layout.ts). Rendering only: every
 * figure comes from the report.
 */
export async function renderMyTaxPdf(doc: MyTaxDocument, generatedOn: string): Promise<Uint8Array> {
  const { report } = doc;
  const { pdf, bytes } = await openTaxPdf({
    info: {
      Title: `ATO myTax — ${report.portfolioName} — FY${report.financialYear}`,
      Subject: "Investment figures for myTax",
    },
    title: "ATO myTax — investment figures",
    subject: { ...report, from: doc.from, to: doc.to, discountPercent: doc.discountPercent },
    prepared: `Prepared on ${generatedOn} from the portfolio's confirmed records. Amounts in AUD.`,
    // Only confirmed income enters the labels.
    unconfirmed: { ...report.unconfirmedIncome, meaning: "confirm them to count them" },
  });

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

  capitalGainsSections(pdf, report.capitalGains, doc.disposals, "Disposals");

  heading(pdf, "Income per holding");
  const labelColumns = INCOME_LABELS.filter(
    (l) => l !== "10L" && l !== "10M" && doc.income.holdings.some((h) => h.labels[l]),
  );
  if (doc.income.holdings.length === 0)
    pdf.font("body").fontSize(9).text("No confirmed income in the year.", MARGIN).moveDown(0.8);
  else {
    // Each column as wide as its widest figure (a figure is never broken over two lines), in the
    // largest type from 8 pt down to 6 pt at which every label fits beside the holding in one
    // table: a second table of the columns that did not fit is read as another holding's row.
    // Only when even 6 pt is too wide do the columns that do not fit go into a further table.
    const rows = doc.income.holdings.map((h) => ({
      holding: `${h.symbol}.${h.exchange}`,
      amounts: labelColumns.map((l) => (h.labels[l] ? formatAmount(h.labels[l]!, 2) : "")),
    }));
    const layout = (size: number) => {
      const widest = (title: string, cells: string[]) => {
        pdf.font("bold").fontSize(size);
        const head = pdf.widthOfString(title);
        pdf.font("body").fontSize(size);
        return Math.max(head, ...cells.map((c) => pdf.widthOfString(c))) + CELL_SLACK;
      };
      const holding = widest(
        "Holding",
        rows.map((r) => r.holding),
      );
      const widths = labelColumns.map((l, c) =>
        widest(
          columnTitle(l),
          rows.map((r) => r.amounts[c]),
        ),
      );
      return { size, holding, widths, total: holding + widths.reduce((a, b) => a + b, 0) };
    };
    const sizes = [8, 7.5, 7, 6.5, 6].map(layout);
    const fit = sizes.find((l) => l.total <= CONTENT_WIDTH) ?? sizes[sizes.length - 1];
    // What is left of the line goes to the label columns alike, so the table spans the page.
    const spare =
      fit.total <= CONTENT_WIDTH && labelColumns.length > 0 ? (CONTENT_WIDTH - fit.total) / labelColumns.length : 0;
    const widths = fit.widths.map((w) => w + spare);
    for (let start = 0; start < labelColumns.length;) {
      let end = start;
      let used = fit.holding;
      while (end < labelColumns.length && used + widths[end] <= CONTENT_WIDTH + 0.001) used += widths[end++];
      end = Math.max(end, start + 1);
      table(
        pdf,
        [
          { title: "Holding", width: fit.holding },
          ...labelColumns
            .slice(start, end)
            .map((l, i) => ({ title: columnTitle(l), width: widths[start + i], align: "right" as const })),
        ],
        rows.map((r) => [r.holding, ...r.amounts.slice(start, end)]),
        fit.size,
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

  finishTaxPdf(
    pdf,
    "Figures follow ITAA 1997 s100-50 (losses against non-discount gains first, then the discount) with the parcel method recorded for each sale. " +
      "Not covered: the indexation method, pre-CGT assets, and anything outside these records; check them against your own statements before you lodge.",
    `${report.portfolioName} — FY${report.financialYear}`,
  );
  return bytes;
}

/**
 * A per-holding income column's title: its label, but for the trusts' capital gains, which the
 * label table's 18H (the year's total capital gains) includes: under "18H" too they would read as
 * a second 18H amount.
 */
const columnTitle = (label: string) => (label === "18H" ? "Trust CG" : label);
