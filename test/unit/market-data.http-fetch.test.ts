import http from "node:http";
import type { AddressInfo } from "node:net";
import { fetchHttpClient, resilientHttp } from "../../src/modules/market-data/providers/http";
import { fast } from "./market-data.http.helpers";

/**
 * The service's client is `fetch` behind the resilience (docs/data.md §1.3). Against a server on
 * the loopback interface (no network needed): headers go out, Retry-After comes back and is read.
 */
describe("fetch as the provider's client", () => {
  let server: http.Server;
  let base: string;
  const seen: { accept?: string }[] = [];
  let answers: { status: number; headers?: Record<string, string>; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ accept: req.headers.accept });
      const answer = answers.shift() ?? { status: 500, body: "" };
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  it("a 429 with Retry-After: 0, then the body", async () => {
    answers = [
      { status: 429, headers: { "Retry-After": "0" }, body: "slow down" },
      { status: 200, body: "Units,USD" },
    ];
    const delays: number[] = [];
    // A real socket: a generous timeout, so a slow machine's first connection is not a failed try.
    const client = resilientHttp(fetchHttpClient, {
      ...fast,
      timeoutMs: 10_000,
      backoffMs: 5_000,
      maxDelayMs: 30_000,
      onRetry: (r) => delays.push(r.delayMs),
    });

    const response = await client(`${base}/f11.1-data.csv`, { headers: { accept: "text/csv" } });

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Units,USD");
    // The header was read from fetch's Headers: 0 s, not the 5 s exponential wait.
    expect(delays).toEqual([0]);
    expect(seen).toEqual([{ accept: "text/csv" }, { accept: "text/csv" }]);
  });
});
