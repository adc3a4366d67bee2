/**
 * The one FX rule (docs/rules.md §8, src/modules/ledger/fx.ts) as a trade without a rate meets it:
 * no look-back window, crosses through a common currency, the last trade in that currency as the
 * fallback, and an update never taking its own old rate.
 */
import { newPortfolio } from "../factories";
import { expectError, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, TRANSPORTS, fxRate } = tradesApi(t, () => key);

describe.each(TRANSPORTS)("the one FX rule over $name", (tr) => {
  const aapl = (p: number, tradeDate: string, extra: Json = {}) => ({
    portfolioId: p,
    symbol: "AAPL",
    exchange: "NASDAQ",
    tradeType: "Buy",
    tradeDate,
    quantity: 5,
    price: 170,
    ...extra,
  });

  it("no 10-day window: a rate 40 days old is the rate", async () => {
    const p = await newPortfolio(t, key);
    await fxRate(p, "USD", "AUD", "2024-02-01", "1.5");
    expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-12"))).exchangeRate).toBe("1.5");
  });

  it("a cross through a common currency counts (USD→EUR 0.9, EUR→AUD 1.6: 1.44)", async () => {
    const p = await newPortfolio(t, key);
    await fxRate(p, "USD", "EUR", "2024-03-01", "0.9");
    await fxRate(p, "EUR", "AUD", "2024-03-04", "1.6");
    expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-12"))).exchangeRate).toBe("1.44");
  });

  it("no imported rate: the portfolio's last USD trade dated on or before is the rate; before it, 422 naming no window", async () => {
    const p = await newPortfolio(t, key);
    expectOk(await tr.createTrade(key, aapl(p, "2024-03-08", { exchangeRate: "1.52" })));
    expectOk(await tr.createTrade(key, aapl(p, "2024-03-10", { exchangeRate: "1.55" })));
    expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-09"))).exchangeRate).toBe("1.52");
    expect(expectOk(await tr.createTrade(key, aapl(p, "2024-06-30"))).exchangeRate).toBe("1.55");
    await unchanged(async () => expectError(await tr.createTrade(key, aapl(p, "2024-03-07")), "BUSINESS_RULE"));
  });

  it("an update without a rate does not take its own old rate", async () => {
    const p = await newPortfolio(t, key);
    const only = expectOk(await tr.createTrade(key, aapl(p, "2024-03-08", { exchangeRate: "1.52" })));
    const res = await t.http
      .put(`/v1/trades/${only.id}`)
      .set("authorization", key)
      .send(aapl(p, "2024-03-09", { holdingId: only.holdingId, symbol: undefined, exchange: undefined }));
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/No exchange rate for USD → AUD on or before 2024-03-09/);
    expect(res.body.detail).not.toMatch(/10 days/);
  });
});
