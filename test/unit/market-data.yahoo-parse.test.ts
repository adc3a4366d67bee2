import path from "node:path";
import type { HttpClient } from "../../src/modules/market-data/providers/provider";
import { replayHttpClient } from "../../src/modules/market-data/providers/replay";
import { createYahooProvider } from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1.1: a chart answer in the service's terms — local dates, decimal strings as
 * written, null days skipped, sub-unit currencies converted, only the asked range, in date order.
 */
const FIXTURES = path.join(__dirname, "../fixtures/providers");
const BASE = "http://yahoo.test";

function recording() {
  const urls: string[] = [];
  const replay = replayHttpClient(FIXTURES);
  const http: HttpClient = (url, init) => {
    urls.push(url);
    return replay(url, init);
  };
  return { urls, provider: createYahooProvider({ baseUrl: BASE, http }) };
}

/** One chart answer built in the test, for shapes no fixture needs to hold. */
function answering(result: object) {
  const body = JSON.stringify({ chart: { result: [result], error: null } });
  const http: HttpClient = async () => ({ status: 200, text: async () => body });
  return createYahooProvider({ baseUrl: BASE, http });
}

describe("parsing Yahoo chart answers", () => {
  it("VAS.AX over a week with a dividend: one request, the range's closes and the dividend", async () => {
    const { urls, provider } = recording();
    const history = await provider.getHistory(
      { symbol: "VAS", exchange: "ASX" },
      { from: "2024-06-28", to: "2024-07-03" },
    );
    // period1: 2024-06-28 less a day = 2024-06-27T00:00Z = 19901 days × 86400 = 1719446400.
    // period2: the day after 2024-07-03 = 2024-07-04T00:00Z = 19908 days × 86400 = 1720051200.
    expect(urls).toEqual([
      `${BASE}/v8/finance/chart/VAS.AX?period1=1719446400&period2=1720051200&interval=1d&events=div%2Csplit`,
    ]);
    // The file also holds 2024-06-27 and 2024-07-04, outside the range. Bars are stamped 00:00 UTC,
    // 10:00 at gmtoffset +36000, so each is its own UTC date. 97.1 stays 97.1 (no float noise).
    expect(history).toEqual({
      providerSymbol: "VAS.AX",
      currency: "AUD",
      instrumentType: "ETF",
      prices: [
        { date: "2024-06-28", close: "97.1" },
        { date: "2024-07-01", close: "95.95" },
        { date: "2024-07-02", close: "96.1" },
        { date: "2024-07-03", close: "96.48" },
      ],
      dividends: [{ exDate: "2024-07-01", amount: "0.9" }],
      splits: [],
    });
  });

  it("skips null days and keeps the later of two stamps on one day", async () => {
    const { provider } = recording();
    const history = await provider.getHistory(
      { symbol: "GAPS", exchange: "ASX" },
      { from: "2024-01-01", to: "2024-01-31" },
    );
    // 01-03 and 01-05 are null (no trade). 01-08 is stamped 00:00Z (10.66) and again 05:10Z
    // (10.7, the day in progress): the later one stands.
    expect(history.prices).toEqual([
      { date: "2024-01-02", close: "10.5" },
      { date: "2024-01-04", close: "10.62" },
      { date: "2024-01-08", close: "10.7" },
    ]);
  });

  it("an answer with no timestamp array is no data, not an error", async () => {
    const { provider } = recording();
    const history = await provider.getHistory(
      { symbol: "EMPTY", exchange: "ASX" },
      { from: "2024-01-01", to: "2024-01-31" },
    );
    expect(history).toEqual({
      providerSymbol: "EMPTY.AX",
      currency: "AUD",
      instrumentType: "EQUITY",
      prices: [],
      dividends: [],
      splits: [],
    });
  });

  it("GBp: closes and dividends in pence come out in pounds", async () => {
    const { provider } = recording();
    const history = await provider.getHistory(
      { symbol: "VOD", exchange: "LSE" },
      { from: "2024-06-03", to: "2024-06-07" },
    );
    // 70.52p / 100 = £0.7052; 71.1p / 100 = £0.711; dividend 2.25p / 100 = £0.0225.
    expect(history.currency).toBe("GBP");
    expect(history.prices).toEqual([
      { date: "2024-06-05", close: "0.7052" },
      { date: "2024-06-06", close: "0.711" },
    ]);
    expect(history.dividends).toEqual([{ exDate: "2024-06-06", amount: "0.0225" }]);
  });

  it("ZAc and ILA are cents and agorot of ZAR and ILS", async () => {
    const day = Date.parse("2024-03-04T08:00Z") / 1000;
    const range = { from: "2024-03-04", to: "2024-03-04" };
    for (const [quoted, currency, close, expected] of [
      // 12345c / 100 = R123.45
      ["ZAc", "ZAR", 12345, "123.45"],
      // 1999.5 agorot / 100 = ₪19.995
      ["ILA", "ILS", 1999.5, "19.995"],
    ] as const) {
      const provider = answering({
        meta: { currency: quoted, gmtoffset: 7200 },
        timestamp: [day],
        indicators: { quote: [{ close: [close] }] },
      });
      const history = await provider.getHistory({ symbol: "X", exchange: "NYSE" }, range);
      expect(history.currency).toBe(currency);
      expect(history.prices).toEqual([{ date: "2024-03-04", close: expected }]);
    }
  });

  it("dates a bar by the exchange's clock, not UTC's", async () => {
    // NZX opens 10:00 NZST (+43200): 2024-07-01T22:00Z is 2024-07-02 10:00 in Auckland.
    const nz = answering({
      meta: { currency: "NZD", gmtoffset: 43200 },
      timestamp: [Date.parse("2024-07-01T22:00Z") / 1000],
      indicators: { quote: [{ close: [3.4] }] },
    });
    const nzHistory = await nz.getHistory({ symbol: "AIR", exchange: "NZX" }, { from: "2024-07-02", to: "2024-07-02" });
    expect(nzHistory.prices).toEqual([{ date: "2024-07-02", close: "3.4" }]);
    // New York at -14400: 2024-07-02T01:00Z is still 2024-07-01 21:00 there.
    const us = answering({
      meta: { currency: "USD", gmtoffset: -14400 },
      timestamp: [Date.parse("2024-07-02T01:00Z") / 1000],
      indicators: { quote: [{ close: [10] }] },
    });
    const usHistory = await us.getHistory({ symbol: "X", exchange: "NYSE" }, { from: "2024-07-01", to: "2024-07-02" });
    expect(usHistory.prices).toEqual([{ date: "2024-07-01", close: "10" }]);
  });

  it("sorts by date, drops zero closes and zero dividends, and rounds to the column's 8 places", async () => {
    const t = (iso: string) => Date.parse(iso) / 1000;
    const provider = answering({
      meta: { currency: "USD", gmtoffset: 0 },
      timestamp: [t("2024-01-05T15:00Z"), t("2024-01-03T15:00Z"), t("2024-01-04T15:00Z")],
      events: {
        dividends: {
          [t("2024-01-04T15:00Z")]: { amount: 0, date: t("2024-01-04T15:00Z") },
          [t("2024-01-03T15:00Z")]: { amount: 0.3, date: t("2024-01-03T15:00Z") },
        },
      },
      // 0.1 + 0.2 as a double is 0.30000000000000004: to 8 places, 0.3.
      indicators: { quote: [{ close: [0.1 + 0.2, 1e-7, 0] }] },
    });
    const history = await provider.getHistory(
      { symbol: "X", exchange: "NYSE" },
      { from: "2024-01-01", to: "2024-01-31" },
    );
    expect(history.prices).toEqual([
      { date: "2024-01-03", close: "0.0000001" },
      { date: "2024-01-05", close: "0.3" },
    ]);
    expect(history.dividends).toEqual([{ exDate: "2024-01-03", amount: "0.3" }]);
    expect(history).not.toHaveProperty("instrumentType");
  });
});
