import { newPortfolio, newTrade } from "../factories";
import type { TestApp } from "../support/app";

/**
 * A portfolio 70/30 by value: 70 AAA.ASX and 30 BBB.ASX, both bought @ 100 on 2024-01-10 (7,000
 * and 3,000; no market prices, so valued at the trade price). The rebalancing suites set their
 * targets against it. Returns the portfolio's and both holdings' ids.
 */
export async function seventyThirty(
  t: TestApp,
  key: string,
  name: string,
): Promise<{ portfolioId: number; aaa: number; bbb: number }> {
  const portfolioId = await newPortfolio(t, key, { name });
  const buy = (symbol: string, quantity: number) =>
    newTrade(t, key, {
      portfolioId,
      symbol,
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity,
      price: 100,
    });
  const a = await buy("AAA", 70);
  const b = await buy("BBB", 30);
  return { portfolioId, aaa: a.holdingId, bbb: b.holdingId };
}
