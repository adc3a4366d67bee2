/**
 * Australian conventions (WEB.md): amounts in their currency ("$" alone for AUD), dates as d MMM yyyy,
 * percentages to two decimals.
 * Amounts arrive as decimal strings and are only formatted here, never added up: every figure is
 * the API's.
 */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-AU", { style: "currency", currency, currencyDisplay: "narrowSymbol" });
    moneyFormats.set(currency, f);
  }
  return f;
}

/** "-0.00" and its kin read as zero: a sign on nothing shown is noise, and must not colour red. */
const unsigned = (text: string): string => (/^-[^1-9]*$/.test(text) ? text.slice(1) : text);

/** A decimal string as money, e.g. "$12,345.67"; a currency other than AUD keeps its code. */
export function money(value: string | null | undefined, currency = "AUD"): string {
  if (value === null || value === undefined) return "—";
  // Intl formats the decimal string exactly (no float on the way).
  const text = unsigned(moneyFormat(currency).format(value as unknown as number));
  return currency === "AUD" ? text : `${currency} ${text}`;
}

const unitFormats = new Map<string, Intl.NumberFormat>();

/** A price or an amount per unit: cents at least, up to 6 decimals ("$0.035", "$0.8542"). */
export function unitPrice(value: string | null | undefined, currency = "AUD"): string {
  if (value === null || value === undefined) return "—";
  let f = unitFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-AU", {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
    });
    unitFormats.set(currency, f);
  }
  const text = unsigned(f.format(value as unknown as number));
  return currency === "AUD" ? text : `${currency} ${text}`;
}

const decimalFormat = new Intl.NumberFormat("en-AU", { minimumFractionDigits: 2, maximumFractionDigits: 6 });
/** A figure with no currency to name ("1,234.50", "0.035"): cents at least, up to 6 decimals. */
export const decimal = (value: string | null | undefined): string =>
  value === null || value === undefined ? "—" : unsigned(decimalFormat.format(value as unknown as number));

const quantityFormat = new Intl.NumberFormat("en-AU", { maximumFractionDigits: 4 });
export const quantity = (value: string | null | undefined): string =>
  value === null || value === undefined ? "—" : quantityFormat.format(value as unknown as number);

/** A percentage the API gives as a number of percent (12.3456 → "12.35%"). */
export function percent(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  return `${unsigned(Number(value).toFixed(2))}%`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-07-01" → "1 Jul 2026"; a date-time is shown by its date in the browser's zone. */
export function date(value: string | null | undefined): string {
  if (!value) return "—";
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  // No-break spaces: a date never wraps inside a narrow table cell.
  if (m) return `${Number(m[3])}\u00a0${MONTHS[Number(m[2]) - 1]}\u00a0${m[1]}`;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getDate()}\u00a0${MONTHS[d.getMonth()]}\u00a0${d.getFullYear()}`;
}

/** A date-time with its time of day, for the refresh runs. */
export function dateTime(value: string | null | undefined): string {
  if (!value) return "—";
  const d = new Date(value);
  const hh = String(d.getHours()).padStart(2, "0");
  const mm = String(d.getMinutes()).padStart(2, "0");
  return `${date(value)} ${hh}:${mm}`;
}

/** "2026-07" (or "2026-07-15") → "Jul 2026". */
export function month(value: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(value);
  return m ? `${MONTHS[Number(m[2]) - 1]}\u00a0${m[1]}` : value;
}

/** Whether a decimal string is below zero (for colouring; no arithmetic). */
export const negative = (value: string | number | null | undefined): boolean => {
  if (value === null || value === undefined || value === "") return false;
  const shown = Number(value).toFixed(2); // the sign as shown to the cent, no more
  return shown.startsWith("-") && !/^-[^1-9]*$/.test(shown);
};

/** A figure's colour: red below zero (as shown), green otherwise. */
export const signTone = (value: string | number | null | undefined): "neg" | "pos" => (negative(value) ? "neg" : "pos");

/** "FY2026" for the financial year ending 30 June 2026. */
export const fyName = (year: number): string => `FY${year}`;
