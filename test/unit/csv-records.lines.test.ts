import { readCsvRecords } from "../../src/lib/csv";

/**
 * Each record of a CSV body carries the line it starts on as the user counts lines in the file:
 * the first line is 1, blank lines (and lines of spaces) count but give no record, a quoted cell
 * that spans lines moves every later record down, and CRLF counts as one break. The expected
 * lines are read off the texts below by hand.
 */
const read = async (text: string) =>
  (await readCsvRecords(text, { what: "The file", maxRecords: 100 })).map((r) => [r.line, r.cells]);

describe("CSV records and their lines", () => {
  const lines = [
    "\uFEFFa,b", // 1 (a BOM before the header)
    "1,2", // 2
    "", // 3: blank
    "   ", // 4: spaces only
    '"x', // 5: a quoted cell that starts here...
    'y",3', // 6: ...and ends here
    ",", // 7: two empty cells are a record
    '"p', // 8
    "", // 9: a blank line inside quotes is part of the cell
    'q","r', // 10
    's"', // 11
    "4,5", // 12
    "", // the final break ends line 12
  ];
  const expected = [
    [1, ["a", "b"]],
    [2, ["1", "2"]],
    [5, ["x\ny", "3"]],
    [7, ["", ""]],
    [8, ["p\n\nq", "r\ns"]],
    [12, ["4", "5"]],
  ];

  it("counts lines with LF breaks", async () => {
    expect(await read(lines.join("\n"))).toEqual(expected);
  });

  it("counts lines with CRLF breaks, inside quoted cells too", async () => {
    expect(await read(lines.join("\r\n"))).toEqual(expected);
  });

  it("counts a file with no final break and blank lines at its start", async () => {
    expect(await read("\n\n  \nh1,h2\nv1,v2")).toEqual([
      [4, ["h1", "h2"]],
      [5, ["v1", "v2"]],
    ]);
  });

  it("reads lines past one chunk of the reader (4 KiB) in their places", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? "" : `${i},"a\nb"`));
    const records = await read(rows.join("\n")).catch(() => undefined);
    // 3000 lines at 2 lines a record for most: past the test's maxRecords of 100, a 413.
    expect(records).toBeUndefined();
    const all = await readCsvRecords(rows.join("\n"), { what: "The file", maxRecords: 5000 });
    let line = 1;
    const want: number[] = [];
    for (const row of rows) {
      if (row !== "") want.push(line);
      line += row === "" ? 1 : 2;
    }
    expect(all.map((r) => r.line)).toEqual(want);
  });

  // A syntax error after the limit's worth of rows is the error (400), not "too many rows" (413),
  // however many blank lines come before it: blank lines are no records.
  it("answers a syntax error, not the row limit, when blank lines come before it", async () => {
    const refusal = await readCsvRecords('h\n1\n\n\n\na"b\nx', { what: "The file", maxRecords: 2 }).catch((e) => e);
    expect(refusal.status ?? refusal.code).not.toBe(413);
    expect(refusal.message).toMatch(/not valid CSV/);
    expect(refusal.errors[0].path).toBe("line 6");
  });

  it("keeps a line holding one quoted empty cell: it is a record, not a blank line", async () => {
    expect(await read('h\n""\nv')).toEqual([
      [1, ["h"]],
      [2, [""]],
      [3, ["v"]],
    ]);
  });

  // The parser finds a quote that never closes at the end of the text; the line to fix is the one
  // it opens on, past the quoted cells that did close (one spanning lines 2-3, one with "" in it).
  it("names the line a quote that never closes opens on, not the last line", async () => {
    const text = ["a,b", '"x', 'y",1', '"say ""hi""",2', '3,"open', "4,5", "6,7"].join("\n");
    const refusal = await readCsvRecords(text, { what: "The file", maxRecords: 100 }).catch((e) => e);
    expect(refusal.message).toMatch(/Quote Not Closed/);
    expect(refusal.errors[0].path).toBe("line 5");
  });
});
