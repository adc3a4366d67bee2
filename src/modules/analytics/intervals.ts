import { calendarDays, dayNumber } from "../ledger";

/**
 * The dates of a series' points (docs/reports.md §1), pure: `day` every day; `week` the Sundays;
 * `month` the month ends; the first point is always `from` and the last always `to`. The default
 * interval is `day` up to 400 days, `month` beyond.
 */
export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

export function defaultInterval(from: string, to: string): Interval {
  return dayNumber(to) - dayNumber(from) + 1 <= 400 ? "day" : "month";
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

/**
 * How many dates pointDates gives, by arithmetic: a limit is checked before any day is listed.
 * Between the two ends: the Sundays (day 0 of the epoch, 1970-01-01, was a Thursday), or the ends
 * of the months from `from`'s to the one before `to`'s (`to`'s own month end is never before it).
 */
export function pointCount(from: string, to: string, interval: Interval): number {
  const first = dayNumber(from);
  const last = dayNumber(to);
  const days = last - first + 1;
  if (days <= 2 || interval === "day") return Math.max(0, days);
  if (interval === "week") {
    const sundaysUpTo = (n: number) => Math.floor((n + 4) / 7);
    return 2 + sundaysUpTo(last - 1) - sundaysUpTo(first);
  }
  const month = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  const fromIsMonthEnd =
    dayNumber(from) + 1 === Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)), 1) / 86_400_000;
  return 2 + month(to) - month(from) - (fromIsMonthEnd ? 1 : 0);
}
