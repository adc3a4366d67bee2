import { newPortfolio, newTrade } from "../factories";
import type { TestApp } from "../support/app";

/**
 * A portfolio ("Portfolio") holding 100 CBA.ASX bought at 100 on 2024-01-10: cost base 10,000.
 * The holding the income suites hang their records on.
 */
export async function cbaHolding(
  t: TestApp,
  key: string,
): Promise<{ portfolioId: number; holdingId: number; tradeId: number }> {
  const portfolioId = await newPortfolio(t, key);
  const buy = await newTrade(t, key, {
    portfolioId,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 100,
    price: 100,
  });
  return { portfolioId, holdingId: buy.holdingId, tradeId: buy.id };
}

/** A second ASX holding beside it: 10 BHP.ASX bought @ 45 on 2024-01-10 in the portfolio. Returns its id. */
export async function bhpHolding(t: TestApp, key: string, portfolioId: number): Promise<number> {
  return (
    await newTrade(t, key, {
      portfolioId,
      symbol: "BHP",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 45,
    })
  ).holdingId;
}

/** A USD holding: 10 AAPL.NASDAQ bought @ USD 150 on 2024-01-10 at 1.5, in the portfolio. Returns its id. */
export async function aaplHolding(t: TestApp, key: string, portfolioId: number): Promise<number> {
  return (
    await newTrade(t, key, {
      portfolioId,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 150,
      exchangeRate: "1.5",
    })
  ).holdingId;
}
