import { isPriceStale, isStale, lastTradingDay, lastWeekdayOnOrBefore } from "../../src/modules/ledger/price-freshness";

/**
 * A holding's price freshness (docs/data.md §2, PRICE_STALE_DAYS): stale when the price's date is
 * more than `staleDays` calendar days before its exchange's last trading day on or before the
 * valuation date; that day is the exchange's latest stored close, else the last weekday.
 * Calendar of June 2024: Fri 7, Sat 8, Sun 9, Mon 10 (King's Birthday, ASX closed), Tue 11,
 * Wed 12, Thu 13, Fri 14, Sat 15, Sun 16, Mon 17.
 */

describe("lastWeekdayOnOrBefore: the calendar of an exchange without closes", () => {
  it.each([
    ["2024-06-14", "2024-06-14", "a Friday is its own last weekday"],
    ["2024-06-15", "2024-06-14", "Saturday 15 − 1 day = Friday 14"],
    ["2024-06-16", "2024-06-14", "Sunday 16 − 2 days = Friday 14"],
    ["2024-06-17", "2024-06-17", "a Monday is its own last weekday"],
    ["2024-03-02", "2024-03-01", "Saturday 2 March − 1 day = Friday 1 March (across a month end, leap year)"],
    ["2023-01-01", "2022-12-30", "Sunday 1 January − 2 days = Friday 30 December (across a year end)"],
  ])("%s → %s (%s)", (date, expected) => {
    expect(lastWeekdayOnOrBefore(date)).toBe(expected);
  });
});

describe("lastTradingDay: the exchange's latest close, else the last weekday", () => {
  it("follows the stored closes: on Tuesday 11 June after the King's Birthday holiday, Friday 7 when no close is stored for 10 or 11 yet", () => {
    // The holiday has no close: the latest close on or before Tue 11 is Fri 7, not Mon 10.
    expect(lastTradingDay("2024-06-07", "2024-06-11")).toBe("2024-06-07");
  });
  it("falls back to the last weekday without any close of the exchange", () => {
    expect(lastTradingDay(undefined, "2024-06-16")).toBe("2024-06-14");
  });
  it("ignores a close dated after the valuation date (the caller reads closes on or before it)", () => {
    expect(lastTradingDay("2024-06-17", "2024-06-16")).toBe("2024-06-14");
  });
  it("takes the last weekday when the latest close is itself stale against it: the feed stopped", () => {
    // Latest close Fri 7 June, valued Fri 14: 7 days behind the last weekday (> 3) → Fri 14.
    expect(lastTradingDay("2024-06-07", "2024-06-14", 3)).toBe("2024-06-14");
    // Tue 11 after the holiday: Fri 7 is 4 days behind Tue 11 (> 3) → Tue 11; with 5 → Fri 7.
    expect(lastTradingDay("2024-06-07", "2024-06-11", 3)).toBe("2024-06-11");
    expect(lastTradingDay("2024-06-07", "2024-06-11", 5)).toBe("2024-06-07");
    // Exactly 3 days behind (Fri 7 → Mon 10) still follows the close.
    expect(lastTradingDay("2024-06-07", "2024-06-10", 3)).toBe("2024-06-07");
  });
});

describe("isStale: more than staleDays calendar days behind the last trading day", () => {
  it.each([
    ["2024-06-14", "2024-06-14", 3, false, "0 days behind"],
    ["2024-06-11", "2024-06-14", 3, false, "14 − 11 = 3 days: exactly staleDays is not stale"],
    ["2024-06-10", "2024-06-14", 3, true, "14 − 10 = 4 days > 3"],
    ["2024-06-09", "2024-06-14", 3, true, "14 − 9 = 5 days > 3"],
    ["2024-06-07", "2024-06-14", 7, false, "14 − 7 = 7 days, staleDays 7: not stale"],
    ["2024-06-14", "2024-06-14", 0, false, "staleDays 0: the same day is fresh"],
    ["2024-06-13", "2024-06-14", 0, true, "staleDays 0: one day behind is stale"],
    ["2024-02-27", "2024-03-01", 3, false, "27 Feb → 1 Mar 2024 = 3 days (29 February counts)"],
    ["2023-02-25", "2023-03-01", 3, true, "25 Feb → 1 Mar 2023 = 4 days (no 29 February)"],
    [
      "2024-06-17",
      "2024-06-14",
      3,
      false,
      "a price dated after the last trading day (an import on a holiday) is fresh",
    ],
  ])("price %s, last trading day %s, staleDays %d → %s (%s)", (priceDate, ltd, staleDays, expected) => {
    expect(isStale(priceDate, ltd, staleDays)).toBe(expected);
  });
});

describe("isPriceStale: which prices can be stale", () => {
  const at = { lastTradingDay: "2024-06-14", staleDays: 3 };
  it("a market or last-trade price 5 days behind is stale", () => {
    // 14 − 9 = 5 > 3.
    expect(isPriceStale({ ...at, priceDate: "2024-06-09", priceSource: "Market", customInvestment: false })).toBe(true);
    expect(isPriceStale({ ...at, priceDate: "2024-06-09", priceSource: "LastTrade", customInvestment: false })).toBe(
      true,
    );
  });
  it("a last-trade price years old is stale", () => {
    expect(isPriceStale({ ...at, priceDate: "2020-01-10", priceSource: "LastTrade", customInvestment: false })).toBe(
      true,
    );
  });
  it("a custom price never is, nor a custom investment's purchase price: a valuation is as of its date", () => {
    expect(isPriceStale({ ...at, priceDate: "2020-01-10", priceSource: "Custom", customInvestment: false })).toBe(
      false,
    );
    expect(isPriceStale({ ...at, priceDate: "2020-01-10", priceSource: "Custom", customInvestment: true })).toBe(false);
    expect(isPriceStale({ ...at, priceDate: "2020-01-10", priceSource: "LastTrade", customInvestment: true })).toBe(
      false,
    );
  });
  it("no price is no stale price", () => {
    expect(isPriceStale({ ...at, priceDate: null, priceSource: "None", customInvestment: false })).toBe(false);
  });
});
