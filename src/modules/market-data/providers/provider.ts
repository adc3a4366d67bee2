/**
 * The market-data provider interface (docs/data.md §1). A provider is a plug-in: it maps the
 * service's (symbol, exchange) to its own symbol, fetches through an injected HTTP client (so tests
 * replay recorded responses offline), and answers in the service's terms: ISO dates (the
 * exchange's local date), decimal strings, prices as traded on the day (split adjustment undone,
 * sub-unit currencies converted). Providers hold no database and no clock of their own.
 */

/** A security as the service knows it. */
export interface SecurityRef {
  symbol: string;
  exchange: string;
}

/** An inclusive range of ISO dates (YYYY-MM-DD). */
export interface DateRange {
  from: string;
  to: string;
}

/** One daily close, as traded that day, in `History.currency`. */
export interface PriceBar {
  date: string;
  close: string;
}

/** A cash dividend per unit held at the start of `exDate`, as paid on the units of that day. */
export interface DividendEvent {
  exDate: string;
  amount: string;
}

/** A split (numerator > denominator) or consolidation (numerator < denominator) effective on `date`. */
export interface SplitEvent {
  date: string;
  numerator: number;
  denominator: number;
}

/** What a provider knows of a security over a range, in date order. */
export interface History {
  /** The provider's symbol the answer is for (e.g. `VAS.AX`). */
  providerSymbol: string;
  /** ISO 4217 code of prices and dividends, after sub-unit conversion (`GBp` → `GBP`). */
  currency: string;
  /** The provider's instrument type when it says (`EQUITY`, `ETF`, `MUTUALFUND`, ...). */
  instrumentType?: string;
  prices: PriceBar[];
  dividends: DividendEvent[];
  splits: SplitEvent[];
}

/** One exchange rate: units of `quote` per 1 `base` on `date`. */
export interface FxObservation {
  base: string;
  quote: string;
  date: string;
  rate: string;
}

/** A currency pair the service needs (`base` is a portfolio's base currency). */
export interface CurrencyPair {
  base: string;
  quote: string;
}

/**
 * A provider failed for one request. `kind` says whether trying again later can help:
 * `unsupported` (the exchange or pair has no mapping: not a failure of the run), `not-found`
 * (the provider does not know the symbol), `invalid` (a body that failed validation),
 * `unavailable` (timeouts, 429, 5xx after retries, or the circuit breaker is open).
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: "unsupported" | "not-found" | "invalid" | "unavailable",
    message: string,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface PriceProvider {
  /** `yahoo` or `replay`. */
  readonly id: string;
  /** The provider's symbol for a security, or null when its exchange is not supported. */
  symbolFor(security: SecurityRef): string | null;
  /** Prices, dividends and splits over the range (one request where the provider allows). */
  getHistory(security: SecurityRef, range: DateRange, options?: { signal?: AbortSignal }): Promise<History>;
}

export interface FxProvider {
  /** `rba`, `yahoo` or `replay`. */
  readonly id: string;
  /** Whether the provider can answer this pair at all. */
  supports(pair: CurrencyPair): boolean;
  /** Rates of the pairs over the range; pairs it cannot answer are left out. */
  getRates(
    pairs: readonly CurrencyPair[],
    range: DateRange,
    options?: { signal?: AbortSignal },
  ): Promise<FxObservation[]>;
}

/**
 * The HTTP client a provider is given: the part of `fetch` it uses. Tests pass a replaying client;
 * the service passes `fetch` wrapped in the provider's timeout, retries, rate limit and breaker.
 */
export type HttpClient = (
  url: string,
  init?: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{
  status: number;
  text(): Promise<string>;
}>;
