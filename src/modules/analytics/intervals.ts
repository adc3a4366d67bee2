import { calendarDays } from "../ledger";

/**
 * The dates of a series' points (REPORTS.md §1), pure: `day` every day; `week` the Sundays;
 * `month` the month ends; the first point is always `from` and the last always `to`. The default
 * interval is `day` up to 400 days, `month` beyond.
 */
export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

export function defaultInterval(from: string, to: string): Interval {
  return calendarDays(from, to).length <= 400 ? "day" : "month";
}

export function pointDates(from: string, to: string, interval: Interval): string[] {
  const days = calendarDays(from, to);
  const keep = (date: string, i: number) => {
    if (i === 0 || i === days.length - 1 || interval === "day") return true;
    const d = new Date(date + "T00:00:00Z");
    if (interval === "week") return d.getUTCDay() === 0;
    d.setUTCDate(d.getUTCDate() + 1);
    return d.getUTCDate() === 1;
  };
  return days.filter(keep);
}
