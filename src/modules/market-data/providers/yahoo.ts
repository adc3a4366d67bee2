import { z } from "zod";
import { Decimal } from "../../../lib/money";
import { addDays, toDate } from "../../../lib/dates";
import type { CurrencyPair, DateRange, FxObservation, FxProvider, History, HttpClient } from "./provider";
import { type PriceProvider, ProviderError, type SecurityRef } from "./provider";
import { unadjustForSplits } from "./unadjust";

/**
 * The Yahoo chart API (docs/data.md §1.1): one request per security answers its daily closes,
 * dividends and splits; FX pairs are securities too (`AUDUSD=X`).
 */

/** Exchange → Yahoo suffix. A Map, so `constructor` or `__proto__` is not an exchange. */
const SUFFIX_BY_EXCHANGE = new Map([
  ["ASX", ".AX"],
  ["NASDAQ", ""],
  ["NYSE", ""],
  ["NYSEARCA", ""],
  ["BATS", ""],
  ["LSE", ".L"],
  ["NZX", ".NZ"],
  ["TSX", ".TO"],
  ["HKEX", ".HK"],
]);

/**
 * A code as exchanges write them (`VAS`, `BRK-B`, `RDS.A`, `^AXJO`). The first character is never
 * a dot, so no code is `.` or `..`, which a URL parser would resolve as a path segment even after
 * encodeURIComponent (dots are unreserved); `/`, `?`, `#`, `%` and spaces cannot appear at all.
 * docs/data.md §1: nothing a request carries can make the service fetch another path.
 */
const CODE = /^[A-Za-z0-9^][A-Za-z0-9.\-^=]{0,19}$/;
const EXCHANGE = /^[A-Za-z]{1,10}$/;

/**
 * Yahoo's symbol for a security, or null when its exchange or its code is not supported. Checked
 * before capitals are made: `toUpperCase` turns some letters outside ASCII into ASCII ones (ſ → S).
 */
export function yahooSymbol(ref: SecurityRef): string | null {
  if (!EXCHANGE.test(ref.exchange) || !CODE.test(ref.symbol)) return null;
  const suffix = SUFFIX_BY_EXCHANGE.get(ref.exchange.toUpperCase());
  return suffix === undefined ? null : ref.symbol.toUpperCase() + suffix;
}

const CURRENCY = /^[A-Z]{3}$/;

/** Yahoo's symbol for a currency pair (`AUDUSD=X`: units of USD per 1 AUD), or null. */
export function yahooFxSymbol(pair: CurrencyPair): string | null {
  if (!CURRENCY.test(pair.base) || !CURRENCY.test(pair.quote) || pair.base === pair.quote) return null;
  return `${pair.base}${pair.quote}=X`;
}

const DAY_SECONDS = 86_400;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `period1` is `from` at 00:00 UTC less a day, because exchanges east of UTC stamp a day's bar on
 * the UTC day before (an NZX open is 21:00 UTC); `period2` is the day after `to`. Yahoo rejects
 * period1 == period2, which from ≤ to rules out.
 */
function chartUrl(baseUrl: string, symbol: string, range: DateRange): string {
  for (const date of [range.from, range.to]) {
    if (!ISO_DATE.test(date) || Number.isNaN(toDate(date).getTime())) throw new RangeError(`not a date: ${date}`);
  }
  if (range.from > range.to) throw new RangeError(`empty range ${range.from}..${range.to}`);
  const period1 = toDate(range.from).getTime() / 1000 - DAY_SECONDS;
  const period2 = toDate(addDays(range.to, 1)).getTime() / 1000;
  const base = baseUrl.replace(/\/+$/, "");
  return (
    `${base}/v8/finance/chart/${encodeURIComponent(symbol)}` +
    `?period1=${period1}&period2=${period2}&interval=1d&events=div%2Csplit`
  );
}

// Seconds between 1900 and 2200, the service's date range (lib/dates.ts), so a date always exists.
const timestamp = z.number().int().min(-2_208_988_800).max(7_258_118_400);
const OFFSET_MAX = 14 * 3600;

