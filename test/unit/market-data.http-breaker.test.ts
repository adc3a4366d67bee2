import { resilientHttp, type ResilientHttpClient } from "../../src/modules/market-data/providers/http";
import { URL_VAS, fast, scripted, sleep } from "./market-data.http.helpers";

/**
 * docs/data.md §1.3: after 5 failures in a row a provider pauses for 60 s (30 ms here). While
 * paused, a request fails at once, without reaching the server, saying until when and why; after
 * the pause one trial request goes through, and its outcome closes or reopens the breaker. A
 * failure is a try that timed out, failed at the network, or answered 429 or 5xx.
 * (Pauses here are 200 ms, long enough that "still paused" holds on a slow machine.)
 */
describe("the circuit breaker of a provider", () => {
  const PAUSED = /^yahoo is paused until (\S+) after 5 failures in a row \(the last: (.+)\)$/;
  const pausing = { ...fast, pauseMs: 200 };
  const waitOutPause = (http: ResilientHttpClient) => sleep(Date.parse(http.circuit().pausedUntil!) - Date.now() + 5);

  it("five failed requests pause it; the sixth fails fast; after the pause a trial closes it", async () => {
    const server = scripted(...Array(5).fill({ status: 503 }), { status: 200, body: "back" });
    const http = resilientHttp(server.client, { ...pausing, tries: 1 });

    for (let i = 0; i < 5; i++) {
      await expect(http(URL_VAS)).rejects.toMatchObject({
        kind: "unavailable",
        message: "query1.finance.yahoo.com answered HTTP 503 Service Unavailable; tried once",
      });
    }
    const before = Date.now();
    const paused = http(URL_VAS);

    await expect(paused).rejects.toMatchObject({ kind: "unavailable", message: expect.stringMatching(PAUSED) });
    expect(server.calls).toHaveLength(5);
    const status = http.circuit();
    expect(status).toMatchObject({
      state: "open",
      lastFailure: "query1.finance.yahoo.com answered HTTP 503 Service Unavailable",
    });
    // The pause began at the fifth failure, before `before`, and lasts 200 ms.
    expect(Date.parse(status.pausedUntil!)).toBeLessThanOrEqual(before + 200);
    const message = await paused.then(
      () => "",
      (e: Error) => e.message,
    );
    expect(PAUSED.exec(message)?.[1]).toBe(status.pausedUntil);

    await waitOutPause(http);
    expect(http.circuit().state).toBe("half-open");
    expect(await (await http(URL_VAS)).text()).toBe("back");
    expect(server.calls).toHaveLength(6);
    expect(http.circuit()).toEqual({ state: "closed", pausedUntil: null, lastFailure: null });
  });

  it("with 3 tries a request, the second request's second try is the fifth failure", async () => {
    const server = scripted({ status: 500 });
    const http = resilientHttp(server.client, pausing);

    await expect(http(URL_VAS)).rejects.toMatchObject({ message: expect.stringMatching(/tried 3 times$/) });
    // Tries 4 and 5 fail; the breaker opens, so the third try of this request is not made.
    await expect(http(URL_VAS)).rejects.toMatchObject({ message: expect.stringMatching(PAUSED) });
    expect(server.calls).toHaveLength(5);
  });

  it("a trial that fails pauses it again", async () => {
    const server = scripted("network-error");
    const http = resilientHttp(server.client, { ...pausing, tries: 1 });
    for (let i = 0; i < 5; i++) await expect(http(URL_VAS)).rejects.toThrow("could not be reached");

    await waitOutPause(http);
    await expect(http(URL_VAS)).rejects.toThrow(
      "query1.finance.yahoo.com could not be reached (fetch failed); tried once",
    );

    expect(server.calls).toHaveLength(6);
    expect(http.circuit()).toMatchObject({
      state: "open",
      lastFailure: "query1.finance.yahoo.com could not be reached (fetch failed)",
    });
    await expect(http(URL_VAS)).rejects.toMatchObject({ message: expect.stringMatching(PAUSED) });
    expect(server.calls).toHaveLength(6);
  });

  it("a 404 is an answer, not a failure: it breaks the run of failures", async () => {
    const server = scripted(...Array(4).fill({ status: 503 }), { status: 404 }, ...Array(4).fill({ status: 503 }), {
      status: 200,
    });
    const http = resilientHttp(server.client, { ...fast, tries: 1 });

    for (let i = 0; i < 4; i++) await expect(http(URL_VAS)).rejects.toThrow("503");
    expect((await http(URL_VAS)).status).toBe(404);
    for (let i = 0; i < 4; i++) await expect(http(URL_VAS)).rejects.toThrow("503");

    // 4 + 4 failures, never 5 in a row: still closed, and the next request reaches the server.
    expect(http.circuit().state).toBe("closed");
    expect((await http(URL_VAS)).status).toBe(200);
    expect(server.calls).toHaveLength(10);
  });
});
