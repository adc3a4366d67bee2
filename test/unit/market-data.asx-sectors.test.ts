import fs from "node:fs";
import {
  ASX_LIST_FILE,
  asxClassification,
  asxList,
  GICS_SECTOR_OF_GROUP,
  parseAsxList,
} from "../../src/modules/market-data/asx-sectors";

/**
 * The ASX's list of listed companies (src/modules/market-data/reference/asx-listed-companies.csv):
 * parsed once into ASX code → GICS industry group; the sector is the group's GICS sector
 * (docs/data.md §3).
 */
const SAMPLE = [
  "ASX listed companies as at Mon May 18 17:39:08 AEST 2026",
  "",
  "Company name,ASX code,GICS industry group",
  '"COMMONWEALTH BANK OF AUSTRALIA.","CBA","Banks"',
  '"6K ADDITIVE, INC.","6KA","Materials"',
  '"STATE STREET SPDR S&P/ASX 200 ETF","STW","Not Applic"',
  '"TEST SECURITY","TES","Class Pend"',
  '"ACRUX LIMITED","ACR","Pharmaceuticals, Biotechnology & Life Sciences"',
  '"SOME NEW GROUP LIMITED","SNG","Some Future Group"',
  "",
].join("\n");

describe("parsing the ASX list", () => {
  const list = parseAsxList(SAMPLE);

  it("skips the title and the blank line, reads quoted cells with commas, keeps the as-at date", () => {
    expect(list.asAt).toBe("Mon May 18 17:39:08 AEST 2026");
    expect([...list.groups]).toEqual([
      ["CBA", "Banks"],
      ["6KA", "Materials"],
      ["ACR", "Pharmaceuticals, Biotechnology & Life Sciences"],
      ["SNG", "Some Future Group"],
    ]);
  });

  it('"Not Applic" and "Class Pend" give no sector; an unknown code gives nothing', () => {
    expect(asxClassification("STW", list)).toBeNull();
    expect(asxClassification("TES", list)).toBeNull();
    expect(asxClassification("ZZZ", list)).toBeNull();
  });

  it("the sector is the group's GICS sector, the industry the group; a group GICS does not list has no sector", () => {
    expect(asxClassification("cba", list)).toEqual({ sector: "Financials", industry: "Banks" });
    expect(asxClassification("ACR", list)).toEqual({
      sector: "Health Care",
      industry: "Pharmaceuticals, Biotechnology & Life Sciences",
    });
    expect(asxClassification("SNG", list)).toEqual({ sector: null, industry: "Some Future Group" });
  });

  it("a file without the header line is refused", () => {
    expect(() => parseAsxList("ASX listed companies as at today\n\nfoo,bar\n")).toThrow(/header/);
  });

  it("GICS: 25 industry groups in 11 sectors", () => {
    expect(GICS_SECTOR_OF_GROUP.size).toBe(25);
    expect(new Set(GICS_SECTOR_OF_GROUP.values()).size).toBe(11);
  });
});

describe("the shipped list", () => {
  it("is the ASX file as published: dated, 1,976 companies, 1,746 with an industry group", () => {
    const text = fs.readFileSync(ASX_LIST_FILE, "utf8");
    expect(text.startsWith("ASX listed companies as at Mon May 18 17:39:08 AEST 2026\n\n")).toBe(true);
    const list = asxList();
    expect(list.asAt).toBe("Mon May 18 17:39:08 AEST 2026");
    expect(list.groups.size).toBeGreaterThan(1500);
    expect(list.groups.size).toBe(1746);
    expect(asxList()).toBe(list); // parsed once
  });

  it("gives the big names their GICS classification", () => {
    expect(asxClassification("CBA")).toEqual({ sector: "Financials", industry: "Banks" });
    expect(asxClassification("BHP")).toEqual({ sector: "Materials", industry: "Materials" });
    expect(asxClassification("CSL")).toEqual({
      sector: "Health Care",
      industry: "Pharmaceuticals, Biotechnology & Life Sciences",
    });
    expect(asxClassification("WOW")).toEqual({
      sector: "Consumer Staples",
      industry: "Consumer Staples Distribution & Retail",
    });
    expect(asxClassification("GMG")).toEqual({
      sector: "Real Estate",
      industry: "Equity Real Estate Investment Trusts (REITs)",
    });
    expect(asxClassification("STW")).toBeNull(); // an ETF: "Not Applic"
  });

  it("every industry group in it has its GICS sector", () => {
    const unknown = [...new Set(asxList().groups.values())].filter((g) => !GICS_SECTOR_OF_GROUP.has(g));
    expect(unknown).toEqual([]);
  });
});
