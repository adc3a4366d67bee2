import { z } from "zod";

/**
 * Calendar dates (trade, income, price and report dates) are `YYYY-MM-DD`, no time, no zone
 * (docs/conventions.md §4.1). In the database they are DATE columns, which Prisma hands over as UTC midnight.
 */
export const dateInput = z
  .string({ error: "must be a date, YYYY-MM-DD" })
  // abort: the refinements below would throw on text that is not even shaped like a date.
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date, YYYY-MM-DD", abort: true })
  .refine(isCalendarDate, "is not a calendar date")
  .refine((s) => s >= "1900-01-01" && s <= "2200-12-31", "must be between 1900-01-01 and 2200-12-31")
  .meta({ format: "date" });

/**
 * Whether `YYYY-MM-DD` text names a day of the Gregorian calendar (2024-02-29 does, 2023-02-29 and
 * 2024-04-31 do not). Counted, not parsed: an import checks a date on every row.
 */
export function isCalendarDate(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `YYYY-MM-DD` as UTC midnight (an invalid date for text that is not a calendar date). The usual
 * shape is read by hand: the Date parser took a microsecond a call, and a fold or a broker file
 * converts a date or two per event.
 */
export function toDate(date: string): Date {
  if (date.length === 10 && date.charCodeAt(4) === 0x2d && date.charCodeAt(7) === 0x2d) {
    const year = digits(date, 0, 4);
    const month = digits(date, 5, 7);
    const day = digits(date, 8, 10);
    if (year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))
      return new Date(Date.UTC(year, month - 1, day));
  }
  return new Date(date + "T00:00:00.000Z");
}

/** The number written by the decimal digits of `text` from `start` to `end`; -1 if one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The calendar date of `date` in UTC, `YYYY-MM-DD` (toISOString's, written without it for the usual years). */
export function fromDate(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString().slice(0, 10);
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  return year + (month < 10 ? "-0" : "-") + month + (day < 10 ? "-0" : "-") + day;
}

export function addDays(date: string, days: number): string {
  const d = toDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromDate(d);
}

/**
 * The financial year a date falls in, named by the calendar year it ends in: with the Australian
 * year end 06-30, 2024-07-01..2025-06-30 is FY2025.
 */
export function financialYearOf(date: string, yearEnd = "06-30"): number {
  const year = Number(date.slice(0, 4));
  return date.slice(5) <= yearEnd ? year : year + 1;
}

/**
 * A financial year as an input, named by the calendar year it ends in (2025: the year ending
 * 30 June 2025, or the portfolio's own year end). 1986 at the earliest: CGT began on 20 September
 * 1985, so FY1986 is the first year it can apply to; 2200 at the latest, as for dates.
 */
export const financialYearInput = z
  .number({ error: "must be a financial year such as 2025" })
  .int("must be a whole year such as 2025")
  .min(1986, "must be 1986 or later (CGT began on 20 September 1985)")
  .max(2200, "must be 2200 or earlier");

/** First and last day of a financial year (inclusive). */
export function financialYearRange(financialYear: number, yearEnd = "06-30"): { from: string; to: string } {
  const to = `${financialYear}-${yearEnd}`;
  return { from: addDays(`${financialYear - 1}-${yearEnd}`, 1), to };
}

/** Today in UTC, for defaults only: calculators take dates as arguments. */
/** The number of days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  // Anything but a whole year and a month 1–12 is the calendar's to say (month 13: next January).
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12)
    return new Date(Date.UTC(year, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1];
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `date` moved `months` calendar months, on the same day clamped to the month's end (29 Feb → 28 Feb). */
export function addMonthsClamped(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, daysInMonth(year, month)))}`;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The calendar date (YYYY-MM-DD) it is in a time zone at a moment (default now). */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** A calendar date in an answer (`YYYY-MM-DD`), documented as `format: date`. */
export const dateOutput = z.string().meta({ format: "date" });
