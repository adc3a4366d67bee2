import { newPortfolio } from "../factories";
import type { TestApp } from "../support/app";
import { importTradesJson } from "../support/kit";
import type { Json } from "../support/outcomes";

/** One imported trade row of an ASX security. */
export const plannerTrade = (
  symbol: string,
  tradeType: "Buy" | "Sell",
  tradeDate: string,
  quantity: number,
  price: number,
) => ({ symbol, exchange: "ASX", tradeType, tradeDate, quantity, price });

/** Market closes of ASX securities on `date` (the planner's asOf unless given), over REST. */
export async function plannerPrices(t: TestApp, key: string, rows: [string, number][], date = "2026-05-15") {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", key)
    .send(rows.map(([symbol, close]) => ({ symbol, exchange: "ASX", date, close })));
  expect(res.status).toBe(200);
}

/**
 * The tax planner's ledger (docs/reports.md §6.1), a portfolio "Planner" (Individual, FIFO) read
 * for FY2026 at asOf 2026-05-15:
 * - AAA: buy 100 @ 10 on 2024-07-01, sell 100 @ 20 on 2025-10-01: a 1,000 long-term gain.
 * - BBB: buy 100 @ 10 on 2025-08-01, sell 50 @ 14 on 2025-11-01: a 200 short-term gain; 50 left
 *   (cost 500), at 12 worth 600: a 100 gain, discountable from 2026-08-02 (79 days).
 * - CCC: buy 100 @ 15 on 2024-03-01 (cost 1,500), at 9 worth 900: a 600 loss; bought again, 10 @ 9
 *   on 2026-05-01 (14 days before asOf: a wash-sale risk), no gain.
 * - DDD: buy 50 @ 20 on 2025-09-01 (cost 1,000), at 36 worth 1,800: an 800 gain, discountable from
 *   2026-09-02 (110 days).
 * Realised to date: 200 short + 1,000 long → 200 + 500 = 700 net; at 37 %: 259.
 * Harvest CCC's parcel: 200 off the short gain, 400 off the long (−200): net 300, reduction 400,
 * taxSaved 148. Wait: DDD 800 → 400 (saves 400, 148), BBB 100 → 50 (saves 50, 18.5).
 * Unrealised: gains 800 + 100 + 0 = 900, losses 600.
 * Returns the portfolio's, the held holdings' and the acquisitions' ids.
 */
export async function plannerLedger(t: TestApp, key: string, overrides: Json = {}) {
  const portfolioId = await newPortfolio(t, key, { name: "Planner", ...overrides });
  const res = await importTradesJson(t, key, portfolioId, [
    plannerTrade("AAA", "Buy", "2024-07-01", 100, 10),
    plannerTrade("AAA", "Sell", "2025-10-01", 100, 20),
    plannerTrade("BBB", "Buy", "2025-08-01", 100, 10),
    plannerTrade("BBB", "Sell", "2025-11-01", 50, 14),
    plannerTrade("CCC", "Buy", "2024-03-01", 100, 15),
    plannerTrade("CCC", "Buy", "2026-05-01", 10, 9),
    plannerTrade("DDD", "Buy", "2025-09-01", 50, 20),
  ]);
  expect(res.status).toBe(201);
  await plannerPrices(t, key, [
    ["BBB", 12],
    ["CCC", 9],
    ["DDD", 36],
  ]);
  const trades = await t.db.sql<{ id: number; symbol: string; holding_id: number; trade_date: Date }>(
    "SELECT t.id, h.symbol, t.holding_id, t.trade_date FROM trade t JOIN holding h ON h.id = t.holding_id WHERE t.portfolio_id = $1 ORDER BY t.id",
    [portfolioId],
  );
  const holding = (symbol: string) => trades.find((r) => r.symbol === symbol)!.holding_id;
  const tradeOf = (symbol: string, date: string) =>
    trades.find((r) => r.symbol === symbol && r.trade_date.toISOString().startsWith(date))!.id;
  return {
    portfolioId,
    bbb: holding("BBB"),
    ccc: holding("CCC"),
    ddd: holding("DDD"),
    cccFirst: tradeOf("CCC", "2024-03-01"),
    cccSecond: tradeOf("CCC", "2026-05-01"),
    dddBuy: tradeOf("DDD", "2025-09-01"),
    bbbBuy: tradeOf("BBB", "2025-08-01"),
  };
}
