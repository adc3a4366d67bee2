import { resilientHttp } from "../../src/modules/market-data/providers/http";
import { URL_VAS, fast, scripted } from "./market-data.http.helpers";

/**
 * docs/data.md §1.3: between tries the wait grows exponentially, unless the server says how long
 * to wait: a Retry-After in seconds is honoured, capped by `maxDelayMs` so a provider cannot hold a
 * refresh for an hour. (An HTTP-date Retry-After is not read; the exponential wait applies.)
 */
describe("Retry-After between tries", () => {
  afterEach(() => jest.useRealTimers());

  it("Retry-After: 1 waits one second before the next try, and no less", async () => {
    // Fake timers, so the second passes without being waited for; the count of requests tells.
    jest.useFakeTimers();
    const server = scripted({ status: 429, headers: { "retry-after": "1" } }, { status: 200 });
    const delays: number[] = [];
    const http = resilientHttp(server.client, {
      ...fast,
      maxDelayMs: 30_000,
      onRetry: (r) => delays.push(r.delayMs),
    });

    const response = http(URL_VAS);
    await jest.advanceTimersByTimeAsync(999);
    expect(server.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);

    expect((await response).status).toBe(200);
    expect(server.calls).toHaveLength(2);
    // 1 s × 1000 ms.
    expect(delays).toEqual([1000]);
  });

  it("Retry-After: 0 means at once, though the exponential wait would be 5 s", async () => {
    const server = scripted({ status: 503, headers: { "Retry-After": "0" } }, { status: 200 });
    const delays: number[] = [];
    const http = resilientHttp(server.client, { ...fast, backoffMs: 5_000, onRetry: (r) => delays.push(r.delayMs) });

    expect((await http(URL_VAS)).status).toBe(200);
    expect(delays).toEqual([0]);
  });

  it("a Retry-After longer than maxDelayMs is cut to it", async () => {
    const server = scripted({ status: 429, headers: { "retry-after": "3600" } }, { status: 200 });
    const delays: number[] = [];
    const http = resilientHttp(server.client, { ...fast, maxDelayMs: 20, onRetry: (r) => delays.push(r.delayMs) });

    expect((await http(URL_VAS)).status).toBe(200);
    // 3600 s = 3,600,000 ms, capped at 20 ms.
    expect(delays).toEqual([20]);
  });

  it("without a Retry-After in seconds, the exponential wait applies", async () => {
    const server = scripted(
      { status: 429, headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" } },
      { status: 429 },
      { status: 200 },
    );
    const delays: number[] = [];
    const http = resilientHttp(server.client, { ...fast, maxDelayMs: 20, onRetry: (r) => delays.push(r.delayMs) });

    expect((await http(URL_VAS)).status).toBe(200);
    // Two jittered waits from a 1 ms base (cockatiel's decorrelated jitter): the second is at most
    // 2^2 × tanh(√8) / 1.4 × 1 ms ≈ 2.84 ms, far from the 20 ms cap that any Retry-After would hit.
    expect(delays).toHaveLength(2);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(3);
    }
  });
});
