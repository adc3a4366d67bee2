import { types } from "node:util";
import { Worker } from "node:worker_threads";
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
 * exceljs inflates the whole workbook before a row can be counted, and a crafted workbook within
 * the 20 MiB body limit inflates to millions of rows: read in the request's own thread, one such
 * file held every other request for 35 s and took the process to 4 GB. So the workbook is read in
 * a worker thread of its own, with a heap and a time to finish (WORKBOOK_LIMITS):
 * past either it is stopped and the import answered 413, while the service goes on answering.
 */
export async function readXlsxSheet(
  body: Buffer,
  sheet: string,
  what: string,
  maxRecords: number,
  limits = WORKBOOK_LIMITS,
): Promise<CsvRecord[]> {
  const answer = await readInWorker(body, sheet, maxRecords, limits);
  if (answer.kind === "unreadable")
    throw validationFailed(`${what} is not an .xlsx workbook.`, [
      { path: "(body)", message: "is not an .xlsx workbook" },
    ]);
  if (answer.kind === "too-large")
    throw new DomainError(
      "PAYLOAD_TOO_LARGE",
      `${what} is a workbook too large to read: it needs more than ${limits.heapMb} MiB or ${limits.seconds} s once unpacked (a broker's export of ${maxRecords.toLocaleString("en-AU")} rows needs a fraction of that).`,
    );
  if (answer.kind === "no-sheet") {
    const { names } = answer;
    const has = names.length === 0 ? "no sheets" : `the sheets ${names.map((n) => `"${n}"`).join(", ")}`;
    throw validationFailed(`${what} has no sheet "${sheet}": the workbook has ${has}.`, [
      { path: "(body)", message: `must have a sheet named ${sheet}` },
    ]);
  }
  const records: CsvRecord[] = [];
  for (const row of answer.rows) {
    const cells = Array.from(row.values, (v) => cellText(v ?? null));
    if (cells.every((c) => c.trim() === "")) continue;
    if (records.length === maxRecords) throw tooManyRows(what, maxRecords);
    records.push({ line: row.line, cells });
  }
  if (answer.truncated) throw tooManyRows(what, maxRecords);
  return records;
}

/** The heap and the time a workbook's reading may take (100,000 short rows read well within both). */
export const WORKBOOK_LIMITS = { heapMb: 1024, seconds: 60 };

type WorkerAnswer =
  | { kind: "rows"; rows: { line: number; values: ExcelJS.CellValue[] }[]; truncated: boolean }
  | { kind: "no-sheet"; names: string[] }
  | { kind: "unreadable" }
  | { kind: "too-large" };

/**
 * The worker's code: exceljs loads the workbook and the sheet's rows are posted back as cell
 * values (cellText turns them into text here), the rows with any value at most maxRecords + 1.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Excel = require(workerData.exceljs);
(async () => {
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(workerData.body);
  } catch {
    return parentPort.postMessage({ kind: "unreadable" });
  }
  const names = workbook.worksheets.map((w) => w.name);
  const worksheet = workbook.worksheets.find((w) => w.name.toLowerCase() === workerData.sheet.toLowerCase());
  if (!worksheet) return parentPort.postMessage({ kind: "no-sheet", names });
  const rows = [];
  let truncated = false;
  worksheet.eachRow({ includeEmpty: false }, (row, line) => {
    if (truncated) return;
    const values = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => { values[column - 1] = cell.value; });
    if (values.every((v) => v === null || v === undefined || (typeof v === "string" && v.trim() === ""))) return;
    if (rows.length > workerData.maxRecords) return void (truncated = true);
    rows.push({ line, values });
  });
  parentPort.postMessage({ kind: "rows", rows, truncated });
})();
`;

function readInWorker(
  body: Buffer,
  sheet: string,
  maxRecords: number,
  limits: typeof WORKBOOK_LIMITS,
): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { body, sheet, maxRecords, exceljs: require.resolve("exceljs") },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let answered = false;
    const answer = (a: WorkerAnswer) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(a);
    };
    const timer = setTimeout(() => answer({ kind: "too-large" }), limits.seconds * 1000);
    worker.once("message", (a: WorkerAnswer) => answer(a));
    // Out of its heap (ERR_WORKER_OUT_OF_MEMORY), or any other failure of the reading.
    worker.once("error", (error: Error & { code?: string }) =>
      answer(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { kind: "too-large" } : { kind: "unreadable" }),
    );
    worker.once("exit", () => answer({ kind: "unreadable" }));
  });
}

/** A cell's value as the text a CSV export would hold. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  // A number as Excel shows it and writes it to CSV: 15 significant digits. The double a formula
  // leaves (0.1 + 0.2 is 0.30000000000000004) is 0.3, as the user sees it.
  if (typeof value === "number") return Number.isFinite(value) ? new Decimal(value.toPrecision(15)).toFixed() : "";
  // exceljs reads a date cell's serial number as that wall-clock time in UTC: its UTC day is the
  // day Excel shows, whatever the server's zone.
  // A Date made by the worker's structured clone (types.isDate holds across realms; instanceof does not).
  if (types.isDate(value)) return Number.isNaN(value.getTime()) ? "" : value.toISOString().slice(0, 10);
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("formula" in value || "sharedFormula" in value) {
    return "result" in value && value.result !== undefined ? cellText(value.result as ExcelJS.CellValue) : "";
  }
  if ("hyperlink" in value) return typeof value.text === "string" ? value.text : cellText(value.text);
  if ("error" in value) return String(value.error);
  return "";
}
