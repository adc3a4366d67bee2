import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * Editing trades: update and delete keep every later sell covered.
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, TRANSPORTS, trade, buy } = tradesApi(t, () => key);

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("update and delete keep every later sell covered", () => {
    async function scenario() {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const s = await trade(p, {
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: "2024-03-01",
        quantity: 8,
        price: 120,
      });
      return { p, h: b.holdingId, b, s };
    }
    const buyInput = (p: number, h: number, extra: Json = {}) => ({
      portfolioId: p,
      holdingId: h,
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
      ...extra,
    });

    it("an update replaces the trade and the holding follows", async () => {
      const { p, h, b } = await scenario();
      const updated = expectOk(
        await tr.updateTrade(
          key,
          b.id,
          buyInput(p, h, { quantity: 12, price: 90, brokerage: "19.95", notes: "corrected" }),
        ),
        200,
      );
      expect(updated).toMatchObject({
        id: b.id,
        holdingId: h,
        quantity: "12",
        price: "90",
        brokerage: "19.95",
        value: "1080",
        notes: "corrected",
      });
      expect(expectOk(await tr.getTrade(key, b.id))).toEqual(updated);
      // 12 units cost 1,099.95; 8 sold, 4 left: 1,099.95 × 4 / 12 = 366.65.
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "4", costBase: "366.65" });
    });

    it("an update (fewer units, or a later date) that would leave a later sell short is 422 and writes nothing", async () => {
      const { p, h, b, s } = await scenario();
      await unchanged(async () => {
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { quantity: 5 })), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { tradeDate: "2024-03-02" })), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { tradeType: "Sell" })), "BUSINESS_RULE");
        expectError(
          await tr.updateTrade(key, s.id, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Sell",
            tradeDate: "2024-03-01",
            quantity: 11,
            price: 120,
          }),
          "BUSINESS_RULE",
        );
      });
    });

    it("a delete that would leave a later sell short is 422 and writes nothing; deleting the sell first works", async () => {
      const { h, b, s } = await scenario();
      await unchanged(async () => expectError(await tr.deleteTrade(key, b.id), "BUSINESS_RULE"));
      expect(expectOk(await tr.deleteTrade(key, s.id), 204)).toBe(true);
      expectAbsent(await tr.getTrade(key, s.id));
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "10", costBase: "1000" });
      expect(expectOk(await tr.deleteTrade(key, b.id))).toBe(true);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "0", costBase: "0" });
      expectError(await tr.deleteTrade(key, b.id), "NOT_FOUND");
    });

    it("an update cannot move a trade to another holding or portfolio (422), and writes nothing", async () => {
      const { p, h, b } = await scenario();
      const nab = await buy(p, "NAB", 10, 30, "2024-01-10");
      const q = await newPortfolio(t, key);
      await unchanged(async () => {
        expectError(
          await tr.updateTrade(key, b.id, {
            portfolioId: p,
            symbol: "NAB",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 10,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
        expectError(await tr.updateTrade(key, b.id, buyInput(p, nab.holdingId)), "BUSINESS_RULE");
        expectError(
          await tr.updateTrade(key, b.id, {
            portfolioId: q,
            symbol: "CBA",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 10,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
        // A ticker not held anywhere would create a holding: refused the same way.
        expectError(
          await tr.updateTrade(key, b.id, {
            portfolioId: p,
            symbol: "WBC",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 10,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
      });
      // The same holding named by symbol (any case) is not a move.
      expect(
        expectOk(
          await tr.updateTrade(key, b.id, {
            portfolioId: p,
            symbol: "cba",
            exchange: "Asx",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 10,
            price: 101,
          }),
        ).price,
      ).toBe("101");
    });

    it("updating or deleting a trade that does not exist is NOT_FOUND", async () => {
      const { p, h } = await scenario();
      expectError(await tr.updateTrade(key, 999999, buyInput(p, h)), "NOT_FOUND");
      expectError(await tr.deleteTrade(key, 999999), "NOT_FOUND");
      expectAbsent(await tr.getTrade(key, 999999));
    });
  });
});
