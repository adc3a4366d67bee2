import type { Prisma } from "../../../generated/prisma/client";
import { FxTable, type TradeRateRow } from "./fx";
import { fxRates, tradeRates } from "./market-data";

/**
 * What the one FX rule (fx.ts) needs to answer a portfolio's rate on any date from the first of
 * `dates` to the last, in two statements whatever the number of dates: the account's rates and
 * the portfolio's own trade rates for the rule's fallback, both from the market-data loader.
 */
export interface FxPortfolio {
  id: number;
  accountId: number;
  baseCurrencyCode: string;
}

export interface FxLoadOptions {
  /** A trade being replaced: its stored rate is not a fallback for its own new rate. */
  exceptTradeId?: number;
  /**
   * Trades about to be recorded with their own rates (an import's rows that give one): the rule's
   * fallback reads them as the portfolio's trades, before the recorded ones of their date.
   */
  pendingTrades?: readonly TradeRateRow[];
}

export async function loadFxTable(
  db: Prisma.TransactionClient,
  portfolio: FxPortfolio,
  dates: readonly string[],
  options: FxLoadOptions = {},
): Promise<FxTable> {
  if (dates.length === 0) return new FxTable([], { base: portfolio.baseCurrencyCode, rates: [] });
  const window = {
    from: dates.reduce((m, d) => (d < m ? d : m)),
    to: dates.reduce((m, d) => (d > m ? d : m)),
  };
  const [fx, trades] = await Promise.all([
    fxRates(db, portfolio.accountId, window),
    tradeRates(db, [portfolio.id], window, options),
  ]);
  const pending = [...(options.pendingTrades ?? [])].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const rates = pending.length ? mergeByDate(trades.get(portfolio.id)!, pending) : trades.get(portfolio.id)!;
  return new FxTable(fx, { base: portfolio.baseCurrencyCode, rates });
}

/** Two date-ordered lists as one, `first` before `recorded` on a date both have. */
function mergeByDate(recorded: readonly TradeRateRow[], first: readonly TradeRateRow[]): TradeRateRow[] {
  const out: TradeRateRow[] = [];
  let j = 0;
  for (const row of recorded) {
    while (j < first.length && first[j].date <= row.date) out.push(first[j++]);
    out.push(row);
  }
  return [...out, ...first.slice(j)];
}
