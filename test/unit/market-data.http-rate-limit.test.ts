import { resilientHttp } from "../../src/modules/market-data/providers/http";
import { fast, scripted, tick } from "./market-data.http.helpers";

/**
 * docs/data.md §1: each provider has its own rate limit. Requests beyond it wait their turn, first
 * come first served, rather than fail; a retry is a request too and queues behind those already
 * waiting. Told by counting the requests the server has seen, not by the clock.
 */
describe("the rate limit of a provider", () => {
  const url = (n: number) => `https://query1.finance.yahoo.com/v8/finance/chart/S${n}.AX`;

  it("2 requests per window: five at once reach the server 2, 2 and 1 per window, in order", async () => {
    const server = scripted({ status: 200 });
    const http = resilientHttp(server.client, { ...fast, rate: { requests: 2, perMs: 150 } });
    const seen = () => server.calls.map((c) => c.url);

    const all = Promise.all([1, 2, 3, 4, 5].map((n) => http(url(n))));
    await tick();
    // The first window: two let through, three queued.
    expect(seen()).toEqual([url(1), url(2)]);

    await until(() => server.calls.length >= 4);
    await tick();
    // The second window: the next two; the fifth still waits for the third window.
    expect(seen()).toEqual([url(1), url(2), url(3), url(4)]);

    expect((await all).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen()).toEqual([1, 2, 3, 4, 5].map(url));
  });

  it("a retry queues behind a request already waiting", async () => {
    // S1 answers 503 then 200; S2 answers 200. One request per window.
    const answers: Record<string, number[]> = { [url(1)]: [503, 200], [url(2)]: [200] };
    const calls: string[] = [];
    const http = resilientHttp(
      async (u) => {
        calls.push(u);
        const status = answers[u].shift()!;
        return { status, text: async () => "" };
      },
      { ...fast, rate: { requests: 1, perMs: 50 } },
    );

    const [first, second] = await Promise.all([http(url(1)), http(url(2))]);

    expect([first.status, second.status]).toEqual([200, 200]);
    // S1's first try, then S2 (queued first), then S1's retry.
    expect(calls).toEqual([url(1), url(2), url(1)]);
  });

  it("requests within the rate are not held back", async () => {
    const server = scripted({ status: 200 });
    const http = resilientHttp(server.client, { ...fast, rate: { requests: 3, perMs: 60_000 } });

    const all = Promise.all([1, 2, 3].map((n) => http(url(n))));
    await tick();

    expect(server.calls).toHaveLength(3);
    await all;
  });
});

/** Resolves once the condition holds, checking each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
