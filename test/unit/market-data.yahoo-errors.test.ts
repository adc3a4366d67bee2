import path from "node:path";
import { type HttpClient, ProviderError } from "../../src/modules/market-data/providers/provider";
import { replayHttpClient } from "../../src/modules/market-data/providers/replay";
import { createYahooProvider } from "../../src/modules/market-data/providers/yahoo";

/**
 * docs/data.md §1.1 errors, as ProviderError kinds (provider.ts): 404 is `not-found`, 429 and
 * 5xx are `unavailable` (the HTTP wrapper has already retried), a body that is not JSON or not a
 * chart is `invalid`, and `chart.error` says which of the two it is.
 */
const FIXTURES = path.join(__dirname, "../fixtures/providers");
const RANGE = { from: "2024-01-01", to: "2024-01-31" };
const ASX = (symbol: string) => ({ symbol, exchange: "ASX" });

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error.kind;
}

const answering = (status: number, body: string) =>
  createYahooProvider({ baseUrl: "http://yahoo.test", http: async () => ({ status, text: async () => body }) });

describe("Yahoo failures", () => {
  const replayed = createYahooProvider({ baseUrl: "http://yahoo.test", http: replayHttpClient(FIXTURES) });

  it("recorded answers: 404, 503, a garbage page and a body that is not a chart", async () => {
    await expect(kindOf(replayed.getHistory(ASX("NOTFOUND"), RANGE))).resolves.toBe("not-found");
    await expect(kindOf(replayed.getHistory(ASX("NOSUCHFILE"), RANGE))).resolves.toBe("not-found");
    await expect(kindOf(replayed.getHistory(ASX("BUSY"), RANGE))).resolves.toBe("unavailable");
    await expect(kindOf(replayed.getHistory(ASX("GARBAGE"), RANGE))).resolves.toBe("invalid");
    await expect(kindOf(replayed.getHistory(ASX("BADSHAPE"), RANGE))).resolves.toBe("invalid");
  });

  it("429 and every 5xx are unavailable, whatever the body", async () => {
    for (const status of [429, 500, 502, 503, 504]) {
      await expect(kindOf(answering(status, "rate limited").getHistory(ASX("VAS"), RANGE))).resolves.toBe(
        "unavailable",
      );
    }
  });

  it("chart.error: Not Found is not-found, anything else is invalid, on 200 or 400 alike", async () => {
    const error = (code: string) => JSON.stringify({ chart: { result: null, error: { code, description: "…" } } });
    await expect(kindOf(answering(200, error("Not Found")).getHistory(ASX("VAS"), RANGE))).resolves.toBe("not-found");
    await expect(kindOf(answering(400, error("Not Found")).getHistory(ASX("VAS"), RANGE))).resolves.toBe("not-found");
    await expect(kindOf(answering(400, error("Bad Request")).getHistory(ASX("VAS"), RANGE))).resolves.toBe("invalid");
    await expect(kindOf(answering(200, error("Bad Request")).getHistory(ASX("VAS"), RANGE))).resolves.toBe("invalid");
  });

  it("a chart that contradicts itself is invalid", async () => {
    const chart = (result: unknown) => JSON.stringify({ chart: { result, error: null } });
    const meta = { currency: "AUD", gmtoffset: 36000 };
    const bodies = [
      chart(null),
      chart([]),
      // two stamps, one close
      chart([{ meta, timestamp: [1704153600, 1704240000], indicators: { quote: [{ close: [1] }] } }]),
      // stamps and no closes at all
      chart([{ meta, timestamp: [1704153600], indicators: { quote: [{}] } }]),
      // no currency, or one that is no ISO code
      chart([{ meta: { gmtoffset: 0 }, indicators: { quote: [{}] } }]),
      chart([{ meta: { currency: "Dollars", gmtoffset: 0 }, indicators: { quote: [{}] } }]),
      // a stamp past 2200, a split of nothing, a negative dividend
      chart([{ meta, timestamp: [1e12], indicators: { quote: [{ close: [1] }] } }]),
      chart([
        {
          meta,
          events: { splits: { "1": { date: 1704153600, numerator: 0, denominator: 1 } } },
          indicators: { quote: [{}] },
        },
      ]),
      chart([{ meta, events: { dividends: { "1": { date: 1704153600, amount: -1 } } }, indicators: { quote: [{}] } }]),
      // 200 with no body
      "",
    ];
    for (const body of bodies) {
      await expect(kindOf(answering(200, body).getHistory(ASX("VAS"), RANGE))).resolves.toBe("invalid");
    }
    await expect(kindOf(answering(403, "<html>Forbidden</html>").getHistory(ASX("VAS"), RANGE))).resolves.toBe(
      "invalid",
    );
  });

  it("a client that cannot connect is unavailable; its own ProviderErrors and the caller's abort pass through", async () => {
    const throwing = (error: unknown): HttpClient => {
      return async () => {
        throw error;
      };
    };
    const refused = createYahooProvider({
      baseUrl: "http://yahoo.test",
      http: throwing(new TypeError("fetch failed")),
    });
    await expect(kindOf(refused.getHistory(ASX("VAS"), RANGE))).resolves.toBe("unavailable");

    const open = new ProviderError("unavailable", "circuit open");
    const breaker = createYahooProvider({ baseUrl: "http://yahoo.test", http: throwing(open) });
    await expect(breaker.getHistory(ASX("VAS"), RANGE)).rejects.toBe(open);

    const controller = new AbortController();
    controller.abort();
    const aborted = createYahooProvider({ baseUrl: "http://yahoo.test", http: replayHttpClient(FIXTURES) });
    const error = await aborted.getHistory(ASX("VAS"), RANGE, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect((error as Error).name).toBe("AbortError");
  });
});
