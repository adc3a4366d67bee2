import type { Prisma } from "../../../generated/prisma/client";
import { FxTable } from "./fx";

/**
 * Loads what the one FX rule (fx.ts) needs to answer a portfolio's rate on any date from `first`
 * to `last`, in two statements whatever the number of dates: the latest imported row of each pair
 * dated ≤ `first` with every row after it up to `last` (crosses need the other pairs too), and
 * the portfolio's own trade rates per currency the same way, for the rule's fallback.
 */
export interface FxPortfolio {
  id: number;
  accountId: number;
  baseCurrencyCode: string;
}

export interface FxLoadOptions {
  /** A trade being replaced: its stored rate is not a fallback for its own new rate. */
  exceptTradeId?: number;
}

export async function loadFxTable(
  db: Prisma.TransactionClient,
  portfolio: FxPortfolio,
  dates: readonly string[],
  options: FxLoadOptions = {},
): Promise<FxTable> {
  if (dates.length === 0) return new FxTable([], { base: portfolio.baseCurrencyCode, rates: [] });
  const first = dates.reduce((m, d) => (d < m ? d : m));
  const last = dates.reduce((m, d) => (d > m ? d : m));
  const except = options.exceptTradeId ?? 0;
  const [fx, trades] = await Promise.all([
    db.$queryRaw<{ base: string; quote: string; date: string; rate: string }[]>`
      (SELECT DISTINCT ON (base, quote) base::text AS base, quote::text AS quote, date::text AS date, rate::text AS rate FROM fx_rate
       WHERE account_id = ${portfolio.accountId} AND date <= ${first}::date
       ORDER BY base, quote, date DESC)
      UNION ALL
      (SELECT base::text, quote::text, date::text, rate::text FROM fx_rate
       WHERE account_id = ${portfolio.accountId} AND date > ${first}::date AND date <= ${last}::date)`,
    // Ordered by date, then entry: of one day's trades the last entered is the rate (DatedSeries keeps the last).
    db.$queryRaw<{ currencyCode: string; date: string; exchangeRate: string }[]>`
      SELECT "currencyCode", date, "exchangeRate" FROM (
        (SELECT DISTINCT ON (currency_code) id, currency_code::text AS "currencyCode", trade_date::text AS date, exchange_rate::text AS "exchangeRate" FROM trade
         WHERE portfolio_id = ${portfolio.id} AND currency_code <> ${portfolio.baseCurrencyCode} AND id <> ${except} AND trade_date <= ${first}::date
         ORDER BY currency_code, trade_date DESC, id DESC)
        UNION ALL
        (SELECT id, currency_code::text, trade_date::text, exchange_rate::text FROM trade
         WHERE portfolio_id = ${portfolio.id} AND currency_code <> ${portfolio.baseCurrencyCode} AND id <> ${except} AND trade_date > ${first}::date AND trade_date <= ${last}::date)
      ) r
      ORDER BY date, id`,
  ]);
  return new FxTable(fx, { base: portfolio.baseCurrencyCode, rates: trades });
}
