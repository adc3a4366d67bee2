import path from "node:path";
import { replayHttpClient } from "../../src/modules/market-data/providers/replay";
import { unadjustForSplits } from "../../src/modules/market-data/providers/unadjust";
import { createYahooProvider } from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1.1: Yahoo's closes and dividend amounts are adjusted for every later split; the
 * service stores what traded. SPLT (NASDAQ, fixture) split 2:1 on 2020-06-01 and 3:1 on 2021-06-01.
 */
const FIXTURES = path.join(__dirname, "../fixtures/providers");
const SPLITS = [
  { date: "2020-06-01", numerator: 2, denominator: 1 },
  { date: "2021-06-01", numerator: 3, denominator: 1 },
];

describe("undoing Yahoo's split adjustment", () => {
  it("multiplies a value by every later split, and leaves one on a split's date to that split", () => {
    // 50 on 2020-01-02, before a 2:1 (2020-06-01) and a 3:1 (2021-06-01): 50 × 2 × 3 = 300.
    expect(unadjustForSplits("50", "2020-01-02", SPLITS).toFixed()).toBe("300");
    // 75 on 2020-06-01 already trades after the 2:1; before the 3:1: 75 × 3 = 225.
    expect(unadjustForSplits("75", "2020-06-01", SPLITS).toFixed()).toBe("225");
    // 82 on 2021-06-01 trades after both: 82.
    expect(unadjustForSplits("82", "2021-06-01", SPLITS).toFixed()).toBe("82");
    // No splits: unchanged.
    expect(unadjustForSplits("12.34", "2020-01-02", []).toFixed()).toBe("12.34");
  });

  it("a consolidation divides, exactly, and mixed ratios multiply out", () => {
    const oneForThree = [{ date: "2024-03-01", numerator: 1, denominator: 3 }];
    // 30 before a 1:3 consolidation: 30 × 1 / 3 = 10 (not 30 × 0.3333…).
    expect(unadjustForSplits("30", "2024-02-29", oneForThree).toFixed()).toBe("10");
    // 10 before a 3:2 then a 1:3: 10 × 3 × 1 / (2 × 3) = 5.
    const mixed = [{ date: "2024-01-10", numerator: 3, denominator: 2 }, ...oneForThree];
    expect(unadjustForSplits("10", "2024-01-02", mixed).toFixed()).toBe("5");
  });

  it("refuses a split with a zero or negative side instead of dividing by it", () => {
    expect(() => unadjustForSplits("1", "2020-01-01", [{ date: "2021-01-01", numerator: 1, denominator: 0 }])).toThrow(
      RangeError,
    );
  });

  it("SPLT over both splits: closes and dividends as traded, the splits themselves as recorded", async () => {
    const provider = createYahooProvider({ baseUrl: "http://yahoo.test", http: replayHttpClient(FIXTURES) });
    const history = await provider.getHistory(
      { symbol: "SPLT", exchange: "NASDAQ" },
      { from: "2020-01-01", to: "2021-06-30" },
    );
    expect(history.currency).toBe("USD");
    expect(history.prices).toEqual([
      // before both: × 2 × 3 = × 6
      { date: "2020-01-02", close: "300" }, //   50 × 6
      { date: "2020-03-02", close: "313.5" }, // 52.25 × 6
      { date: "2020-05-29", close: "444" }, //   74 × 6
      // on the 2:1, before the 3:1: × 3 (2020-09-01 is null and skipped)
      { date: "2020-06-01", close: "225" }, //   75 × 3
      { date: "2020-12-01", close: "241.5" }, // 80.5 × 3
      { date: "2021-05-28", close: "245.1" }, // 81.7 × 3
      // on and after the 3:1: as given
      { date: "2021-06-01", close: "82" },
      { date: "2021-06-02", close: "83.3" },
    ]);
    expect(history.dividends).toEqual([
      { exDate: "2020-03-02", amount: "1.5" }, // 0.25 × 6
      { exDate: "2020-09-01", amount: "0.3" }, // 0.1 × 3
    ]);
    expect(history.splits).toEqual(SPLITS);
  });

  it("a split after the range still counts when the answer holds it, but is not reported", async () => {
    const provider = createYahooProvider({ baseUrl: "http://yahoo.test", http: replayHttpClient(FIXTURES) });
    const history = await provider.getHistory(
      { symbol: "SPLT", exchange: "NASDAQ" },
      { from: "2020-01-01", to: "2020-03-31" },
    );
    // The recorded answer runs to 2021-06-02: 50 × 6 = 300, 52.25 × 6 = 313.5, 0.25 × 6 = 1.5.
    expect(history.prices).toEqual([
      { date: "2020-01-02", close: "300" },
      { date: "2020-03-02", close: "313.5" },
    ]);
    expect(history.dividends).toEqual([{ exDate: "2020-03-02", amount: "1.5" }]);
    expect(history.splits).toEqual([]);
  });
});
