import { newPortfolio } from "../factories";
import { expectError, expectOk } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * The first trade creates its holding from the security master (or a security of the account's own);
 * a later trade may name the holding alone.
 *
 * Recording trades: the first trade creates the holding, sourceId, what each trade type does, validation, and the order a holding lists its trades (docs/rules.md §1–2).
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
const { unchanged, TRANSPORTS, trade, buy, search } = tradesApi(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("the first trade creates the holding from the security master", () => {
    it("symbol and exchange are case-insensitive; CBA.ASX is Commonwealth Bank of Australia, AUD, Stock", async () => {
      const p = await newPortfolio(t, key);
      const first = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "cba",
          exchange: "asx",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 10,
          price: 100,
        }),
        201,
      );
      expect(first).toMatchObject({
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        currencyCode: "AUD",
        exchangeRate: "1",
      });
      const h = expectOk(await tr.getHolding(key, first.holdingId));
      expect(h).toEqual({
        id: first.holdingId,
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        name: "Commonwealth Bank of Australia",
        currencyCode: "AUD",
        holdingType: "Stock",
        quantity: "10",
        costBase: "1000",
        marketValue: "1000",
        unrealisedGain: "0",
      });

      // Any spelling of the same ticker is the same holding.
      const second = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "Cba",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-11",
          quantity: 5,
          price: 110,
        }),
      );
      expect(second.holdingId).toBe(first.holdingId);
      expect(expectOk(await tr.listHoldings(key, p))!.map((x) => x.id)).toEqual([first.holdingId]);
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "15", costBase: "1550" });
    });

    it("takes type and currency from the master list: VAS.ASX is an Etf, AAPL.NASDAQ a USD Stock", async () => {
      const p = await newPortfolio(t, key);
      const vas = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "VAS",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 10,
          price: 95,
        }),
      );
      expect(expectOk(await tr.getHolding(key, vas.holdingId))).toMatchObject({
        name: "Vanguard Australian Shares Index ETF",
        holdingType: "Etf",
        currencyCode: "AUD",
      });
      const aapl = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "aapl",
          exchange: "nasdaq",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 5,
          price: 170,
          exchangeRate: "1.52",
        }),
      );
      expect(aapl).toMatchObject({ symbol: "AAPL", exchange: "NASDAQ", currencyCode: "USD", exchangeRate: "1.52" });
      expect(expectOk(await tr.getHolding(key, aapl.holdingId))).toMatchObject({
        name: "Apple Inc.",
        holdingType: "Stock",
        currencyCode: "USD",
      });
    });

    it("an unknown symbol creates a security of this account only, found by its search and no one else's", async () => {
      const p = await newPortfolio(t, key);
      const zz = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "ZZQX",
          exchange: "ASX",
          name: "Zed Quux Resources",
          holdingType: "Etf",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 100,
          price: "0.25",
        }),
      );
      expect(expectOk(await tr.getHolding(key, zz.holdingId))).toMatchObject({
        symbol: "ZZQX",
        exchange: "ASX",
        name: "Zed Quux Resources",
        holdingType: "Etf",
        currencyCode: "AUD",
        costBase: "25",
      });
      // Without a name the ticker is the name; the exchange gives the currency; the type is Stock.
      const bare = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "QQZY",
          exchange: "NYSE",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 10,
          exchangeRate: "1.5",
        }),
      );
      expect(expectOk(await tr.getHolding(key, bare.holdingId))).toMatchObject({
        name: "QQZY",
        holdingType: "Stock",
        currencyCode: "USD",
        costBase: "15",
      });

      const mine = await search(key, "ZZQX");
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual([
        { symbol: "ZZQX", exchange: "ASX", name: "Zed Quux Resources", currencyCode: "AUD", securityType: "Etf" },
      ]);
      expect((await search(key, "quux")).body).toEqual(mine.body);

      const other = await t.newAccount();
      expect((await search(other, "ZZQX")).body).toEqual([]);
      expect((await search(other, "QQZY")).body).toEqual([]);
      // The other account's own first trade makes its own security, with its own name.
      const op = await newPortfolio(t, other);
      await trade(
        op,
        {
          symbol: "ZZQX",
          exchange: "ASX",
          name: "Another name",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 1,
        },
        other,
      );
      expect((await search(other, "ZZQX")).body).toEqual([
        { symbol: "ZZQX", exchange: "ASX", name: "Another name", currencyCode: "AUD", securityType: "Stock" },
      ]);
      expect((await search(key, "ZZQX")).body).toEqual(mine.body);
    });

    it("a later trade may name its holding by holdingId alone", async () => {
      const p = await newPortfolio(t, key);
      const first = await buy(p, "NAB", 10, 30, "2024-01-10");
      const second = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: first.holdingId,
          tradeType: "Buy",
          tradeDate: "2024-02-10",
          quantity: 10,
          price: 32,
        }),
        201,
      );
      expect(second).toMatchObject({ holdingId: first.holdingId, symbol: "NAB", exchange: "ASX" });
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "20", costBase: "620" });
    });

    it("a holdingId of another portfolio (or another account) is NOT_FOUND and nothing is written", async () => {
      const p = await newPortfolio(t, key);
      const q = await newPortfolio(t, key);
      const elsewhere = await buy(q, "NAB", 10, 30, "2024-01-10");
      const other = await t.newAccount();
      const foreign = await buy(await newPortfolio(t, other), "CBA", 10, 100, "2024-01-10", {}, other);
      await unchanged(async () => {
        for (const holdingId of [elsewhere.holdingId, foreign.holdingId, 999999]) {
          expectError(
            await tr.createTrade(key, {
              portfolioId: p,
              holdingId,
              tradeType: "Buy",
              tradeDate: "2024-02-10",
              quantity: 1,
              price: 1,
            }),
            "NOT_FOUND",
          );
        }
      });
    });
  });
});