const chartSchema = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          meta: z.object({
            currency: z.string().nullish(),
            symbol: z.string().optional(),
            instrumentType: z.string().nullish(),
            gmtoffset: z.number().int().min(-OFFSET_MAX).max(OFFSET_MAX),
          }),
          timestamp: z.array(timestamp).optional(),
          events: z
            .object({
              dividends: z.record(z.string(), z.object({ amount: z.number().nonnegative(), date: timestamp })),
              splits: z.record(
                z.string(),
                z.object({ date: timestamp, numerator: z.number().positive(), denominator: z.number().positive() }),
              ),
            })
            .partial()
            .optional(),
          indicators: z.object({
            quote: z.array(z.object({ close: z.array(z.number().nullable()).optional() })),
          }),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string(), description: z.string().nullish() }).nullable(),
  }),
});

type ChartResult = NonNullable<z.infer<typeof chartSchema>["chart"]["result"]>[number];

/** Sub-unit currencies Yahoo quotes in (docs/data.md §1.1): pence, cents, agorot → the ISO unit. */
const SUB_UNITS = new Map([
  ["GBp", "GBP"],
  ["ZAc", "ZAR"],
  ["ILA", "ILS"],
]);

/** DECIMAL(24,8) prices and dividends, DECIMAL(20,10) rates (prisma/schema.prisma). */
const PRICE_SCALE = 8;
const RATE_SCALE = 10;

function fail(kind: ProviderError["kind"], symbol: string, what: string): never {
  throw new ProviderError(kind, `yahoo ${symbol}: ${what}`);
}

