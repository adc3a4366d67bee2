import { resilientHttp } from "../../src/modules/market-data/providers/http";
import { URL_VAS, fast, scripted } from "./market-data.http.helpers";

/**
 * docs/data.md §1.3: each try has a timeout (10 s; 50 ms here), reading the body included, and a
 * timed-out try is retried like a 5xx. The caller's own signal ends the request at once: that is
 * not the provider's failure, so it is neither retried nor counted by the breaker.
 */
describe("the timeout of a try", () => {
  it("a server that never answers: each try given up after the timeout, then unavailable", async () => {
    const server = scripted("hang");
    const http = resilientHttp(server.client, fast);

    await expect(http(URL_VAS)).rejects.toMatchObject({
      kind: "unavailable",
      message: "query1.finance.yahoo.com did not answer within 50 ms; tried 3 times",
    });
    expect(server.calls).toHaveLength(3);
    // Each try's signal was aborted, so a real fetch would have let its socket go.
    expect(server.calls.every((c) => c.signal?.aborted)).toBe(true);
  });

  it("the default timeout reads in seconds", async () => {
    const server = scripted("hang");
    const http = resilientHttp(server.client, { ...fast, timeoutMs: 1_000, tries: 1 });

    await expect(http(URL_VAS)).rejects.toMatchObject({
      message: "query1.finance.yahoo.com did not answer within 1 s; tried once",
    });
  });

  it("a timed-out try is retried, and the next answer returned", async () => {
    const server = scripted("hang", { status: 200, body: "ok" });
    const http = resilientHttp(server.client, fast);

    const response = await http(URL_VAS);

    expect(await response.text()).toBe("ok");
    expect(server.calls).toHaveLength(2);
  });

  it("a body that stalls is a timeout too", async () => {
    let calls = 0;
    const http = resilientHttp(
      async () => {
        calls++;
        return { status: 200, text: () => new Promise<string>(() => undefined) };
      },
      { ...fast, tries: 2 },
    );

    await expect(http(URL_VAS)).rejects.toMatchObject({
      message: "query1.finance.yahoo.com did not answer within 50 ms; tried 2 times",
    });
    expect(calls).toBe(2);
  });

  it("the caller's abort reaches the server's signal and ends the request, tried once", async () => {
    const server = scripted("hang");
    const http = resilientHttp(server.client, { ...fast, timeoutMs: 60_000 });
    const caller = new AbortController();

    const request = http(URL_VAS, { signal: caller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort(new Error("refresh cancelled"));

    await expect(request).rejects.toThrow("refresh cancelled");
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0].signal?.aborted).toBe(true);
  });

  it("aborted requests do not pause the provider", async () => {
    const server = scripted("hang");
    const http = resilientHttp(server.client, { ...fast, timeoutMs: 60_000, breakAfter: 2 });

    for (let i = 0; i < 3; i++) {
      const caller = new AbortController();
      const request = http(URL_VAS, { signal: caller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      caller.abort();
      await expect(request).rejects.toMatchObject({ name: "AbortError" });
    }

    expect(http.circuit().state).toBe("closed");
    expect(server.calls).toHaveLength(3);
  });

  it("a signal aborted before the call: no request at all", async () => {
    const server = scripted({ status: 200 });
    const http = resilientHttp(server.client, fast);

    await expect(http(URL_VAS, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(server.calls).toHaveLength(0);
  });
});
