import type ExcelJS from "exceljs";
import { tooManyRows } from "../../../lib/bulk";
import type { CsvRecord } from "../../../lib/csv";
import { DomainError, validationFailed } from "../../../lib/domain-errors";
import { Decimal } from "../../../lib/money";

/**
 * One sheet of an .xlsx workbook as the records a broker format reads (format.ts): each non-empty
 * row, its cells as text the way the broker's CSV would write them, `line` being the sheet's row
 * number as the user sees it in Excel.
 *
 * Memory: exceljs inflates the whole workbook before a row can be counted, so what bounds it is the
 * HTTP body limit of the bulk endpoints (20 MiB, app.ts) times the zip's compression ratio. A real
 * broker export is a few hundred KiB; a crafted zip bomb within 20 MiB can still cost the process
 * a large heap. That residual risk is accepted here rather than re-implementing the zip reader:
 * the endpoint is authenticated and rate limited.
 */
export async function readXlsxSheet(
  body: Buffer,
  sheet: string,
  what: string,
  maxRecords: number,
): Promise<CsvRecord[]> {
  // Loaded on the first workbook: exceljs is the largest library the service has (about 150 ms
  // to load), and most processes never read a workbook.
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  try {
    // exceljs declares its own Buffer type, which Node's Buffer<ArrayBufferLike> is not assignable to.
    await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw validationFailed(`${what} is not an .xlsx workbook.`, [
      { path: "(body)", message: "is not an .xlsx workbook" },
    ]);
  }
  const names = workbook.worksheets.map((w) => w.name);
  const worksheet = workbook.worksheets.find((w) => w.name.toLowerCase() === sheet.toLowerCase());
  if (!worksheet) {
    const has = names.length === 0 ? "no sheets" : `the sheets ${names.map((n) => `"${n}"`).join(", ")}`;
    throw validationFailed(`${what} has no sheet "${sheet}": the workbook has ${has}.`, [
      { path: "(body)", message: `must have a sheet named ${sheet}` },
    ]);
  }

  const records: CsvRecord[] = [];
  let over = false;
  worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (over) return;
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    for (let i = 0; i < cells.length; i++) cells[i] ??= "";
    if (cells.every((c) => c.trim() === "")) return;
    if (records.length === maxRecords) {
      over = true;
      return;
    }
    records.push({ line: rowNumber, cells });
  });
  if (over) throw tooManyRows(what, maxRecords);
  return records;
}

/** A cell's value as the text a CSV export would hold. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") return Number.isFinite(value) ? new Decimal(value).toFixed() : "";
  // exceljs reads a date cell's serial number as that wall-clock time in UTC: its UTC day is the
  // day Excel shows, whatever the server's zone.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString().slice(0, 10);
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("formula" in value || "sharedFormula" in value) {
    return "result" in value && value.result !== undefined ? cellText(value.result as ExcelJS.CellValue) : "";
  }
  if ("hyperlink" in value) return typeof value.text === "string" ? value.text : cellText(value.text);
  if ("error" in value) return String(value.error);
  return "";
}
