import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { PROJECT_ROOT } from "../../lib/paths";

/**
 * The ASX's list of listed companies with their GICS industry group, shipped with the service
 * (reference/asx-listed-companies.csv, see reference/README.md for its date and source): the
 * sector and industry of holdings on the ASX (docs/data.md §3). Read relative to the project root,
 * so the same path serves `src/` (tsx, jest) and `dist/` (the build does not copy data files).
 */

export const ASX_LIST_FILE = path.join(PROJECT_ROOT, "src/modules/market-data/reference/asx-listed-companies.csv");

export interface AsxList {
  /** The list's "as at" line, as the ASX wrote it (`Mon May 18 17:39:08 AEST 2026`); null when absent. */
  asAt: string | null;
  /** ASX code → GICS industry group; companies the ASX gives none ("Not Applic", "Class Pend") are absent. */
  groups: Map<string, string>;
}

/** What the ASX writes for a company without a GICS classification (funds, trusts, debt; new listings). */
const NO_GROUP = new Set(["Not Applic", "Class Pend", ""]);

/**
 * Parses the ASX file: a title line "ASX listed companies as at <date>", a blank line, the header
 * `Company name,ASX code,GICS industry group`, then one quoted row per company.
 */
export function parseAsxList(text: string): AsxList {
  const rows = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  const header = rows.findIndex((r) => r[0] === "Company name" && r[1] === "ASX code");
  if (header < 0) throw new Error("The ASX list has no header line (Company name,ASX code,GICS industry group).");
  const title = rows
    .slice(0, header)
    .map((r) => /^ASX listed companies as at (.+)$/.exec(r[0] ?? ""))
    .find(Boolean);
  const groups = new Map<string, string>();
  for (const [, code, group] of rows.slice(header + 1)) {
    if (!code || group === undefined || NO_GROUP.has(group)) continue;
    groups.set(code.toUpperCase(), group);
  }
  return { asAt: title ? title[1] : null, groups };
}

let shipped: AsxList | undefined;

/** The shipped list, read and parsed once per process. */
export function asxList(): AsxList {
  shipped ??= parseAsxList(fs.readFileSync(ASX_LIST_FILE, "utf8"));
  return shipped;
}

/**
 * GICS industry group → GICS sector, as MSCI and S&P define them since March 2023 (the names the
 * ASX file uses): 25 industry groups in 11 sectors. A group not listed here (a later revision)
 * gives the holding its industry but no sector.
 */
export const GICS_SECTOR_OF_GROUP: ReadonlyMap<string, string> = new Map(
  Object.entries({
    Energy: ["Energy"],
    Materials: ["Materials"],
    Industrials: ["Capital Goods", "Commercial & Professional Services", "Transportation"],
    "Consumer Discretionary": [
      "Automobiles & Components",
      "Consumer Durables & Apparel",
      "Consumer Services",
      "Consumer Discretionary Distribution & Retail",
    ],
    "Consumer Staples": [
      "Consumer Staples Distribution & Retail",
      "Food, Beverage & Tobacco",
      "Household & Personal Products",
    ],
    "Health Care": ["Health Care Equipment & Services", "Pharmaceuticals, Biotechnology & Life Sciences"],
    Financials: ["Banks", "Financial Services", "Insurance"],
    "Information Technology": [
      "Software & Services",
      "Technology Hardware & Equipment",
      "Semiconductors & Semiconductor Equipment",
    ],
    "Communication Services": ["Telecommunication Services", "Media & Entertainment"],
    Utilities: ["Utilities"],
    "Real Estate": ["Equity Real Estate Investment Trusts (REITs)", "Real Estate Management & Development"],
  }).flatMap(([sector, groups]) => groups.map((g) => [g, sector] as const)),
);

/**
 * The classification the ASX list gives an ASX code: the GICS sector and, as the industry, the
 * GICS industry group (the level the ASX publishes). Null: the list gives the code none.
 */
export function asxClassification(
  code: string,
  list: AsxList = asxList(),
): { sector: string | null; industry: string } | null {
  const group = list.groups.get(code.toUpperCase());
  return group === undefined ? null : { sector: GICS_SECTOR_OF_GROUP.get(group) ?? null, industry: group };
}
