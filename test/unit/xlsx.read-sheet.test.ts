import ExcelJS from "exceljs";
import { DomainError } from "../../src/lib/domain-errors";
import { readXlsxSheet } from "../../src/modules/trades/broker-formats/xlsx";

/**
 * A workbook sheet read as the records a broker format takes: each non-empty row, `line` the
 * sheet's row number, every cell as the text a CSV would hold.
 */
async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function refusal(read: Promise<unknown>): Promise<DomainError> {
  try {
    await read;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("read without complaint");
}

describe("readXlsxSheet", () => {
  it("reads each cell as text: dates as yyyy-mm-dd, numbers as their decimals, rich text, formulas, links", async () => {
    const body = await workbook((wb) => {
      wb.addWorksheet("Summary").addRow(["not read"]);
      const sheet = wb.addWorksheet("TRADES");
      sheet.addRow(["Date", "Symbol", "Units", "Value", "Note", "Link", "Flag"]);
      sheet.addRow([
        new Date("2024-02-29T00:00:00Z"),
        { richText: [{ text: "BR" }, { text: "K.B", font: { bold: true } }] },
        0.000001,
        { formula: "C2*100", result: 0.0001 },
        null,
        { text: "contract note", hyperlink: "https://example.com/cn/1" },
        true,
      ]);
      // Row 3 is empty: no record. Row 4 has a gap before its last cell.
      sheet.getRow(4).values = ["2024-03-01", "", 1234567.5, undefined, "late fill"];
    });
    // The sheet is named in any case.
    expect(await readXlsxSheet(body, "Trades", "The import", 10)).toEqual([
      { line: 1, cells: ["Date", "Symbol", "Units", "Value", "Note", "Link", "Flag"] },
      { line: 2, cells: ["2024-02-29", "BRK.B", "0.000001", "0.0001", "", "contract note", "TRUE"] },
      { line: 4, cells: ["2024-03-01", "", "1234567.5", "", "late fill"] },
    ]);
  });

  it("reads a number as Excel shows it, to 15 significant digits: a formula's 0.1 + 0.2 is 0.3", async () => {
    const body = await workbook((wb) => {
      const sheet = wb.addWorksheet("Trades");
      sheet.addRow(["Units", "Price", "Big", "Small"]);
      sheet.addRow([0.1 + 0.2, { formula: "1.1*3", result: 1.1 * 3 }, 123456789012345.6, 1.5e-7]);
    });
    const [, row] = await readXlsxSheet(body, "Trades", "The import", 10);
    // 1.1 × 3 is 3.3000000000000003 as a double; 123,456,789,012,345.6 has 16 digits, Excel keeps 15.
    expect(row.cells).toEqual(["0.3", "3.3", "123456789012346", "0.00000015"]);
  });

  it("a missing sheet names the sheets the workbook has", async () => {
    const body = await workbook((wb) => {
      wb.addWorksheet("Funding").addRow(["x"]);
      wb.addWorksheet("Dividends").addRow(["y"]);
    });
    const error = await refusal(readXlsxSheet(body, "Trades", "The import", 10));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.status).toBe(400);
    expect(error.message).toBe('The import has no sheet "Trades": the workbook has the sheets "Funding", "Dividends".');
  });

  it("a body that is not a workbook: CSV text, or a zip of something else", async () => {
    for (const body of [Buffer.from("DATE (US),SYMBOL\n2024-03-05,AAPL\n"), Buffer.from("PK\u0003\u0004broken")]) {
      const error = await refusal(readXlsxSheet(body, "Trades", "The import", 10));
      expect(error.status).toBe(400);
      expect(error.message).toBe("The import is not an .xlsx workbook.");
    }
  });

  it("more non-empty rows than the limit is a 413", async () => {
    const body = await workbook((wb) => {
      const sheet = wb.addWorksheet("Trades");
      for (let i = 0; i < 4; i++) sheet.addRow([`row ${i + 1}`]);
    });
    expect(await readXlsxSheet(body, "Trades", "The import", 4)).toHaveLength(4);
    const error = await refusal(readXlsxSheet(body, "Trades", "The import", 3));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/^Too many rows \(more than 3\) in the import/);
  });

  it("a workbook that needs more heap or time than allowed is a 413, read off the event loop meanwhile", async () => {
    // 100,000 rows: about 60 MiB of heap once exceljs has unpacked them.
    const big = await workbook((wb) => {
      const sheet = wb.addWorksheet("Trades");
      for (let i = 0; i < 100_000; i++) sheet.addRow([`row ${i + 1}`, i, "AAPL"]);
    });
    let turns = 0;
    const ticker = setInterval(() => turns++, 5);
    try {
      const error = await refusal(readXlsxSheet(big, "Trades", "The import", 200_000, { heapMb: 32, seconds: 60 }));
      expect(error.code).toBe("PAYLOAD_TOO_LARGE");
      expect(error.message).toMatch(/^The import is a workbook too large to read: it needs more than 32 MiB or 60 s/);
    } finally {
      clearInterval(ticker);
    }
    // The reading ran in its own thread: this one kept turning while it did.
    expect(turns).toBeGreaterThan(0);
    // 32 MiB is enough for a small workbook: the big one's rows were what did not fit.
    const small = await workbook((wb) => wb.addWorksheet("Trades").addRow(["row 1", 1, "AAPL"]));
    expect(await readXlsxSheet(small, "Trades", "The import", 10, { heapMb: 32, seconds: 60 })).toHaveLength(1);
    // With the default limits the same workbook reads; with too little time it does not.
    expect(await readXlsxSheet(big, "Trades", "The import", 200_000)).toHaveLength(100_000);
    const late = await refusal(readXlsxSheet(big, "Trades", "The import", 200_000, { heapMb: 1024, seconds: 0.01 }));
    expect(late.code).toBe("PAYLOAD_TOO_LARGE");
  }, 120_000);
});
