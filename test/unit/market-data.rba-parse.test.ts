import fs from "node:fs";
import path from "node:path";
import { parseRbaF11 } from "../../src/modules/market-data/providers/rba";

/**
 * docs/data.md §1.2: F11.1 is metadata rows (Title ... Units ... Series ID) then one row per
 * business day, `DD-Mon-YYYY`. A column counts when its Units cell is an ISO currency; A$1 buys
 * `rate` of it, kept as the file writes it. The fixture is a slice of the file's layout: columns
 * USD, TWI (Index), CNY, JPY, EUR, SDR; 22-Dec-2023 to 03-Jan-2024, so a weekend (23-24 Dec),
 * Christmas and Boxing Day, another weekend (30-31 Dec) and New Year's Day have no row; CNY on
 * 28-Dec, JPY on 02-Jan and SDR on 03-Jan are blank. It starts with a BOM, ends lines with CRLF,
 * and every row ends in an empty column, as the RBA's file does.
 */
const FIXTURE = path.join(__dirname, "../fixtures/providers/rba");
const f11 = fs.readFileSync(path.join(FIXTURE, "f11.1-data.csv"), "utf8");

describe("parsing the RBA F11.1 CSV", () => {
  const observations = parseRbaF11(f11);
  const of = (quote: string) => observations.filter((o) => o.quote === quote).map((o) => [o.date, o.rate]);

  it("reads every currency column, A$ as the base, each rate as written", () => {
    expect(of("USD")).toEqual([
      ["2023-12-22", "0.6792"],
      ["2023-12-27", "0.6812"],
      ["2023-12-28", "0.6845"],
      ["2023-12-29", "0.6827"],
      ["2024-01-02", "0.6812"],
      ["2024-01-03", "0.6745"],
    ]);
    // 96.70 keeps its trailing zero: a decimal string, never a float.
    expect(of("JPY")).toEqual([
      ["2023-12-22", "96.67"],
      ["2023-12-27", "96.91"],
      ["2023-12-28", "96.70"],
      ["2023-12-29", "96.31"],
      ["2024-01-03", "95.90"],
    ]);
    expect(observations[0]).toEqual({ base: "AUD", quote: "USD", date: "2023-12-22", rate: "0.6792" });
  });

  it("skips the trade-weighted index and the SDR, which are not currencies", () => {
    // Units "Index" is no currency; "SDR" is not ISO 4217 (the SDR's code would be XDR).
    expect(new Set(observations.map((o) => o.quote))).toEqual(new Set(["USD", "CNY", "JPY", "EUR"]));
    // 6 days × 4 currencies, less the blank CNY (28-Dec) and JPY (02-Jan) cells.
    expect(observations).toHaveLength(6 * 4 - 2);
  });

  it("a blank cell is no observation", () => {
    expect(of("CNY").map(([date]) => date)).not.toContain("2023-12-28");
    expect(of("JPY").map(([date]) => date)).not.toContain("2024-01-02");
    expect(of("EUR")).toHaveLength(6);
  });

  it("weekends and public holidays have no row, so no observation", () => {
    const dates = [...new Set(observations.map((o) => o.date))];
    // Absent: 23-24 Dec (weekend), 25-26 Dec (Christmas, Boxing Day), 30-31 Dec (weekend), 01 Jan.
    expect(dates).toEqual(["2023-12-22", "2023-12-27", "2023-12-28", "2023-12-29", "2024-01-02", "2024-01-03"]);
  });

  it("reads the same with or without a BOM, with CRLF or LF line ends", () => {
    const bare = f11.replace(/^\uFEFF/, "");
    expect(f11.startsWith("\uFEFF")).toBe(true);
    expect(parseRbaF11("\uFEFF" + bare.replace(/\r?\n/g, "\r\n"))).toEqual(observations);
    expect(parseRbaF11(bare.replace(/\r\n/g, "\n"))).toEqual(observations);
  });

  it("the minimal layout: one column, blank spacer lines, no trailing columns, cells padded with spaces", () => {
    const text = [
      "Title,A$1=NZD",
      "Units,NZD",
      "",
      "",
      "Series ID,FXRNZD",
      "02-Jan-2024, 1.0812 ",
      "03-Jan-2024,1.0790",
    ].join("\n");

    expect(parseRbaF11(text)).toEqual([
      { base: "AUD", quote: "NZD", date: "2024-01-02", rate: "1.0812" },
      { base: "AUD", quote: "NZD", date: "2024-01-03", rate: "1.0790" },
    ]);
  });

  it("no data rows yet: no observations", () => {
    expect(parseRbaF11("Units,USD,Index\nSeries ID,FXRUSD,FXRTWI\n")).toEqual([]);
  });
});
