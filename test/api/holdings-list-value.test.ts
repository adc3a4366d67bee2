import { newPortfolio } from "../factories";
import { expectAbsent, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { holdingsApi } from "./holdings.transports";

/**
 * Listing a portfolio's holdings and their market value (custom price, else market price, else last trade), and what a nested read costs in statements.
 * (Split from holdings.test.ts by story; the transports and setup functions are in ./holdings.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, TRANSPORTS, trade, buy, sell, marketPrice, customPrice, fxRate } = holdingsApi(t, () => key);

describe.each(TRANSPORTS)("holdings over $name", (tr) => {
  describe("listing a portfolio's holdings", () => {
    it("lists the open holdings by symbol; includeClosed adds the sold-out ones at zero", async () => {
      const p = await newPortfolio(t, key);
      await buy(p, "WBC", 10, 30, "2024-01-10");
      await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: 10 });
      const nab = await buy(p, "NAB", 5, 30, "2024-01-10");
      await sell(p, "NAB", 5, 35, "2024-02-10");

      const open = expectOk(await tr.list(key, p), 200)!;
      expect(open.map((h) => h.symbol)).toEqual(["CBA", "WBC"]);
      expect(open[0]).toEqual({
        id: expect.any(Number),
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        name: "Commonwealth Bank of Australia",
        currencyCode: "AUD",
        holdingType: "Stock",
        quantity: "10",
        costBase: "1010",
        price: "100",
        priceDate: "2024-01-10",
        priceSource: "LastTrade",
        // Valued today on its 2024 trade price: far behind the last weekday (no ASX close stored).
        priceStale: true,
        exchangeRate: "1",
        marketValue: "1000",
        unrealisedGain: "-10",
        baseCurrencyCode: "AUD",
        classification: { assetClass: null, sector: null, industry: null },
        drp: { enabled: false, rounding: "Down" },
        notes: "",
      });
      expect(expectOk(await tr.get(key, open[0].id))).toEqual(open[0]);

      const all = expectOk(await tr.list(key, p, { includeClosed: true }))!;
      expect(all.map((h) => h.symbol)).toEqual(["CBA", "NAB", "WBC"]);
      expect(all[1]).toMatchObject({
        id: nab.holdingId,
        quantity: "0",
        costBase: "0",
        marketValue: "0",
        unrealisedGain: "0",
      });
      expect(expectOk(await tr.list(key, p, { includeClosed: false }))!.map((h) => h.symbol)).toEqual(["CBA", "WBC"]);
    });

    it("lists nothing for a portfolio without holdings; another account's portfolio is hidden", async () => {
      const p = await newPortfolio(t, key);
      expect(expectOk(await tr.list(key, p))).toEqual([]);
      const other = await t.newAccount();
      await buy(p, "CBA", 1, 100, "2024-01-10");
      expectAbsent(await tr.list(other, p));
      expectAbsent(await tr.list(key, 999999));
    });

    it("date= values the holdings with the price on or before that date", async () => {
      const p = await newPortfolio(t, key);
      await buy(p, "CBA", 10, 100, "2024-01-10");
      await marketPrice(p, "CBA", "ASX", "2024-02-01", "110");
      await marketPrice(p, "CBA", "ASX", "2024-03-01", "120");
      const at = async (date: string) => expectOk(await tr.list(key, p, { date }))![0];
      expect(await at("2024-01-20")).toMatchObject({
        priceSource: "LastTrade",
        price: "100",
        priceDate: "2024-01-10",
        marketValue: "1000",
      });
      expect(await at("2024-02-01")).toMatchObject({
        priceSource: "Market",
        price: "110",
        priceDate: "2024-02-01",
        marketValue: "1100",
        unrealisedGain: "100",
      });
      expect(await at("2024-02-29")).toMatchObject({ priceSource: "Market", price: "110", priceDate: "2024-02-01" });
      expect(await at("2024-06-30")).toMatchObject({
        priceSource: "Market",
        price: "120",
        priceDate: "2024-03-01",
        marketValue: "1200",
        unrealisedGain: "200",
      });
      // Without a date: today, so the latest price.
      expect(expectOk(await tr.list(key, p))![0]).toMatchObject({ price: "120", marketValue: "1200" });
    });

    it("date= shows the position held on that date: trades after it do not count", async () => {
      const p = await newPortfolio(t, key);
      await buy(p, "CBA", 10, 100, "2024-01-10");
      await buy(p, "CBA", 10, 110, "2024-03-01");
      await sell(p, "CBA", 20, 120, "2024-05-01");
      await buy(p, "NAB", 10, 30, "2024-04-01");
      const at = async (date: string) =>
        expectOk(await tr.list(key, p, { date }))!.map((h) => ({
          symbol: h.symbol,
          quantity: h.quantity,
          costBase: h.costBase,
          marketValue: h.marketValue,
        }));
      expect(await at("2024-02-01")).toEqual([
        { symbol: "CBA", quantity: "10", costBase: "1000", marketValue: "1000" },
      ]);
      expect(await at("2024-04-15")).toEqual([
        { symbol: "CBA", quantity: "20", costBase: "2100", marketValue: "2200" },
        { symbol: "NAB", quantity: "10", costBase: "300", marketValue: "300" },
      ]);
      expect(await at("2024-06-01")).toEqual([{ symbol: "NAB", quantity: "10", costBase: "300", marketValue: "300" }]);
    });

    it("rejects a date that is not a calendar date, naming date", async () => {
      const p = await newPortfolio(t, key);
      expectInvalid(await tr.list(key, p, { date: "2024-02-30" }), ["date"]);
    });
  });

  describe("market value: custom price, else market price, else the last trade price", () => {
    it("with no price imported, the last trade price values the holding; unrealisedGain = marketValue − costBase", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: "9.95" });
      await buy(p, "CBA", 5, 104, "2024-02-10");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        quantity: "15",
        costBase: "1529.95",
        price: "104",
        priceDate: "2024-02-10",
        priceSource: "LastTrade",
        marketValue: "1560",
        unrealisedGain: "30.05",
      });
    });

    it("the account's market price beats the last trade price, even when older; another account's prices do not count", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: 10 });
      await marketPrice(p, "CBA", "ASX", "2024-01-05", "98.5");
      const other = await t.newAccount();
      await marketPrice(await newPortfolio(t, other), "CBA", "ASX", "2024-01-20", "500");
      await marketPrice(p, "NAB", "ASX", "2024-01-20", "600"); // another symbol
      await marketPrice(p, "CBA", "NYSE", "2024-01-20", "700"); // another exchange
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        priceSource: "Market",
        price: "98.5",
        priceDate: "2024-01-05",
        marketValue: "985",
        unrealisedGain: "-25",
      });
    });

    it("a custom price beats the market price", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await marketPrice(p, "CBA", "ASX", "2024-02-01", "110");
      await customPrice(b.holdingId, "2024-02-15", "105.5");
      await customPrice(b.holdingId, "2024-03-15", "130"); // after the date asked for
      expect(expectOk(await tr.list(key, p, { date: "2024-03-01" }))![0]).toMatchObject({
        priceSource: "Custom",
        price: "105.5",
        priceDate: "2024-02-15",
        marketValue: "1055",
        unrealisedGain: "55",
      });
      expect(expectOk(await tr.list(key, p, { date: "2024-01-31" }))![0]).toMatchObject({
        priceSource: "LastTrade",
        price: "100",
      });
    });

    it("a foreign holding is valued in the base currency at the FX table's rate, else its last trade's rate", async () => {
      const p = await newPortfolio(t, key);
      const b = await trade(p, {
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-03-01",
        quantity: 5,
        price: 170,
        exchangeRate: "1.52",
      });
      await marketPrice(p, "AAPL", "NASDAQ", "2024-03-05", "180");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        currencyCode: "USD",
        baseCurrencyCode: "AUD",
        costBase: "1292",
        price: "180",
        exchangeRate: "1.52",
        marketValue: "1368",
        unrealisedGain: "76",
      });
      await fxRate(p, "USD", "AUD", "2024-03-05", "1.6");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        exchangeRate: "1.6",
        marketValue: "1440",
        unrealisedGain: "148",
      });
    });
  });
});

describe("statement count", () => {
  async function statementsFor(portfolioId: number) {
    const before = t.db.statementCount;
    const res = await t.gql(key, `query($id: ID!) { portfolio(id: $id) { holdings { id quantity trades { id } } } }`, {
      id: String(portfolioId),
    });
    expect(res.body.errors).toBeUndefined();
    return {
      count: t.db.statementCount - before,
      holdings: res.body.data.portfolio.holdings as { id: string; quantity: string; trades: { id: string }[] }[],
    };
  }

  async function seed(holdings: number, tradesEach: number): Promise<number> {
    const p = await newPortfolio(t, key);
    const rows: Json[] = [];
    for (let h = 0; h < holdings; h++) {
      for (let i = 0; i < tradesEach; i++) {
        const date = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
        rows.push({
          symbol: `ZQ${String(h).padStart(2, "0")}`,
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: date,
          quantity: 1,
          price: 1 + h,
        });
      }
    }
    const res = await t.http.post(`/v1/portfolios/${p}/trades/import`).set("authorization", key).send(rows);
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(holdings * tradesEach);
    return p;
  }

  it("portfolio { holdings { trades } } over 50 holdings × 100 trades costs what 2 holdings × 3 trades cost", async () => {
    const small = await seed(2, 3);
    const large = await seed(50, 100);

    const few = await statementsFor(small);
    const many = await statementsFor(large);

    expect(few.holdings).toHaveLength(2);
    expect(many.holdings).toHaveLength(50);
    for (const h of many.holdings) {
      expect(h.quantity).toBe("100");
      expect(h.trades).toHaveLength(100);
    }
    expect(many.count).toBe(few.count);
  });
});
