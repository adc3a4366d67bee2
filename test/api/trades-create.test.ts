import { newPortfolio } from "../support/kit";
import { expectAbsent, expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { t, unchanged, key, TRANSPORTS, trade, buy, search } from "./trades.shared";

/**
 * Recording trades: the first trade creates the holding, sourceId, what each trade type does, validation, and the order a holding lists its trades (API.md "Trades").
 * (Split from trades.test.ts by story; the suite's app, transports and helpers are in ./trades.shared.ts,
 * which registers the app's lifecycle hooks in this file when imported.)
 */

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

  describe("sourceId must be a Source id (GET /v1/sources)", () => {
    it("keeps a Source id and answers it back", async () => {
      const sources = (await t.http.get("/v1/sources").set("authorization", key)).body as {
        id: string;
        name: string;
      }[];
      const commsec = sources.find((s) => s.name === "CommSec")!;
      const p = await newPortfolio(t, key);
      const created = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "CBA",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 100,
          sourceId: commsec.id,
        }),
      );
      expect(created.sourceId).toBe(commsec.id);
      expect(expectOk(await tr.getTrade(key, created.id))!.sourceId).toBe(commsec.id);
    });

    it.each([
      ["a UUID that is no Source", "00000000-0000-4000-8000-000000000000"],
      ["a Source name instead of its id", "CommSec"],
      ["text that is no UUID", "not-a-uuid"],
    ])("rejects %s with VALIDATION_FAILED on sourceId, writing nothing", async (_label, sourceId) => {
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
            sourceId,
          }),
          ["sourceId"],
        );
      });
    });
  });

  describe("every trade type changes units and cost base as DOMAIN.md §1 says", () => {
    // Each starts from one parcel: 100 units bought at 10 with 10 brokerage (cost base 1,010).
    const CASES: [string, Json, { quantity: string; costBase: string; tradeQuantity: string }][] = [
      [
        "Buy adds a parcel (units × price + brokerage)",
        { tradeType: "Buy", quantity: 50, price: 12, brokerage: 5 },
        { quantity: "150", costBase: "1615", tradeQuantity: "50" },
      ],
      [
        "Sell removes units and their share of the cost base",
        { tradeType: "Sell", quantity: 40, price: 12, brokerage: 10 },
        { quantity: "60", costBase: "606", tradeQuantity: "-40" },
      ],
      [
        "Split adds the units gained; the cost base stays",
        { tradeType: "Split", quantity: 100 },
        { quantity: "200", costBase: "1010", tradeQuantity: "100" },
      ],
      [
        "Consolidation removes the units lost; the cost base stays",
        { tradeType: "Consolidation", quantity: 50 },
        { quantity: "50", costBase: "1010", tradeQuantity: "-50" },
      ],
      [
        "Bonus adds units at no cost",
        { tradeType: "Bonus", quantity: 25 },
        { quantity: "125", costBase: "1010", tradeQuantity: "25" },
      ],
      [
        "ReturnOfCapital lowers the cost base by units × amount",
        { tradeType: "ReturnOfCapital", quantity: 100, price: "0.5" },
        { quantity: "100", costBase: "960", tradeQuantity: "100" },
      ],
      [
        "CostBaseIncrease raises the cost base",
        { tradeType: "CostBaseIncrease", quantity: 100, price: "0.2" },
        { quantity: "100", costBase: "1030", tradeQuantity: "100" },
      ],
      [
        "CostBaseDecrease lowers the cost base",
        { tradeType: "CostBaseDecrease", quantity: 100, price: "0.1" },
        { quantity: "100", costBase: "1000", tradeQuantity: "100" },
      ],
      [
        "OpeningBalance adds a parcel",
        { tradeType: "OpeningBalance", quantity: 20, price: 8, acquisitionDate: "2020-05-01" },
        { quantity: "120", costBase: "1170", tradeQuantity: "20" },
      ],
      [
        "Cancellation disposes of every unit for nothing (quantity may be absent)",
        { tradeType: "Cancellation" },
        { quantity: "0", costBase: "0", tradeQuantity: "-100" },
      ],
      [
        "TransferIn adds a parcel",
        { tradeType: "TransferIn", quantity: 20, price: 9 },
        { quantity: "120", costBase: "1190", tradeQuantity: "20" },
      ],
      [
        "TransferOut removes units and their cost base",
        { tradeType: "TransferOut", quantity: 30 },
        { quantity: "70", costBase: "707", tradeQuantity: "-30" },
      ],
    ];

    it.each(CASES)("%s", async (_label, input, expected) => {
      const p = await newPortfolio(t, key);
      const first = await buy(p, "CBA", 100, 10, "2024-01-10", { brokerage: 10 });
      const created = expectOk(
        await tr.createTrade(key, { portfolioId: p, holdingId: first.holdingId, tradeDate: "2024-02-01", ...input }),
        201,
      );
      expect(created).toMatchObject({
        tradeType: input.tradeType,
        tradeDate: "2024-02-01",
        quantity: expected.tradeQuantity,
        holdingId: first.holdingId,
      });
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({
        quantity: expected.quantity,
        costBase: expected.costBase,
      });
      expect(expectOk(await tr.getTrade(key, created.id))).toEqual(created);
    });

    it("a sell may give its quantity negative; it means the same", async () => {
      const p = await newPortfolio(t, key);
      const first = await buy(p, "CBA", 100, 10, "2024-01-10");
      const sold = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: first.holdingId,
          tradeType: "Sell",
          tradeDate: "2024-02-01",
          quantity: -40,
          price: 12,
        }),
      );
      expect(sold.quantity).toBe("-40");
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "60", costBase: "600" });
    });
  });

  describe("validation: VALIDATION_FAILED naming the bad path, nothing written", () => {
    const VALID: Json = {
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    };
    const BAD: [string, Json, string[]][] = [
      ["a date that is not on the calendar (2024-02-30)", { tradeDate: "2024-02-30" }, ["tradeDate"]],
      // A string that is not YYYY-MM-DD, or has month 13, must be a 400 too, not a 500 (src/lib/dates.ts).
      ["a date in another format (10/01/2024)", { tradeDate: "10/01/2024" }, ["tradeDate"]],
      ["a date with month 13 (2024-13-01)", { tradeDate: "2024-13-01" }, ["tradeDate"]],
      ["a date that is not a date at all", { tradeDate: "yesterday" }, ["tradeDate"]],
      ["zero quantity for a Buy", { quantity: 0 }, ["quantity"]],
      ["a negative quantity for a Buy", { quantity: -5 }, ["quantity"]],
      ["a Buy without quantity", { quantity: undefined }, ["quantity"]],
      ["a Buy without price", { price: undefined }, ["price"]],
      ["a negative price", { price: -1 }, ["price"]],
      ["a price on a Split", { tradeType: "Split", price: 5 }, ["price"]],
      ["brokerage on a Bonus", { tradeType: "Bonus", price: undefined, brokerage: 10 }, ["brokerage"]],
      ["a ReturnOfCapital without an amount per unit", { tradeType: "ReturnOfCapital", price: 0 }, ["price"]],
      ["parcels on a Buy", { parcels: [{ tradeId: 1, quantity: 1 }] }, ["parcels"]],
      [
        "an acquisitionDate after the tradeDate",
        { tradeType: "OpeningBalance", acquisitionDate: "2024-02-01" },
        ["acquisitionDate"],
      ],
      ["an acquisitionDate on a Buy", { acquisitionDate: "2024-01-01" }, ["acquisitionDate"]],
      ["neither symbol nor holdingId", { symbol: undefined, exchange: undefined }, ["symbol"]],
      ["a symbol without its exchange", { exchange: undefined }, ["symbol"]],
      ["a symbol with a space", { symbol: "C BA" }, ["symbol"]],
      ["more than 8 decimals in quantity", { quantity: "1.123456789" }, ["quantity"]],
      ["more than 8 decimals in price", { price: "0.123456789" }, ["price"]],
      ["more than 4 decimals in brokerage", { brokerage: "9.12345" }, ["brokerage"]],
      ["exponent notation in quantity", { quantity: "1e3" }, ["quantity"]],
      ['a currency code that is not ISO 4217 ("usd")', { currencyCode: "usd" }, ["currencyCode"]],
      ["notes with a NUL character", { notes: "a\u0000b" }, ["notes"]],
      [
        "several bad fields at once",
        { tradeDate: "2024-02-30", price: "0.123456789", brokerage: "1.12345", currencyCode: "usd" },
        ["tradeDate", "price", "brokerage", "currencyCode"],
      ],
    ];

    it.each(BAD)("rejects %s", async (_label, change, paths) => {
      const p = await newPortfolio(t, key);
      await unchanged(async () =>
        expectInvalid(await tr.createTrade(key, { portfolioId: p, ...VALID, ...change }), paths),
      );
    });

    it("rejects the same input on update, leaving the trade as it was", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await unchanged(async () => {
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, tradeDate: "2024-02-30" }), [
          "tradeDate",
        ]);
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, quantity: "1.123456789" }), [
          "quantity",
        ]);
      });
    });

    it("rejects an unknown tradeType (GraphQL: the enum refuses it)", async () => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => {
        const o = await tr.createTrade(key, { portfolioId: p, ...VALID, tradeType: "Purchase" });
        if (tr.name === "REST") expectInvalid(o, ["tradeType"]);
        else {
          expect(o.ok).toBe(false);
          if (!o.ok) expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
          expect(o.raw).toContain("tradeType");
        }
      });
    });

    it("accepts exactly 8 decimals in quantity and price, and decimal strings", async () => {
      const p = await newPortfolio(t, key);
      const created = expectOk(
        await tr.createTrade(key, { portfolioId: p, ...VALID, quantity: "1.12345678", price: "0.00000001" }),
      );
      expect(created).toMatchObject({ quantity: "1.12345678", price: "0.00000001" });
    });

    it("rejects a portfolio that does not exist with NOT_FOUND", async () => {
      await unchanged(async () =>
        expectError(await tr.createTrade(key, { portfolioId: 999999, ...VALID }), "NOT_FOUND"),
      );
    });
  });

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
