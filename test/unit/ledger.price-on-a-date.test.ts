import { HoldingPrices } from "../../src/modules/ledger/prices";

/**
 * docs/rules.md §7, "The price of a holding on day d": the latest price dated ≤ d, the custom
 * investment's price first, else the imported market price, else the price of the last trade in the
 * holding's currency.
 */
describe("a holding's price on a date", () => {
  const trade = (date: string, seq: number, tradeType: string, price: string, currencyCode = "AUD") => ({
    date,
    seq,
    tradeType,
    price,
    currencyCode,
  });
  const on = (p: HoldingPrices, date: string) => {
    const r = p.priceOn(date);
    return { price: r.price?.toFixed() ?? null, date: r.date, source: r.source };
  };

  it("the last trade's price until a market price exists, then the latest market price", () => {
    const p = new HoldingPrices({
      currencyCode: "AUD",
      custom: [],
      market: [
        { date: "2024-03-01", price: "11" },
        { date: "2024-03-04", price: "12" },
      ],
      trades: [trade("2024-01-10", 1, "Buy", "10"), trade("2024-02-10", 2, "Sell", "10.5")],
    });
    expect(on(p, "2024-01-09")).toEqual({ price: null, date: null, source: "None" });
    expect(on(p, "2024-01-10")).toEqual({ price: "10", date: "2024-01-10", source: "LastTrade" });
    expect(on(p, "2024-02-29")).toEqual({ price: "10.5", date: "2024-02-10", source: "LastTrade" });
    expect(on(p, "2024-03-03")).toEqual({ price: "11", date: "2024-03-01", source: "Market" });
    expect(on(p, "2025-01-01")).toEqual({ price: "12", date: "2024-03-04", source: "Market" });
  });

  it("a custom price comes first whatever the market says", () => {
    const p = new HoldingPrices({
      currencyCode: "AUD",
      custom: [{ date: "2024-01-01", price: "5" }],
      market: [{ date: "2024-06-01", price: "7" }],
      trades: [],
    });
    expect(on(p, "2024-07-01")).toEqual({ price: "5", date: "2024-01-01", source: "Custom" });
    expect(on(p, "2023-12-31")).toEqual({ price: null, date: null, source: "None" });
  });

  it("of one day's trades the last entered counts; adjustments, zero prices and other currencies do not", () => {
    const p = new HoldingPrices({
      currencyCode: "USD",
      custom: [],
      market: [],
      trades: [
        trade("2024-01-10", 7, "Buy", "20", "USD"),
        trade("2024-01-10", 3, "Buy", "19", "USD"),
        trade("2024-01-11", 8, "ReturnOfCapital", "0.5", "USD"),
        trade("2024-01-12", 9, "Bonus", "0", "USD"),
        trade("2024-01-13", 10, "Buy", "30", "AUD"),
      ],
    });
    expect(on(p, "2024-01-31")).toEqual({ price: "20", date: "2024-01-10", source: "LastTrade" });
  });
});
