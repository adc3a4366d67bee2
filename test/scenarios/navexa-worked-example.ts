import { newPortfolio, newTrade } from "../factories";
import type { TestApp } from "../support/app";

/**
 * docs/rules.md §11.5's worked example (Navexa's): a portfolio that buys 1,000 XYZ.ASX @ 2.00 on
 * 2018-01-01, 1,000 @ 2.20 on 2018-12-31 and sells all 2,000 @ 2.30 on 2019-12-31. No cash
 * account, so the trades are its flows (+2,000, +2,200, −4,600). Over 2018-01-01..2019-12-31:
 * total return 400 (all capital), TWR 9.523809524 % (annualised 4.653623694 %), Modified Dietz
 * 12.890693978 % (annualised 6.445346989 %), XIRR 6.328548494 %. Returns the portfolio's id.
 */
export async function navexaWorkedExample(t: TestApp, key: string, name = "SMSF"): Promise<number> {
  const portfolioId = await newPortfolio(t, key, { name });
  for (const [tradeType, tradeDate, quantity, price] of [
    ["Buy", "2018-01-01", 1000, 2],
    ["Buy", "2018-12-31", 1000, 2.2],
    ["Sell", "2019-12-31", 2000, 2.3],
  ] as const)
    await newTrade(t, key, { portfolioId, symbol: "XYZ", exchange: "ASX", tradeType, tradeDate, quantity, price });
  return portfolioId;
}

/**
 * Navexa's parcel example: 10 CBA.ASX bought @ 1 on 2024-01-01 and 10 @ 2 on 2024-02-01. Selling
 * 7 @ 3 on 2024-03-01 leaves 13 units with cost base 23 by FIFO. Returns the portfolio, the
 * holding and both buys' ids.
 */
export async function navexaParcels(
  t: TestApp,
  key: string,
): Promise<{ portfolioId: number; holdingId: number; firstBuyId: number; secondBuyId: number }> {
  const portfolioId = await newPortfolio(t, key);
  const buy = (tradeDate: string, quantity: number, price: number) =>
    newTrade(t, key, { portfolioId, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate, quantity, price });
  const first = await buy("2024-01-01", 10, 1);
  const second = await buy("2024-02-01", 10, 2);
  return { portfolioId, holdingId: first.holdingId, firstBuyId: first.id, secondBuyId: second.id };
}
