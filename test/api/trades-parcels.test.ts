import { newPortfolio } from "../factories";
import { navexaParcels } from "../scenarios/navexa-worked-example";
import { expectError, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * Parcels: FIFO by default, manual parcels on a sell, and a sell beyond the units held.
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, count, TRANSPORTS, trade, buy } = tradesApi(t, () => key);

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("FIFO by default, and the trade as GET /v1/trades/{t} shows it", () => {
    it("Navexa's example: buy 10 @ 1, buy 10 @ 2, sell 7 @ 3 leaves 13 units with cost base 23", async () => {
      const { portfolioId: p, holdingId } = await navexaParcels(t, key);
      const sell = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "CBA",
          exchange: "ASX",
          tradeType: "Sell",
          tradeDate: "2024-03-01",
          quantity: 7,
          price: 3,
          notes: "Navexa",
        }),
        201,
      );
      expect(sell).toEqual({
        id: expect.any(Number),
        holdingId,
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: "2024-03-01",
        quantity: "-7",
        price: "3",
        brokerage: "0",
        value: "21",
        currencyCode: "AUD",
        exchangeRate: "1",
        sourceId: null,
        notes: "Navexa",
        acquisitionDate: null,
        parcels: [],
        hasAttachment: false,
      });
      expect(expectOk(await tr.getTrade(key, sell.id))).toEqual(sell);
      expect(expectOk(await tr.getHolding(key, holdingId))).toMatchObject({ quantity: "13", costBase: "23" });
    });

    it("value is |quantity| × price in the trade currency, brokerage apart", async () => {
      const p = await newPortfolio(t, key);
      const b = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "CBA",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-01",
          quantity: "3.5",
          price: "152.39",
          brokerage: "9.95",
        }),
      );
      expect(b).toMatchObject({ quantity: "3.5", price: "152.39", brokerage: "9.95", value: "533.365" });
      expect(expectOk(await tr.getHolding(key, b.holdingId))!.costBase).toBe("543.315");
    });
  });

  describe("manual parcels on a sell override the method", () => {
    async function navexa() {
      const s = await navexaParcels(t, key);
      return { p: s.portfolioId, h: s.holdingId, b1: { id: s.firstBuyId }, b2: { id: s.secondBuyId } };
    }
    const sell7 = (p: number, h: number, parcels: unknown, extra: Json = {}) => ({
      portfolioId: p,
      holdingId: h,
      tradeType: "Sell",
      tradeDate: "2024-03-01",
      quantity: 7,
      price: 3,
      parcels,
      ...extra,
    });

    it("selling 7 from the $2 parcel leaves 10 @ 1 and 3 @ 2 (cost base 16), and the pick is recorded", async () => {
      const { p, h, b2 } = await navexa();
      const sell = expectOk(await tr.createTrade(key, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }])), 201);
      expect(sell.parcels).toEqual([{ tradeId: b2.id, quantity: "7" }]);
      expect(expectOk(await tr.getTrade(key, sell.id))!.parcels).toEqual([{ tradeId: b2.id, quantity: "7" }]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "16" });
    });

    it("picks across parcels: 3 from the first and 4 from the second leave cost base 19", async () => {
      const { p, h, b1, b2 } = await navexa();
      const sell = expectOk(
        await tr.createTrade(
          key,
          sell7(p, h, [
            { tradeId: b1.id, quantity: 3 },
            { tradeId: b2.id, quantity: 4 },
          ]),
        ),
      );
      expect(sell.parcels).toEqual([
        { tradeId: b1.id, quantity: "3" },
        { tradeId: b2.id, quantity: "4" },
      ]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "19" });
    });

    it("updating the sell's picks changes which parcels remain", async () => {
      const { p, h, b1, b2 } = await navexa();
      const sell = expectOk(await tr.createTrade(key, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }])));
      const updated = expectOk(await tr.updateTrade(key, sell.id, sell7(p, h, [{ tradeId: b1.id, quantity: 7 }])));
      expect(updated.parcels).toEqual([{ tradeId: b1.id, quantity: "7" }]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "23" });
      // Without picks the sell goes back to FIFO (the same parcels here).
      expect(expectOk(await tr.updateTrade(key, sell.id, sell7(p, h, undefined))).parcels).toEqual([]);
    });

    it("a bad pick is refused with 422 BUSINESS_RULE and nothing is written", async () => {
      const { p, h, b1, b2 } = await navexa();
      const nab = await buy(p, "NAB", 10, 30, "2024-01-01");
      const later = await buy(p, "CBA", 10, 5, "2024-04-01");
      await unchanged(async () => {
        for (const picks of [
          [{ tradeId: b1.id, quantity: 5 }], // 5 picked for a sell of 7
          [
            { tradeId: b1.id, quantity: 5 },
            { tradeId: b2.id, quantity: 5 },
          ], // 10 picked for 7
          [{ tradeId: nab.id, quantity: 7 }], // another holding's parcel
          [{ tradeId: later.id, quantity: 7 }], // a parcel bought after the sell
          [{ tradeId: 999999, quantity: 7 }], // no such trade
          [
            { tradeId: b1.id, quantity: 0 },
            { tradeId: b2.id, quantity: 7 },
          ], // a pick of nothing
        ]) {
          expectError(await tr.createTrade(key, sell7(p, h, picks)), "BUSINESS_RULE");
        }
        // More units than the parcel holds (the total matches the sell).
        expectError(
          await tr.createTrade(key, sell7(p, h, [{ tradeId: b1.id, quantity: 11 }], { quantity: 11 })),
          "BUSINESS_RULE",
        );
      });
    });

    it("a picked buy cannot be deleted or shrunk below its pick (422)", async () => {
      const { p, h, b2 } = await navexa();
      await trade(p, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }]));
      await unchanged(async () => {
        expectError(await tr.deleteTrade(key, b2.id), "BUSINESS_RULE");
        expectError(
          await tr.updateTrade(key, b2.id, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Buy",
            tradeDate: "2024-02-01",
            quantity: 5,
            price: 2,
          }),
          "BUSINESS_RULE",
        );
      });
    });
  });

  describe("a sell beyond the units held", () => {
    it("is 422 BUSINESS_RULE and writes nothing; units bought after the sell's date do not count", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await buy(p, "CBA", 10, 100, "2024-03-01");
      const h = b.holdingId;
      await unchanged(async () => {
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Sell",
            tradeDate: "2024-02-01",
            quantity: 11,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Sell",
            tradeDate: "2024-01-09",
            quantity: 1,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Sell",
            tradeDate: "2024-03-01",
            quantity: 21,
            price: 100,
          }),
          "BUSINESS_RULE",
        );
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "TransferOut",
            tradeDate: "2024-03-02",
            quantity: 21,
          }),
          "BUSINESS_RULE",
        );
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "Consolidation",
            tradeDate: "2024-03-02",
            quantity: 20,
          }),
          "BUSINESS_RULE",
        );
        // A capital return on more units than are held (20): no cost base change, no gain.
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: h,
            tradeType: "ReturnOfCapital",
            tradeDate: "2024-03-02",
            quantity: 3000,
            price: 1,
          }),
          "BUSINESS_RULE",
        );
      });
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "20", costBase: "2000" });
      // Exactly the units held is fine.
      expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: h,
          tradeType: "Sell",
          tradeDate: "2024-03-02",
          quantity: 20,
          price: 100,
        }),
      );
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "0", costBase: "0" });
    });

    it("selling a symbol never held is 422 and creates no holding", async () => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => {
        expectError(
          await tr.createTrade(key, {
            portfolioId: p,
            symbol: "WBC",
            exchange: "ASX",
            tradeType: "Sell",
            tradeDate: "2024-02-01",
            quantity: 1,
            price: 30,
          }),
          "BUSINESS_RULE",
        );
      });
      expect(expectOk(await tr.listHoldings(key, p))).toEqual([]);
    });
  });
});
