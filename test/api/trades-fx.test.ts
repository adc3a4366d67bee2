import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * Foreign-currency trades carry an exchange rate into the base currency.
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, count, TRANSPORTS, trade, fxRate } = tradesApi(t, () => key);

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("foreign-currency trades carry an exchange rate into the base currency", () => {
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

    it("without exchangeRate and without an FX rate: 422 BUSINESS_RULE, no holding created", async () => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => expectError(await tr.createTrade(key, aapl(p, "2024-03-08")), "BUSINESS_RULE"));
      expect(await count("holding")).toBe(0);
    });

    it("with exchangeRate given: 5 @ 170 USD at 1.52 is a cost base of 1,292 AUD", async () => {
      const p = await newPortfolio(t, key);
      const created = expectOk(await tr.createTrade(key, aapl(p, "2024-03-08", { exchangeRate: "1.52" })));
      expect(created).toMatchObject({ currencyCode: "USD", exchangeRate: "1.52", value: "850" });
      expect(expectOk(await tr.getHolding(key, created.holdingId))).toMatchObject({
        currencyCode: "USD",
        quantity: "5",
        costBase: "1292",
      });
    });

    it("uses the FX table's latest rate on or before the trade date, whatever its age (DOMAIN §3)", async () => {
      const p = await newPortfolio(t, key);
      await fxRate(p, "USD", "AUD", "2024-03-08", "1.5");
      await fxRate(p, "USD", "AUD", "2024-04-20", "1.7"); // after every trade below: never used
      for (const [date, rate, costBase] of [
        ["2024-03-08", "1.5", "1275"],
        ["2024-03-10", "1.5", "1275"], // a Sunday: Friday's rate
        ["2024-03-18", "1.5", "1275"], // 10 days later
        ["2024-04-19", "1.5", "1275"], // six weeks later: no window any more
      ] as const) {
        const q = await newPortfolio(t, key);
        // Each portfolio of the account sees the account's rates.
        const created = expectOk(await tr.createTrade(key, aapl(q, date)));
        expect({ date, rate: created.exchangeRate }).toEqual({ date, rate });
        expect(expectOk(await tr.getHolding(key, created.holdingId))!.costBase).toBe(costBase);
      }
      await unchanged(async () => {
        expectError(await tr.createTrade(key, aapl(p, "2024-03-07")), "BUSINESS_RULE"); // before any rate
      });
    });

    it("takes the latest rate when several are in reach", async () => {
      const p = await newPortfolio(t, key);
      await fxRate(p, "USD", "AUD", "2024-03-08", "1.5");
      await fxRate(p, "USD", "AUD", "2024-03-12", "1.6");
      expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-11"))).exchangeRate).toBe("1.5");
      expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-12"))).exchangeRate).toBe("1.6");
      const last = expectOk(await tr.createTrade(key, aapl(p, "2024-03-20")));
      expect(last.exchangeRate).toBe("1.6");
      // 5 × 170 × (1.5 + 1.6 + 1.6) = 3,995.
      expect(expectOk(await tr.getHolding(key, last.holdingId))).toMatchObject({ quantity: "15", costBase: "3995" });
    });

    it("uses the inverse AUD→USD rate too (0.625 AUD→USD is 1.6 USD→AUD)", async () => {
      const p = await newPortfolio(t, key);
      await fxRate(p, "AUD", "USD", "2024-03-08", "0.625");
      const created = expectOk(await tr.createTrade(key, aapl(p, "2024-03-11")));
      expect(created.exchangeRate).toBe("1.6");
      expect(expectOk(await tr.getHolding(key, created.holdingId))!.costBase).toBe("1360");
    });

    it("another account's FX rates are not used", async () => {
      const other = await t.newAccount();
      await fxRate(await newPortfolio(t, other), "USD", "AUD", "2024-03-08", "1.5");
      const p = await newPortfolio(t, key);
      await unchanged(async () => expectError(await tr.createTrade(key, aapl(p, "2024-03-08")), "BUSINESS_RULE"));
    });

    it("a base-currency trade with exchangeRate other than 1 is VALIDATION_FAILED on exchangeRate; 1 is accepted", async () => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => {
        expectInvalid(
          await tr.createTrade(key, {
            portfolioId: p,
            symbol: "CBA",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 1,
            price: 100,
            exchangeRate: "1.1",
          }),
          ["exchangeRate"],
        );
      });
      expect(
        expectOk(
          await tr.createTrade(key, {
            portfolioId: p,
            symbol: "CBA",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 1,
            price: 100,
            exchangeRate: 1,
          }),
        ).exchangeRate,
      ).toBe("1");
    });
  });
});
