import { CsvError, parse } from "csv-parse/sync";
import { currencyCode } from "../../../lib/codes";
import { dateInput } from "../../../lib/dates";
import {
  ProviderError,
  type CurrencyPair,
  type DateRange,
  type FxObservation,
  type FxProvider,
  type HttpClient,
} from "./provider";

/**
 * The RBA's F11.1 exchange rates (docs/data.md §1.2): one CSV of daily 4 pm rates, A$1 in units of
 * each foreign currency, from 2023 to today. Metadata rows (`Title` ... `Units` ... `Series ID`) head
 * the columns, then one row per business day dated `DD-Mon-YYYY`; weekends and holidays have no row
 * (the "latest on or before" rule covers them).
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const RBA_DATE = /^(\d{2})-([A-Z][a-z]{2})-(\d{4})$/;
/** A positive decimal as the file writes it (`0.6812`, `97.63`). */
const RATE = /^(?=.*[1-9])\d+(\.\d+)?$/;

const invalid = (why: string) => new ProviderError("invalid", `The RBA F11.1 file is not as expected: ${why}`);
const quoted = (cell: string) => JSON.stringify(cell.length > 40 ? cell.slice(0, 40) + "..." : cell);

/**
 * Every observation in an F11.1 file, in file order (ascending dates). A column counts when its
 * `Units` cell is an ISO 4217 code; the trade-weighted index (`Index`) and the SDR (`SDR`, whose
 * ISO code would be XDR) are skipped. A blank cell is no observation.
 */
export function parseRbaF11(text: string): FxObservation[] {
  const rows = readRows(text);
  const units = rows.findIndex((row) => row[0] === "Units");
  const seriesId = rows.findIndex((row) => row[0] === "Series ID");
  if (units < 0 || seriesId < units) throw invalid("no Units row followed by a Series ID row");
  const columns = rows[units].flatMap((unit, i) =>
    i > 0 && unit !== "AUD" && currencyCode.safeParse(unit).success ? [{ i, quote: unit }] : [],
  );
  if (columns.length === 0) throw invalid("no column is in a currency");

  const observations: FxObservation[] = [];
  for (const row of rows.slice(seriesId + 1)) {
    const date = isoDate(row[0]);
    if (!date) throw invalid(`a data row is dated ${quoted(row[0])}, not DD-Mon-YYYY`);
    for (const { i, quote } of columns) {
      const cell = row[i] ?? "";
      if (cell === "") continue;
      if (!RATE.test(cell)) throw invalid(`A$1 in ${quote} on ${date} is ${quoted(cell)}, not a positive number`);
      observations.push({ base: "AUD", quote, date, rate: cell });
    }
  }
  return observations;
}

export interface RbaProviderOptions {
  /** The F11.1 CSV (`FX_DATA_URL`). */
  url: string;
  http: HttpClient;
}

/**
 * Only A$ as the base: the file quotes A$1, and the ledger's FX rule inverts or crosses a stored
 * rate (docs/data.md §1.2), so USD/AUD is answered from AUD/USD there. Which quotes the file holds is known only once it is read;
 * a quote it lacks is left out of the answer.
 */
function supports(pair: CurrencyPair): boolean {
  return pair.base === "AUD" && pair.quote !== "AUD" && currencyCode.safeParse(pair.quote).success;
}

export function createRbaProvider({ url, http }: RbaProviderOptions): FxProvider {
  return {
    id: "rba",
    supports,

    async getRates(pairs: readonly CurrencyPair[], range: DateRange, options?: { signal?: AbortSignal }) {
      const quotes = new Set(pairs.filter(supports).map((pair) => pair.quote));
      if (quotes.size === 0) return [];
      const response = await http(url, { signal: options?.signal, headers: { accept: "text/csv" } });
      if (response.status === 404)
        throw new ProviderError("not-found", `${url} answered HTTP 404: no F11.1 file there`);
      if (response.status < 200 || response.status > 299) {
        throw new ProviderError("unavailable", `${url} answered HTTP ${response.status}`);
      }
      return parseRbaF11(await response.text())
        .filter((o) => quotes.has(o.quote) && o.date >= range.from && o.date <= range.to)
        .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    },
  };
}

function readRows(text: string): string[][] {
  try {
    // bom: the RBA's file starts with one; skip_records_with_empty_values drops the `,,,` spacer rows.
    return parse(text, { bom: true, trim: true, relax_column_count: true, skip_records_with_empty_values: true });
  } catch (error) {
    if (error instanceof CsvError) throw invalid(`it is not CSV (${error.message})`);
    throw error;
  }
}

function isoDate(cell: string | undefined): string | null {
  const match = RBA_DATE.exec(cell ?? "");
  const month = match ? MONTHS.indexOf(match[2]) + 1 : 0;
  if (!match || month === 0) return null;
  const date = `${match[3]}-${String(month).padStart(2, "0")}-${match[1]}`;
  return dateInput.safeParse(date).success ? date : null;
}
