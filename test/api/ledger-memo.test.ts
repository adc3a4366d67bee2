import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { utcDate } from "../support/kit";

/**
 * Holdings' positions are memoised per process by the ledger's fingerprint (the rows the request
 * read), so a write from anywhere — another API process, a script, a migration — shows on the
 * next read. Here the "other process" writes straight to the database, behind this app's back.
 */
const t = useTestApp({ reset: "none" });

const holdings = async (key: string, portfolioId: number) => {
  const res = await t.http.get(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", key);
  expect(res.status).toBe(200);
  return (res.body as { id: number; quantity: number; costBase: number }[]).map((h) => ({
    quantity: h.quantity,
    costBase: h.costBase,
  }));
};

it("a trade, a method change and a deleted trade written behind the app's back all show on the next read", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "Memo" });
  for (const [tradeDate, price] of [
    ["2024-01-02", 10],
    ["2024-01-03", 20],
  ] as const) {
    await newTrade(t, key, {
      portfolioId,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate,
      quantity: 10,
      price,
    });
  }
  await newTrade(t, key, {
    portfolioId,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: "2024-01-04",
    quantity: 5,
    price: 30,
  });
  // FIFO: 5 of the 10 @ 10 sold → 5 × 10 + 10 × 20 = 250 left.
  expect(await holdings(key, portfolioId)).toEqual([{ quantity: 15, costBase: 250 }]);
  expect(await holdings(key, portfolioId)).toEqual([{ quantity: 15, costBase: 250 }]);

  const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { portfolioId } });
  const written = await t.db.prisma.trade.create({
    data: {
      portfolioId,
      holdingId: holding.id,
      tradeType: "Buy",
      tradeDate: utcDate("2024-01-05"),
      quantity: "2",
      price: "50",
      brokerage: "0",
      currencyCode: "AUD",
      exchangeRate: "1",
    },
  });
  // + 2 × 50.
  expect(await holdings(key, portfolioId)).toEqual([{ quantity: 17, costBase: 350 }]);

  await t.db.prisma.portfolio.update({ where: { id: portfolioId }, data: { defaultMethod: "LIFO" } });
  // LIFO: the sell took 5 of the 10 @ 20 → 10 × 10 + 5 × 20 + 2 × 50 = 300.
  expect(await holdings(key, portfolioId)).toEqual([{ quantity: 17, costBase: 300 }]);

  await t.db.prisma.trade.delete({ where: { id: written.id } });
  expect(await holdings(key, portfolioId)).toEqual([{ quantity: 15, costBase: 200 }]);
});
