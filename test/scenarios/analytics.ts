import { newPortfolio, newTrade, postCreated } from "../factories";
import type { TestApp } from "../support/app";

/**
 * A cash-funded round trip: an AUD cash account syncing trades (settled the same day) gets a
 * 1,000 deposit on 2024-01-01; 50 AAA.ASX are bought @ 10 on 2024-01-02 (500 out of the account)
 * and sold @ 12 on 2024-01-04 (600 back). The deposit is the only external flow: on 2024-01-04
 * the account holds 1,100 and no units are left. Returns the portfolio's and the account's ids.
 */
export async function cashFundedRoundTrip(
  t: TestApp,
  key: string,
  name = "With cash",
): Promise<{ portfolioId: number; cashAccountId: number }> {
  const portfolioId = await newPortfolio(t, key, { name });
  const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId,
    name: "Cash",
    currencyCode: "AUD",
    syncTrades: true,
    settlementDays: 0,
  });
  await postCreated(t, key, "/v1/cash-transactions", {
    cashAccountId: cash.id,
    type: "Deposit",
    date: "2024-01-01",
    amount: 1000,
  });
  const aaa = (tradeType: string, tradeDate: string, price: number) =>
    newTrade(t, key, { portfolioId, symbol: "AAA", exchange: "ASX", tradeType, tradeDate, quantity: 50, price });
  await aaa("Buy", "2024-01-02", 10);
  await aaa("Sell", "2024-01-04", 12);
  return { portfolioId, cashAccountId: cash.id };
}

/**
 * A USD holding: 10 USX.NYSE bought @ USD 100 on 2024-01-02 at 1.5 (AUD 1,500 in), with no
 * market price (so valued at the trade's price). Returns the portfolio, the holding and the trade.
 */
export async function usdHolding(
  t: TestApp,
  key: string,
  name: string,
): Promise<{ portfolioId: number; holdingId: number; tradeId: number }> {
  const portfolioId = await newPortfolio(t, key, { name });
  const buy = await newTrade(t, key, {
    portfolioId,
    symbol: "USX",
    exchange: "NYSE",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 10,
    price: 100,
    currencyCode: "USD",
    exchangeRate: 1.5,
  });
  return { portfolioId, holdingId: buy.holdingId, tradeId: buy.id };
}
