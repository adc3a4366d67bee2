import type { Prisma } from "../../../generated/prisma/client";
import { FxTable } from "./fx";
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
  return new FxTable(fx, { base: portfolio.baseCurrencyCode, rates: trades.get(portfolio.id)! });
}
