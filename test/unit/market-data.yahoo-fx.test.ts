import path from "node:path";
import { type HttpClient, ProviderError } from "../../src/modules/market-data/providers/provider";
import { replayHttpClient } from "../../src/modules/market-data/providers/replay";
import { createYahooFxProvider } from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1.1: FX from Yahoo's currency pairs. The close of `AUDUSD=X` is USD per 1 AUD,
 * stored as {base: AUD, quote: USD}. Yahoo stamps FX days at 00:00 London time (+3600 in summer).
 */
const FIXTURES = path.join(__dirname, "../fixtures/providers");

function recording() {
  const urls: string[] = [];
  const replay = replayHttpClient(FIXTURES);
  const http: HttpClient = (url, init) => {
    urls.push(url);
    return replay(url, init);
  };
  return { urls, fx: createYahooFxProvider({ baseUrl: "http://yahoo.test", http }) };
}

describe("Yahoo exchange rates", () => {
  it("AUD/USD over a week: the close is the rate, dated by London's clock", async () => {
    const { urls, fx } = recording();
    const rates = await fx.getRates([{ base: "AUD", quote: "USD" }], { from: "2024-07-01", to: "2024-07-05" });
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0]).pathname).toBe("/v8/finance/chart/AUDUSD%3DX");
    // 2024-06-30T23:00Z + 3600 s = 2024-07-01 00:00 in London. 0.6669000196456909 to the rate
    // column's 10 places is 0.6669000196. 2024-07-03 is null: no observation.
    expect(rates).toEqual([
      { base: "AUD", quote: "USD", date: "2024-07-01", rate: "0.6669000196" },
      { base: "AUD", quote: "USD", date: "2024-07-02", rate: "0.6652" },
      { base: "AUD", quote: "USD", date: "2024-07-04", rate: "0.6712" },
    ]);
  });

  it("keeps to the range", async () => {
    const { fx } = recording();
    const rates = await fx.getRates([{ base: "AUD", quote: "USD" }], { from: "2024-07-02", to: "2024-07-03" });
    expect(rates).toEqual([{ base: "AUD", quote: "USD", date: "2024-07-02", rate: "0.6652" }]);
  });

  it("leaves out pairs it cannot name, without a request, and pairs Yahoo does not know", async () => {
    const { urls, fx } = recording();
    const rates = await fx.getRates(
      [
        { base: "AUD", quote: "AUD" },
        { base: "AUD", quote: "XYZ" }, // no recording: 404
        { base: "AUD", quote: "USD" },
      ],
      { from: "2024-07-04", to: "2024-07-04" },
    );
    expect(urls.map((u) => new URL(u).pathname)).toEqual([
      "/v8/finance/chart/AUDXYZ%3DX",
      "/v8/finance/chart/AUDUSD%3DX",
    ]);
    expect(rates).toEqual([{ base: "AUD", quote: "USD", date: "2024-07-04", rate: "0.6712" }]);
  });

  it("any other failure stops the run: a later run can answer every pair", async () => {
    const fx = createYahooFxProvider({
      baseUrl: "http://yahoo.test",
      http: async () => ({ status: 503, text: async () => "" }),
    });
    const error = await fx
      .getRates([{ base: "AUD", quote: "USD" }], { from: "2024-07-01", to: "2024-07-05" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("unavailable");
  });
});
