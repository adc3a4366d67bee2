import { Decimal } from "../../src/lib/money";
import { FxTable } from "../../src/modules/ledger/fx";

/**
 * docs/rules.md §8, "The rate on day d": the latest imported rate dated ≤ d, direct, inverse or crossed
 * through a common currency (the newest wins), else the rate of the last trade in that currency
 * dated ≤ d; 1 for the base currency. Imported rows read "1 base buys rate quote".
 */
describe("the FX rate on a date", () => {
  const rows = [
    { base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.5" },
    { base: "USD", quote: "AUD", date: "2024-01-05", rate: "1.6" },
    { base: "AUD", quote: "GBP", date: "2024-01-03", rate: "0.5" },
    { base: "EUR", quote: "USD", date: "2024-01-04", rate: "1.1" },
  ];
  const table = new FxTable(rows, {
    base: "AUD",
    rates: [{ currencyCode: "JPY", date: "2024-01-01", exchangeRate: "0.0101" }],
  });
  const rate = (from: string, to: string, date: string) => {
    const r = table.rateOn(from, to, date);
    return r && { rate: r.rate.toFixed(), date: r.date, via: r.via };
  };

  it("the same currency is 1", () => {
    expect(rate("AUD", "AUD", "2024-01-01")).toEqual({ rate: "1", date: "2024-01-01", via: "Same" });
  });

  it("takes the latest direct rate on or before the date, with no look-back limit", () => {
    expect(rate("USD", "AUD", "2024-01-02")).toEqual({ rate: "1.5", date: "2024-01-02", via: "Direct" });
    expect(rate("USD", "AUD", "2024-01-04")).toEqual({ rate: "1.5", date: "2024-01-02", via: "Direct" });
    expect(rate("USD", "AUD", "2030-01-01")).toEqual({ rate: "1.6", date: "2024-01-05", via: "Direct" });
    expect(rate("USD", "AUD", "2024-01-01")).toBeUndefined();
  });

  it("inverts a row quoted the other way, to 10 decimals", () => {
    // AUD/GBP 0.5 → 1 GBP = 1 / 0.5 = 2 AUD.
    expect(rate("GBP", "AUD", "2024-01-03")).toEqual({ rate: "2", date: "2024-01-03", via: "Inverse" });
    // AUD/USD from USD/AUD 1.6: 1 / 1.6 = 0.625.
    expect(rate("AUD", "USD", "2024-01-05")).toEqual({ rate: "0.625", date: "2024-01-05", via: "Inverse" });
    // 1 / 1.5 = 0.6666666666|67 → 0.6666666667 at 10 dp, half-up.
    expect(rate("AUD", "USD", "2024-01-02")).toEqual({ rate: "0.6666666667", date: "2024-01-02", via: "Inverse" });
  });

  it("crosses through a common currency, dated by its older leg", () => {
    // EUR→AUD: EUR/USD 1.1 (01-04) × USD/AUD 1.5 (01-02) = 1.65, as old as 01-02.
    expect(rate("EUR", "AUD", "2024-01-04")).toEqual({ rate: "1.65", date: "2024-01-02", via: "Crossed" });
    // After 01-05: 1.1 × 1.6 = 1.76, dated 01-04 (the EUR leg is the older).
    expect(rate("EUR", "AUD", "2024-01-06")).toEqual({ rate: "1.76", date: "2024-01-04", via: "Crossed" });
    // GBP→USD: GBP→AUD 2 (inverse, 01-03) × AUD→USD 0.6666666667 (01-02) = 1.3333333334.
    expect(rate("GBP", "USD", "2024-01-03")).toEqual({ rate: "1.3333333334", date: "2024-01-02", via: "Crossed" });
  });

  it("the newest wins between a direct rate and a cross", () => {
    const t = new FxTable([
      { base: "EUR", quote: "AUD", date: "2024-01-01", rate: "1.6" },
      { base: "EUR", quote: "USD", date: "2024-02-01", rate: "1.1" },
      { base: "USD", quote: "AUD", date: "2024-02-01", rate: "1.5" },
    ]);
    expect(t.rateOn("EUR", "AUD", "2024-01-31")).toMatchObject({ via: "Direct", date: "2024-01-01" });
    // From 02-01 the cross (1.1 × 1.5 = 1.65) is newer than the direct rate of 01-01.
    const r = t.rateOn("EUR", "AUD", "2024-02-01")!;
    expect([r.via, r.rate.toFixed(), r.date]).toEqual(["Crossed", "1.65", "2024-02-01"]);
  });

  it("on one date a direct row wins over the inverse of the opposite row", () => {
    const t = new FxTable([
      { base: "USD", quote: "AUD", date: "2024-01-01", rate: "1.5" },
      { base: "AUD", quote: "USD", date: "2024-01-01", rate: "0.7" },
    ]);
    expect(t.rateOn("USD", "AUD", "2024-01-01")!.rate.toFixed()).toBe("1.5");
    expect(t.rateOn("AUD", "USD", "2024-01-01")!.rate.toFixed()).toBe("0.7");
  });

  it("falls back to the last trade's rate in that currency, into the base only", () => {
    expect(rate("JPY", "AUD", "2024-06-30")).toEqual({ rate: "0.0101", date: "2024-01-01", via: "LastTrade" });
    expect(rate("JPY", "AUD", "2023-12-31")).toBeUndefined();
    expect(rate("JPY", "USD", "2024-06-30")).toBeUndefined();
  });

  it("ignores rows that cannot be a rate", () => {
    const t = new FxTable([{ base: "USD", quote: "AUD", date: "2024-01-01", rate: new Decimal(0) }]);
    expect(t.rateOn("USD", "AUD", "2024-01-02")).toBeUndefined();
  });
});
