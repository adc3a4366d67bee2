import type { PrismaClient } from "../../db";
import { toDate } from "../../lib/dates";
import { write, type WriteTx } from "../ledger/write";
import type { FxObservation, History, SecurityRef } from "./providers/provider";

/**
 * The refresh's writes (docs/data.md §2): provider data is the installation's, stored once. Each
 * security is written in one transaction, all or nothing; a row whose value did not change is not
 * rewritten, so the counts are rows written or updated and a quiet re-run bumps no version.
 */

export interface WriteCounts {
  prices: number;
  dividends: number;
  splits: number;
}

/** Closes written per statement (a year of trading days). */
const PRICE_ROWS_PER_STATEMENT = 250;

const last = <T>(list: readonly T[]): T | undefined => list[list.length - 1];

/** Stores a security's history and marks its status fresh; answers the rows written or changed. */
export async function storeHistory(db: PrismaClient, security: SecurityRef, history: History): Promise<WriteCounts> {
  const { symbol, exchange } = security;
  const currency = history.currency;
  return write({ db }, async (tx) => {
    // In chunks: on the embedded database a statement runs on the event loop's thread, and one of
    // a security's 2,600 closes held it for up to ~180 ms (a /health stall); each chunk is a turn
    // of its own, the transaction still one (the security all or nothing).
    let prices = 0;
    for (let i = 0; i < history.prices.length; i += PRICE_ROWS_PER_STATEMENT) {
      const chunk = history.prices.slice(i, i + PRICE_ROWS_PER_STATEMENT);
      prices += await tx.$executeRaw`
          INSERT INTO provider_price (symbol, exchange, date, close, currency_code)
          SELECT ${symbol}, ${exchange}, d::date, c::numeric, ${currency}
          FROM unnest(${chunk.map((p) => p.date)}::text[], ${chunk.map((p) => p.close)}::text[]) AS x(d, c)
          ON CONFLICT (symbol, exchange, date) DO UPDATE SET close = EXCLUDED.close, currency_code = EXCLUDED.currency_code
          WHERE provider_price.close <> EXCLUDED.close OR provider_price.currency_code <> EXCLUDED.currency_code`;
    }
    const dividends = history.dividends.length
      ? await tx.$executeRaw`
          INSERT INTO provider_dividend (symbol, exchange, ex_date, amount, currency_code)
          SELECT ${symbol}, ${exchange}, d::date, a::numeric, ${currency}
          FROM unnest(${history.dividends.map((d) => d.exDate)}::text[], ${history.dividends.map((d) => d.amount)}::text[]) AS x(d, a)
          ON CONFLICT (symbol, exchange, ex_date) DO UPDATE SET amount = EXCLUDED.amount, currency_code = EXCLUDED.currency_code
          WHERE provider_dividend.amount <> EXCLUDED.amount OR provider_dividend.currency_code <> EXCLUDED.currency_code`
      : 0;
    const splits = history.splits.length
      ? await tx.$executeRaw`
          INSERT INTO provider_split (symbol, exchange, date, numerator, denominator)
          SELECT ${symbol}, ${exchange}, d::date, n, m
          FROM unnest(${history.splits.map((s) => s.date)}::text[], ${history.splits.map((s) => s.numerator)}::int[],
                      ${history.splits.map((s) => s.denominator)}::int[]) AS x(d, n, m)
          ON CONFLICT (symbol, exchange, date) DO UPDATE SET numerator = EXCLUDED.numerator, denominator = EXCLUDED.denominator
          WHERE provider_split.numerator <> EXCLUDED.numerator OR provider_split.denominator <> EXCLUDED.denominator`
      : 0;
    const lastDate = last(history.prices)?.date;
    await markStatus(tx, security, {
      ok: true,
      providerSymbol: history.providerSymbol,
      instrumentType: history.instrumentType,
      lastPriceDate: lastDate,
    });
    return { prices, dividends, splits };
  });
}

/** Stores exchange rates (one pair's rows in one statement); answers the rows written or changed. */
export async function storeRates(db: PrismaClient, provider: string, rows: readonly FxObservation[]): Promise<number> {
  if (rows.length === 0) return 0;
  return db.$executeRaw`
    INSERT INTO provider_fx_rate (base, quote, date, rate, provider)
    SELECT b, q, d::date, r::numeric, ${provider}
    FROM unnest(${rows.map((r) => r.base)}::text[], ${rows.map((r) => r.quote)}::text[],
                ${rows.map((r) => r.date)}::text[], ${rows.map((r) => r.rate)}::text[]) AS x(b, q, d, r)
    ON CONFLICT (base, quote, date) DO UPDATE SET rate = EXCLUDED.rate, provider = EXCLUDED.provider
    WHERE provider_fx_rate.rate <> EXCLUDED.rate`;
}

/** The status row of a security (or pair): tried now; on success the error clears. */
export async function markStatus(
  db: PrismaClient | WriteTx,
  key: SecurityRef,
  outcome:
    | { ok: true; providerSymbol?: string; instrumentType?: string; lastPriceDate?: string }
    | { ok: false; providerSymbol?: string | null; error: string },
): Promise<void> {
  const now = new Date();
  const lastPriceDate = outcome.ok && outcome.lastPriceDate ? toDate(outcome.lastPriceDate) : null;
  const error = outcome.ok ? null : outcome.error.slice(0, 1000);
  await db.$executeRaw`
    INSERT INTO market_data_security (symbol, exchange, provider_symbol, instrument_type, last_price_date, last_attempt_at, last_success_at, last_error)
    VALUES (${key.symbol}, ${key.exchange}, ${outcome.providerSymbol ?? null}, ${outcome.ok ? (outcome.instrumentType ?? null) : null},
            ${lastPriceDate}::date, ${now}, ${outcome.ok ? now : null}, ${error})
    ON CONFLICT (symbol, exchange) DO UPDATE SET
      provider_symbol = COALESCE(EXCLUDED.provider_symbol, market_data_security.provider_symbol),
      instrument_type = COALESCE(EXCLUDED.instrument_type, market_data_security.instrument_type),
      last_price_date = GREATEST(EXCLUDED.last_price_date, market_data_security.last_price_date),
      last_attempt_at = EXCLUDED.last_attempt_at,
      last_success_at = COALESCE(EXCLUDED.last_success_at, market_data_security.last_success_at),
      last_error = EXCLUDED.last_error`;
}