async function fetchChart(
  baseUrl: string,
  http: HttpClient,
  symbol: string,
  range: DateRange,
  signal?: AbortSignal,
): Promise<ChartResult> {
  const url = chartUrl(baseUrl, symbol, range);
  let status: number;
  let text: string;
  try {
    const response = await http(url, { signal });
    status = response.status;
    text = await response.text();
  } catch (error) {
    // The caller's own abort propagates as is; the HTTP wrapper's errors are already ProviderErrors.
    if (error instanceof ProviderError || signal?.aborted) throw error;
    return fail("unavailable", symbol, error instanceof Error ? error.message : String(error));
  }
  if (status === 404) fail("not-found", symbol, "HTTP 404");
  if (status === 429 || status >= 500) fail("unavailable", symbol, `HTTP ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail("invalid", symbol, `HTTP ${status}, a body that is not JSON`);
  }
  const parsed = chartSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail("invalid", symbol, `HTTP ${status}, ${issue.path.join(".")}: ${issue.message}`);
  }
  const { result, error } = parsed.data.chart;
  if (error)
    fail(error.code === "Not Found" ? "not-found" : "invalid", symbol, `${error.code}: ${error.description ?? ""}`);
  if (status < 200 || status > 299) fail("invalid", symbol, `HTTP ${status}`);
  if (!result || result.length === 0) fail("invalid", symbol, "no result and no error");
  return result[0];
}

/**
 * A timestamp's date at the exchange. `gmtoffset` is the exchange's offset now, not on the day,
 * but daily bars and events are stamped at or near the open, so an hour of daylight saving never
 * moves one across midnight.
 */
function localDate(seconds: number, gmtoffset: number): string {
  return new Date((seconds + gmtoffset) * 1000).toISOString().slice(0, 10);
}

const inRange = (date: string, range: DateRange) => date >= range.from && date <= range.to;
const sortedEntries = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A JSON number as the decimal it was written as: `97.1` is 97.1, not its nearest double. */
const decimal = (n: number) => new Decimal(String(n));

/**
 * The closes that traded, one per local date (the later stamp wins: Yahoo may repeat the day in
 * progress), skipping null and non-positive closes (no trade; a price of 0 values a holding at nothing).
 */
function closesByDate(symbol: string, result: ChartResult): Map<string, Decimal> {
  const closes = new Map<string, Decimal>();
  const stamps = result.timestamp;
  if (!stamps) return closes; // no data in the range: docs/data.md §1.1
  const column = result.indicators.quote[0]?.close;
  if (!column || column.length !== stamps.length) fail("invalid", symbol, "closes do not match timestamps");
  stamps.forEach((stamp, i) => {
    const close = column[i];
    if (close !== null && close > 0) closes.set(localDate(stamp, result.meta.gmtoffset), decimal(close));
  });
  return closes;
}

/** Events keyed by their local date, in date order; a second stamp on one date replaces the first. */
function byDate<T extends { date: number }>(events: Record<string, T> | undefined, gmtoffset: number) {
  const out = new Map<string, T>();
  for (const event of Object.values(events ?? {}).sort((a, b) => a.date - b.date)) {
    out.set(localDate(event.date, gmtoffset), event);
  }
  return sortedEntries(out);
}

/** Yahoo's answer in the service's terms (provider.ts): as traded, in ISO units, within the range. */
function toHistory(symbol: string, result: ChartResult, range: DateRange): History {
  const { gmtoffset } = result.meta;
  const quoted = result.meta.currency ?? "";
  const currency = SUB_UNITS.get(quoted) ?? quoted;
  if (!CURRENCY.test(currency)) fail("invalid", symbol, `currency ${JSON.stringify(quoted)}`);
  const perUnit = SUB_UNITS.has(quoted) ? new Decimal(100) : new Decimal(1);

  // Every split in the answer counts, even one after `to`: Yahoo adjusts for all later splits.
  const allSplits = byDate(result.events?.splits, gmtoffset)
    .filter(([, s]) => s.numerator !== s.denominator)
    .map(([date, s]) => ({ date, numerator: s.numerator, denominator: s.denominator }));
  const asTraded = (value: number | Decimal, date: string) =>
    unadjustForSplits(value, date, allSplits).div(perUnit).toDecimalPlaces(PRICE_SCALE).toFixed();

  const prices = sortedEntries(closesByDate(symbol, result))
    .filter(([date]) => inRange(date, range))
    .map(([date, close]) => ({ date, close: asTraded(close, date) }));
  const dividends = byDate(result.events?.dividends, gmtoffset)
    .filter(([date, d]) => inRange(date, range) && d.amount > 0)
    .map(([exDate, d]) => ({ exDate, amount: asTraded(decimal(d.amount), exDate) }));
  return {
    providerSymbol: symbol,
    currency,
    ...(result.meta.instrumentType ? { instrumentType: result.meta.instrumentType } : {}),
    prices,
    dividends,
    splits: allSplits.filter((s) => inRange(s.date, range)),
  };
}

export interface YahooOptions {
  /** `MARKET_DATA_URL`: from the environment only (docs/data.md §1). */
  baseUrl: string;
  http: HttpClient;
}

/**
 * Prices, dividends and splits from Yahoo. Yahoo adjusts for splits up to today, and an answer
 * holds only the splits inside its period, so a range must run to today for the closes before a
 * later split to come out as traded.
 */
export function createYahooProvider({ baseUrl, http }: YahooOptions): PriceProvider {
  return {
    id: "yahoo",
    symbolFor: yahooSymbol,
    async getHistory(security, range, options) {
      const symbol = yahooSymbol(security);
      if (symbol === null) {
        throw new ProviderError("unsupported", `yahoo: no symbol for ${security.symbol} on ${security.exchange}`);
      }
      const result = await fetchChart(baseUrl, http, symbol, range, options?.signal);
      return toHistory(symbol, result, range);
    },
  };
}

/**
 * Exchange rates from Yahoo's currency pairs: the close of `AUDUSD=X` is USD per 1 AUD. A pair
 * Yahoo does not know is left out like one it cannot name; other failures stop the run.
 */
export function createYahooFxProvider({ baseUrl, http }: YahooOptions): FxProvider {
  return {
    id: "yahoo",
    supports: (pair) => yahooFxSymbol(pair) !== null,
    async getRates(pairs, range, options) {
      const observations: FxObservation[] = [];
      for (const { base, quote } of pairs) {
        const symbol = yahooFxSymbol({ base, quote });
        if (symbol === null) continue;
        let result: ChartResult;
        try {
          result = await fetchChart(baseUrl, http, symbol, range, options?.signal);
        } catch (error) {
          if (error instanceof ProviderError && error.kind === "not-found") continue;
          throw error;
        }
        for (const [date, close] of sortedEntries(closesByDate(symbol, result))) {
          if (inRange(date, range)) {
            observations.push({ base, quote, date, rate: close.toDecimalPlaces(RATE_SCALE).toFixed() });
          }
        }
      }
      return observations;
    },
  };
}
