import http from "node:http";
import type { AddressInfo } from "node:net";
import { ProviderError, type SecurityRef } from "../../src/modules/market-data/providers/provider";
import { createYahooFxProvider, createYahooProvider, yahooSymbol } from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1: nothing a request carries can make the service fetch another path. A local
 * server stands in for Yahoo and the real `fetch` sends the requests, so the paths asserted are
 * the ones that went over the wire, after the URL parser had its say.
 */
describe("requests to a fake Yahoo over real fetch", () => {
  const received: string[] = [];
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push(req.url ?? "");
      // No keep-alive: no client socket outlives the test.
      res.writeHead(200, { "content-type": "application/json", connection: "close" });
      // A no-data answer: enough for the provider to succeed without prices.
      res.end(
        JSON.stringify({
          chart: { result: [{ meta: { currency: "USD", gmtoffset: 0 }, indicators: { quote: [{}] } }], error: null },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const range = { from: "2024-01-02", to: "2024-01-03" };
  // period1 = 2024-01-01T00:00Z = 19723 days × 86400; period2 = 2024-01-04T00:00Z = 19726 × 86400.
  const query = "?period1=1704067200&period2=1704326400&interval=1d&events=div%2Csplit";

  it("every request path is /v8/finance/chart/<encoded symbol>, whatever the stored symbol", async () => {
    const provider = createYahooProvider({ baseUrl: baseUrl + "/", http: (url, init) => fetch(url, init) });
    const tried: SecurityRef[] = [
      "VAS",
      "vas",
      "BRK-B",
      "^GSPC",
      "A=B",
      "RDS.A",
      "../x",
      "../../admin",
      "a?b",
      "a/b",
      "%2e%2e",
      "..",
      ".",
      "a#b",
      "a b",
      "a\\b",
      "x/../../y",
      "?",
      "#",
      "",
      "ｖａｓ",
      "a\r\nHost: evil",
      "A".repeat(100),
    ].flatMap((symbol) => ["ASX", "NYSE"].map((exchange) => ({ symbol, exchange })));

    const expected: string[] = [];
    for (const security of tried) {
      const symbol = yahooSymbol(security);
      const outcome = await provider.getHistory(security, range).catch((e: unknown) => e);
      if (symbol === null) {
        expect(outcome).toBeInstanceOf(ProviderError);
        expect((outcome as ProviderError).kind).toBe("unsupported");
      } else {
        expect(outcome).toMatchObject({ providerSymbol: symbol, prices: [] });
        expected.push(`/v8/finance/chart/${encodeURIComponent(symbol)}${query}`);
      }
    }
    // Exactly the supported ones, in order, each one path segment under /v8/finance/chart/.
    expect(received).toEqual(expected);
    expect(received).toContain(`/v8/finance/chart/BRK-B${query}`);
    expect(received).toContain(`/v8/finance/chart/%5EGSPC${query}`);
    expect(received).toContain(`/v8/finance/chart/A%3DB.AX${query}`);
    for (const url of received) expect(url).toMatch(/^\/v8\/finance\/chart\/[A-Za-z0-9.\-%]+\?[^?#]+$/);
  });

  it("unsupported exchanges make no request at all", async () => {
    const provider = createYahooProvider({ baseUrl, http: (url, init) => fetch(url, init) });
    for (const exchange of ["XETRA", "", "constructor", "__proto__", "../ASX", "ASX/../x"]) {
      const outcome = await provider.getHistory({ symbol: "VAS", exchange }, range).catch((e: unknown) => e);
      expect((outcome as ProviderError).kind).toBe("unsupported");
    }
    expect(received).toEqual([]);
  });

  it("currency pairs go to /v8/finance/chart/<BASEQUOTE>%3DX and nowhere else", async () => {
    const fx = createYahooFxProvider({ baseUrl, http: (url, init) => fetch(url, init) });
    const rates = await fx.getRates(
      [
        { base: "AUD", quote: "USD" },
        { base: "../", quote: "USD" },
        { base: "AUD", quote: "US/" },
        { base: "aud", quote: "usd" },
      ],
      range,
    );
    expect(rates).toEqual([]);
    expect(received).toEqual([`/v8/finance/chart/AUDUSD%3DX${query}`]);
  });
});
