import { taxPlanner } from "../../src/modules/planning/tax-planner.service";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { importTradesJson, serviceContext, writeAfterFirstLedgerRead } from "../support/kit";

/**
 * The tax planner reads the portfolio, its ledger, its prices and rates in statements of their
 * own, as of one moment (docs/reports.md §0, §6.1), like the tax reports (tax-one-moment.test.ts):
 * a write landing among them has them read again.
 *
 * CCC: 100 bought at 10 on 2025-06-02 (cost base 1,000). Close 8 on 2026-05-15: a loss of 200;
 * then 7 written while the planner reads: market value 700, a loss of 300. No gain realised in
 * FY2026, so the whole loss carries forward: reduction 0 either way.
 */
const t = useTestApp({ reset: "none" });

it("a price written while the planner reads has it read again, at the new price", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "Planner moment" });
  const imported = await importTradesJson(t, key, portfolioId, [
    { symbol: "CCC", exchange: "ASX", tradeType: "Buy", tradeDate: "2025-06-02", quantity: 100, price: 10 },
  ]);
  expect(imported.status).toBe(201);
  const price = (close: number) =>
    t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .send([{ symbol: "CCC", exchange: "ASX", date: "2026-05-15", close }]);
  expect((await price(8)).status).toBeLessThan(300);
  const { db, reads: seen } = writeAfterFirstLedgerRead(t.db.prisma, async () =>
    expect((await price(7)).status).toBeLessThan(300),
  );
  const ctx = await serviceContext(t, key, db);
  const plan = await taxPlanner(ctx, portfolioId, { financialYear: 2026, asOf: "2026-05-15" });
  expect(plan.harvest.map((h) => [h.marketValue.toFixed(), h.unrealisedLoss.toFixed()])).toEqual([["700", "300"]]);
  expect(plan.unrealised.losses.toFixed()).toBe("300");
  expect(plan.harvest[0].netCapitalGainReduction.toFixed()).toBe("0");
  // Read twice (the first met the write and was thrown away); each read pages the ledger twice
  // (the tax book's fold, the valuation's). Once read, it would be 2.
  expect(seen.count).toBe(4);
});
