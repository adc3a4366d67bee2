import { incomeForecast } from "../../src/modules/planning/income-forecast.service";
import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { importTradesJson, serviceContext, writeAfterFirstLedgerRead } from "../support/kit";

/**
 * The income forecast reads the ledger, the income, the rates and the prices in statements of
 * their own, as of one moment (docs/reports.md §0, §6.2), like the tax reports
 * (tax-one-moment.test.ts): a write landing among them has them read again.
 *
 * CCC: 100 bought at 10 on 2025-06-02; a dividend of 50 ex 2025-08-20 (0.50 a unit) repeats as
 * 50 from 2026-07-01. Close 11 on 2026-06-30, then 14 written while the forecast reads: market
 * value 1,400 (1,100 before the write), yield 50 ÷ 1,400 × 100.
 */
const t = useTestApp({ reset: "none" });

it("a price written while the forecast reads has it read again, at the new price", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "Forecast moment" });
  const imported = await importTradesJson(t, key, portfolioId, [
    { symbol: "CCC", exchange: "ASX", tradeType: "Buy", tradeDate: "2025-06-02", quantity: 100, price: 10 },
  ]);
  expect(imported.status).toBe(201);
  const holdingId = (await t.http.get(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", key)).body[0]
    .id as number;
  await postCreated(t, key, "/v1/income", {
    holdingId,
    exDividendDate: "2025-08-20",
    paidDate: "2025-09-25",
    unfrankedAmount: 50,
  });
  const price = (close: number) =>
    t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .send([{ symbol: "CCC", exchange: "ASX", date: "2026-06-30", close }]);
  expect((await price(11)).status).toBeLessThan(300);
  const { db, reads: seen } = writeAfterFirstLedgerRead(t.db.prisma, async () =>
    expect((await price(14)).status).toBeLessThan(300),
  );
  const ctx = await serviceContext(t, key, db);
  const forecast = await incomeForecast(ctx, portfolioId, { from: "2026-07-01" });
  expect(forecast.marketValue.toFixed()).toBe("1400");
  expect(forecast.total.cash.toFixed()).toBe("50");
  expect(forecast.yieldPercent).toBeCloseTo((50 / 1400) * 100, 12);
  // Read twice; each read folds the ledger twice (the units' timeline, the valuation's).
  expect(seen.count).toBe(4);
});
