import { ProviderError } from "../../src/modules/market-data/providers/provider";
import {
  createYahooFxProvider,
  createYahooProvider,
  yahooFxSymbol,
  yahooSymbol,
} from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1.1 symbol mapping, and docs/data.md §1: no stored symbol can make a request
 * leave `{baseUrl}/v8/finance/chart/<symbol>`; an unsupported one makes no request at all.
 */
describe("Yahoo symbols", () => {
  it("maps each supported exchange to its suffix", () => {
    const cases: [string, string, string][] = [
      ["VAS", "ASX", "VAS.AX"],
      ["AAPL", "NASDAQ", "AAPL"],
      ["KO", "NYSE", "KO"],
      ["SPY", "NYSEARCA", "SPY"],
      ["CBOE", "BATS", "CBOE"],
      ["VOD", "LSE", "VOD.L"],
      ["AIR", "NZX", "AIR.NZ"],
      ["RY", "TSX", "RY.TO"],
      ["0005", "HKEX", "0005.HK"],
    ];
    for (const [symbol, exchange, expected] of cases) expect(yahooSymbol({ symbol, exchange })).toBe(expected);
  });

  it("writes codes as Yahoo does, in capitals, keeping the characters exchanges use", () => {
    expect(yahooSymbol({ symbol: "vas", exchange: "asx" })).toBe("VAS.AX");
    expect(yahooSymbol({ symbol: "BRK-B", exchange: "NYSE" })).toBe("BRK-B");
    expect(yahooSymbol({ symbol: "RDS.A", exchange: "NYSE" })).toBe("RDS.A");
    expect(yahooSymbol({ symbol: "^GSPC", exchange: "NYSE" })).toBe("^GSPC");
    expect(yahooSymbol({ symbol: "A".repeat(20), exchange: "NASDAQ" })).toBe("A".repeat(20));
  });

  it("reports any other exchange as unsupported, including names an object literal would answer", () => {
    for (const exchange of [
      "XETRA",
      "TSE",
      "",
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "aſx",
      "ASX ",
    ]) {
      expect(yahooSymbol({ symbol: "VAS", exchange })).toBeNull();
    }
  });

  it("refuses codes that could name another path, a query or a fragment", () => {
    const hostile = [
      "../x",
      "a?b",
      "a/b",
      "%2e%2e",
      "..",
      ".",
      ".AX",
      "a b",
      "a#b",
      "a\\b",
      "a&b",
      "a\nb",
      "",
      "A".repeat(21),
      "ｖａｓ",
      "é",
      "VAS%00",
      "..%2F",
      "vaſ", // ſ.toUpperCase() is S: checked before capitals are made
    ];
    for (const symbol of hostile) expect(yahooSymbol({ symbol, exchange: "ASX" })).toBeNull();
  });

  it("names currency pairs as AUDUSD=X: units of the quote per 1 base", () => {
    expect(yahooFxSymbol({ base: "AUD", quote: "USD" })).toBe("AUDUSD=X");
    expect(yahooFxSymbol({ base: "USD", quote: "JPY" })).toBe("USDJPY=X");
    for (const pair of [
      { base: "AUD", quote: "AUD" },
      { base: "aud", quote: "usd" },
      { base: "AU", quote: "USD" },
      { base: "AUD", quote: "../" },
      { base: "AUD", quote: "US D" },
    ]) {
      expect(yahooFxSymbol(pair)).toBeNull();
    }
  });

  it("an unsupported security or pair makes no request", async () => {
    const http = jest.fn();
    const prices = createYahooProvider({ baseUrl: "http://127.0.0.1:9", http });
    const fx = createYahooFxProvider({ baseUrl: "http://127.0.0.1:9", http });
    expect(prices.id).toBe("yahoo");
    expect(prices.symbolFor({ symbol: "VAS", exchange: "ASX" })).toBe("VAS.AX");
    expect(prices.symbolFor({ symbol: "SAP", exchange: "XETRA" })).toBeNull();
    const range = { from: "2024-01-01", to: "2024-01-31" };
    for (const security of [
      { symbol: "SAP", exchange: "XETRA" },
      { symbol: "../x", exchange: "ASX" },
    ]) {
      const error = await prices.getHistory(security, range).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe("unsupported");
    }
    expect(fx.id).toBe("yahoo");
    expect(fx.supports({ base: "AUD", quote: "USD" })).toBe(true);
    expect(fx.supports({ base: "AUD", quote: "AUD" })).toBe(false);
    await expect(fx.getRates([{ base: "AUD", quote: "AUD" }], range)).resolves.toEqual([]);
    expect(http).not.toHaveBeenCalled();
  });

  it("a malformed or backwards range is a caller's bug, refused before any request", async () => {
    const http = jest.fn();
    const prices = createYahooProvider({ baseUrl: "http://127.0.0.1:9", http });
    const vas = { symbol: "VAS", exchange: "ASX" };
    await expect(prices.getHistory(vas, { from: "2024-02-01", to: "2024-01-31" })).rejects.toThrow(RangeError);
    await expect(prices.getHistory(vas, { from: "2024-1-1", to: "2024-01-31" })).rejects.toThrow(RangeError);
    await expect(prices.getHistory(vas, { from: "2024-01-01", to: "2024-13-45" })).rejects.toThrow(RangeError);
    expect(http).not.toHaveBeenCalled();
  });
});
