import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectInvalidInOrder, expectOk } from "../support/outcomes";
import { auth, pricesApi } from "./prices.transports";

/**
 * Market prices and exchange rates: upsert and list.
 * (Split from prices.test.ts by story; the transports and setup functions are in ./prices.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, newPortfolio, rest, graphql } = pricesApi(t);

describe.each([rest, graphql])("prices over $name", (tr) => {
  describe("market prices", () => {
    it("upserts per symbol, exchange and date, upper-casing codes, and lists one security oldest first", async () => {
      const o = await tr.upsertMarket(key, [
        { symbol: "cba", exchange: "asx", date: "2024-01-03", close: "101.5" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 },
        { symbol: "BHP", exchange: "ASX", date: "2024-01-02", close: "45.12345678" },
      ]);
      expect(expectOk(o)).toBe(3);
      // No holding of the account has either security: stored, and counted.
      if (tr.name === "REST")
        expect(o.res.body).toEqual({
          upserted: 3,
          unheld: 2,
          unheldSecurities: [
            { symbol: "BHP", exchange: "ASX" },
            { symbol: "CBA", exchange: "ASX" },
          ],
        });
      expect(expectOk(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))).toEqual([
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: "100", source: "Account" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "101.5", source: "Account" },
      ]);
      // Replaces the close of an existing day and adds a new one.
      expect(
        expectOk(
          await tr.upsertMarket(key, [
            { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "99" },
            { symbol: "CBA", exchange: "ASX", date: "2024-01-04", close: 98 },
          ]),
        ),
      ).toBe(2);
      expect(expectOk(await tr.listMarket(key, { symbol: "cba", exchange: "asx", from: "2024-01-03" }))).toEqual([
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "99", source: "Account" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-04", close: "98", source: "Account" },
      ]);
      expect(
        expectOk(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-01-02", to: "2024-01-02" })),
      ).toHaveLength(1);
      expect(expectOk(await tr.listMarket(key, { symbol: "BHP", exchange: "ASX" }))).toEqual([
        { symbol: "BHP", exchange: "ASX", date: "2024-01-02", close: "45.12345678", source: "Account" },
      ]);
      expect(expectOk(await tr.listMarket(key, { symbol: "WBC", exchange: "ASX" }))).toEqual([]);
      expect(await count("market_price")).toBe(4);
    });

    it("refuses bad rows (400 naming line N.field, N the row's position + 1), writing none", async () => {
      await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.upsertMarket(key, [
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 200 },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: -1 },
        { symbol: "C B A", exchange: "ASX", date: "2024-01-04", close: 1 },
        { symbol: "CBA", exchange: "ASX", date: "2024-02-30", close: "1.123456789" },
      ]);
      expectInvalidInOrder(o, ["line 2.close", "line 3.symbol", "line 4.date", "line 4.close"]);
      expectInvalidInOrder(await tr.upsertMarket(key, []), ["(body)"]);
      // The same day twice: which close should win is unclear.
      expectInvalidInOrder(
        await tr.upsertMarket(key, [
          { symbol: "CBA", exchange: "ASX", date: "2024-01-05", close: 1 },
          { symbol: "cba", exchange: "ASX", date: "2024-01-05", close: 2 },
        ]),
        ["line 2.date"],
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("needs symbol and exchange to list, and a range in order", async () => {
      if (tr.name === "REST") {
        expectInvalidInOrder(await tr.listMarket(key, { symbol: "CBA" }), ["exchange"]);
        expectInvalidInOrder(await tr.listMarket(key, {}), ["symbol", "exchange"]);
      }
      expectInvalidInOrder(
        await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-02-01", to: "2024-01-01" }),
        ["to"],
      );
      expectInvalidInOrder(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-13-01" }), ["from"]);
    });
  });

  describe("exchange rates", () => {
    it("upserts per base, quote and date and lists one pair oldest first", async () => {
      expect(
        expectOk(
          await tr.upsertFx(key, [
            { base: "USD", quote: "AUD", date: "2024-01-03", rate: "1.4712345678" },
            { base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 },
            { base: "AUD", quote: "USD", date: "2024-01-02", rate: "0.6666666667" },
          ]),
        ),
      ).toBe(3);
      expect(expectOk(await tr.listFx(key, { base: "USD", quote: "AUD" }))).toEqual([
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.5", source: "Account" },
        { base: "USD", quote: "AUD", date: "2024-01-03", rate: "1.4712345678", source: "Account" },
      ]);
      expect(expectOk(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.49" }]))).toBe(
        1,
      );
      expect(expectOk(await tr.listFx(key, { base: "USD", quote: "AUD", to: "2024-01-02" }))).toEqual([
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.49", source: "Account" },
      ]);
      expect(expectOk(await tr.listFx(key, { base: "AUD", quote: "USD" }))).toEqual([
        { base: "AUD", quote: "USD", date: "2024-01-02", rate: "0.6666666667", source: "Account" },
      ]);
    });

    it("refuses bad rows (400 naming line N.field, N the row's position + 1), writing none", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.upsertFx(key, [
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 },
        { base: "USD", quote: "USD", date: "2024-01-02", rate: 1 },
        { base: "US", quote: "AUD", date: "2024-01-02", rate: 1 },
        { base: "USD", quote: "XYZ", date: "2024-01-02", rate: 0 },
        { base: "EUR", quote: "AUD", date: "2024-01-02", rate: "1.12345678901" },
      ]);
      expectInvalidInOrder(o, ["line 2.quote", "line 3.base", "line 4.quote", "line 4.rate", "line 5.rate"]);
      expectInvalidInOrder(
        await tr.upsertFx(key, [
          { base: "USD", quote: "AUD", date: "2024-01-02", rate: 1 },
          { base: "USD", quote: "AUD", date: "2024-01-02", rate: 2 },
        ]),
        ["line 2.date"],
      );
      expectInvalidInOrder(await tr.listFx(key, { base: "AUD", quote: "aud" }), ["quote"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("means one base buys rate of quote: a USD trade of an AUD portfolio reads USD→AUD, or the inverse of AUD→USD", async () => {
      const portfolioId = await newPortfolio(key);
      expectOk(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-02-01", rate: "1.5" }]));
      const trade = (date: string) =>
        t.http.post("/v1/trades").set(auth(key)).send({
          portfolioId,
          symbol: "AAPL",
          exchange: "NASDAQ",
          tradeType: "Buy",
          tradeDate: date,
          quantity: 1,
          price: 100,
          brokerage: 0,
        });
      const direct = await trade("2024-02-01");
      expect(direct.status).toBe(201);
      expect(direct.body.exchangeRate).toBe(1.5);

      const other = await t.newAccount();
      const otherPortfolio = await newPortfolio(other);
      expectOk(await tr.upsertFx(other, [{ base: "AUD", quote: "USD", date: "2024-02-01", rate: "0.625" }]));
      const inverse = await t.http.post("/v1/trades").set(auth(other)).send({
        portfolioId: otherPortfolio,
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-02-01",
        quantity: 1,
        price: 100,
        brokerage: 0,
      });
      expect(inverse.status).toBe(201);
      expect(inverse.body.exchangeRate).toBe(1.6);
    });
  });
});
