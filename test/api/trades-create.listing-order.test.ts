import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectOk } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * A holding's trades are listed oldest first, the same day in entry order, and a same-day sell
 * entered before a buy cannot use its units.
 *
 * Recording trades: the first trade creates the holding, sourceId, what each trade type does, validation, and the order a holding lists its trades (docs/rules.md §1–2).
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
const { unchanged, TRANSPORTS, trade, buy } = tradesApi(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("a holding's trades are listed oldest first; same day in entry order", () => {
    it("orders by trade date, then by entry", async () => {
      const p = await newPortfolio(t, key);
      const t1 = await buy(p, "CBA", 1, 100, "2024-03-01");
      const t2 = await buy(p, "CBA", 2, 100, "2024-01-01");
      const t3 = await buy(p, "CBA", 3, 100, "2024-02-01");
      const t4 = await buy(p, "CBA", 4, 100, "2024-01-01");
      await buy(p, "NAB", 5, 30, "2023-01-01"); // another holding's trade is not listed
      const list = expectOk(await tr.holdingTrades(key, t1.holdingId))!;
      expect(list.map((x) => x.id)).toEqual([t2.id, t4.id, t3.id, t1.id]);
      expect(list[0]).toEqual(expectOk(await tr.getTrade(key, t2.id)));
    });

    it("a same-day sell entered before a buy cannot use that buy's units", async () => {
      const p = await newPortfolio(t, key);
      const b1 = await buy(p, "CBA", 10, 5, "2024-01-01");
      const h = b1.holdingId;
      const sell = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: h,
          tradeType: "Sell",
          tradeDate: "2024-02-01",
          quantity: 10,
          price: 6,
        }),
      );
      const b2 = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: h,
          tradeType: "Buy",
          tradeDate: "2024-02-01",
          quantity: 10,
          price: 7,
        }),
      );
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "10", costBase: "70" });
      expect(expectOk(await tr.holdingTrades(key, h))!.map((x) => x.id)).toEqual([b1.id, sell.id, b2.id]);
      // Had the same-day buy come first, 20 units would be there to sell.
      await unchanged(async () => {
        expectError(
          await tr.updateTrade(key, sell.id, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Sell",
            tradeDate: "2024-02-01",
            quantity: 20,
            price: 6,
          }),
          "BUSINESS_RULE",
        );
      });
      // A later same-day sell may use them.
      expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: h,
          tradeType: "Sell",
          tradeDate: "2024-02-01",
          quantity: 10,
          price: 6,
        }),
      );
      expect(expectOk(await tr.getHolding(key, h))!.quantity).toBe("0");
    });

    it("an unknown or foreign holding lists nothing (REST 404, GraphQL null)", async () => {
      const other = await t.newAccount();
      const foreign = await buy(await newPortfolio(t, other), "CBA", 1, 100, "2024-01-01", {}, other);
      expectAbsent(await tr.holdingTrades(key, foreign.holdingId));
      expectAbsent(await tr.holdingTrades(key, 999999));
    });
  });
});
