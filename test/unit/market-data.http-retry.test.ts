import { ProviderError } from "../../src/modules/market-data/providers/provider";
import { resilientHttp } from "../../src/modules/market-data/providers/http";
import { URL_VAS, fast, scripted } from "./market-data.http.helpers";

/**
 * docs/data.md §1.3: a timeout, 429 or 5xx is retried with backoff, 3 tries in all; after the last,
 * the provider is "unavailable" with a message that names the host, the status and the tries. Any
 * other answer (404, 400) is the provider's to read, so it comes back as it is, tried once.
 */
describe("retries of a provider request", () => {
  it("a 429 is tried again, and the answer after it returned", async () => {
    const server = scripted({ status: 429 }, { status: 200, body: '{"chart":{}}' });
    const http = resilientHttp(server.client, fast);

    const response = await http(URL_VAS);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"chart":{}}');
    expect(server.calls.map((c) => c.url)).toEqual([URL_VAS, URL_VAS]);
  });

  it("a 503 and a network error are tried again too", async () => {
    const server = scripted({ status: 503 }, "network-error", { status: 200 });
    const retries: string[] = [];
    const http = resilientHttp(server.client, { ...fast, onRetry: (r) => retries.push(`${r.attempt}: ${r.reason}`) });

    expect((await http(URL_VAS)).status).toBe(200);
    // Three tries: the first two failed, each reported before its wait.
    expect(server.calls).toHaveLength(3);
    expect(retries).toEqual([
      "1: HTTP 503 Service Unavailable",
      "2: query1.finance.yahoo.com could not be reached (fetch failed)",
    ]);
  });

  it("three 503s in a row: unavailable, saying which host, what status and how many tries", async () => {
    const server = scripted({ status: 503 });
    const http = resilientHttp(server.client, fast);

    const failure = http(URL_VAS);

    await expect(failure).rejects.toThrow(ProviderError);
    await expect(failure).rejects.toMatchObject({
      kind: "unavailable",
      message: "query1.finance.yahoo.com answered HTTP 503 Service Unavailable; tried 3 times",
    });
    expect(server.calls).toHaveLength(3);
  });

  it("three network errors: unavailable, with the network's own reason", async () => {
    const server = scripted("network-error");
    const http = resilientHttp(server.client, fast);

    await expect(http(URL_VAS)).rejects.toMatchObject({
      kind: "unavailable",
      message: "query1.finance.yahoo.com could not be reached (fetch failed); tried 3 times",
    });
    expect(server.calls).toHaveLength(3);
  });

  it("the number of tries is an option", async () => {
    const server = scripted({ status: 502 });
    const http = resilientHttp(server.client, { ...fast, tries: 1 });

    await expect(http(URL_VAS)).rejects.toMatchObject({
      message: "query1.finance.yahoo.com answered HTTP 502 Bad Gateway; tried once",
    });
    expect(server.calls).toHaveLength(1);
  });

  it("a 404 is returned to the provider as it is, tried once", async () => {
    const body = '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}';
    const server = scripted({ status: 404, body }, { status: 200 });
    const http = resilientHttp(server.client, fast);

    const response = await http(URL_VAS);

    expect(response.status).toBe(404);
    expect(await response.text()).toBe(body);
    expect(server.calls).toHaveLength(1);
  });

  it("a 400 is not retried either", async () => {
    const server = scripted({ status: 400 }, { status: 200 });
    const http = resilientHttp(server.client, fast);

    expect((await http(URL_VAS)).status).toBe(400);
    expect(server.calls).toHaveLength(1);
  });

  it("the caller's headers reach the server", async () => {
    let seen: Record<string, string> | undefined;
    const http = resilientHttp(async (_url, init) => {
      seen = init?.headers;
      return { status: 200, text: async () => "" };
    }, fast);

    await http(URL_VAS, { headers: { accept: "application/json" } });

    expect(seen).toEqual({ accept: "application/json" });
  });
});
