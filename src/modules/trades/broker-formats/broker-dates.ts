import { fromDate, isCalendarDate, toDate } from "../../../lib/dates";

/**
 * Dates as brokers write them (docs/data.md §4), read into yyyy-mm-dd; and the trade date of a
 * settlement date, for an export that dates trades on the day the money moved.
 */

/** The date patterns brokers write. */
export type DatePattern =
  | "dd/mm/yyyy" // CommSec: 05/03/2024, 5/03/2024
  | "yyyy-mm-dd" // Sharesight, Stake; a time after it is ignored (SelfWealth's 2024-03-05 00:00:00)
  | "yyyymmdd" // IBKR Flex: 20240305, 20240305;103000
  | "yyyy-mm-dd, hh:mm:ss"; // IBKR Activity Statement: "2024-03-05, 10:30:00"

/** Each pattern's text, and which of its groups hold the year, the month and the day. */
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ ,T].*)?$/;
const DATE_FORMS: Record<DatePattern, { re: RegExp; ymd: [number, number, number] }> = {
  // A spreadsheet's re-save may add the time of day (0:00, 10:15:00 AM).
  "dd/mm/yyyy": { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i, ymd: [3, 2, 1] },
  yyyymmdd: { re: /^(\d{4})(\d{2})(\d{2})(?:[;,T ].*)?$/, ymd: [1, 2, 3] },
  "yyyy-mm-dd": { re: ISO_DATE, ymd: [1, 2, 3] },
  "yyyy-mm-dd, hh:mm:ss": { re: ISO_DATE, ymd: [1, 2, 3] },
};

/** A date in `pattern` as yyyy-mm-dd, or undefined when it is not one (31/02 included). */
export function parseDate(text: string, pattern: DatePattern): string | undefined {
  const form = DATE_FORMS[pattern];
  const m = form.re.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = form.ymd.map((i) => m[i]);
  const iso = `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/**
 * The business day (Monday to Friday) `days` business days before `date`: a settlement date's
 * trade date under T+2. Public holidays are not known: a settlement after one is a day late.
 */
export function businessDaysBefore(date: string, days: number): string {
  const d = toDate(date);
  for (let left = days; left > 0;) {
    d.setUTCDate(d.getUTCDate() - 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return fromDate(d);
}
