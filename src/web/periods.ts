/**
 * The ranges of the value chart, on Australian financial years (1 July to 30 June, named by the
 * year they end in): FY to date, last FY, 1Y, 3Y, all. Dates only; amounts are the API's.
 */

export type RangeId = "fytd" | "lastfy" | "1y" | "3y" | "all";

export const RANGES: { id: RangeId; label: string }[] = [
  { id: "fytd", label: "FY to date" },
  { id: "lastfy", label: "Last FY" },
  { id: "1y", label: "1Y" },
  { id: "3y", label: "3Y" },
  { id: "all", label: "All" },
];

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/** The financial year today is in: 2026 from 1 July 2025 to 30 June 2026. */
export function currentFinancialYear(today = new Date()): number {
  return today.getMonth() >= 6 ? today.getFullYear() + 1 : today.getFullYear();
}

export function rangeDates(id: RangeId, today = new Date()): { from?: string; to?: string } {
  const fy = currentFinancialYear(today);
  switch (id) {
    // No `to` where the range runs to today: the API's today (UTC), not the browser's, which is
    // already tomorrow in Australia each morning.
    case "fytd":
      return { from: `${fy - 1}-07-01` };
    case "lastfy":
      return { from: `${fy - 2}-07-01`, to: `${fy - 1}-06-30` };
    case "1y":
    case "3y": {
      const years = id === "1y" ? 1 : 3;
      const from = new Date(today.getFullYear() - years, today.getMonth(), today.getDate());
      return { from: iso(from) };
    }
    case "all":
      // The API's own defaults: from the first event to its today.
      return {};
  }
}

/** Daily points up to a year, weekly beyond: a chart of some hundreds of points either way. */
export const intervalFor = (id: RangeId): "day" | "week" => (id === "3y" || id === "all" ? "week" : "day");

/**
 * The points a date axis labels: the first point of each month (ISO dates, oldest first), so each
 * month is named once, at its start. The first point counts only when it is the 1st (or the sole
 * point): a range that starts mid-month gets its first label at the next month.
 */
export function monthStarts(dates: string[]): number[] {
  const starts: number[] = [];
  dates.forEach((d, i) => {
    if (i === 0 ? d.endsWith("-01") : d.slice(0, 7) !== dates[i - 1].slice(0, 7)) starts.push(i);
  });
  return starts.length > 0 || dates.length === 0 ? starts : [0];
}
