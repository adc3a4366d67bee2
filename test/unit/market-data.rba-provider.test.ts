import fs from "node:fs";
import path from "node:path";
import type { HttpClient } from "../../src/modules/market-data/providers/provider";
import { resilientHttp } from "../../src/modules/market-data/providers/http";
import { createRbaProvider } from "../../src/modules/market-data/providers/rba";
import { fast, scripted } from "./market-data.http.helpers";

/**
 * docs/data.md §1.2: the RBA provider answers A$-based pairs from the one F11.1 file, fetched once
 * per call, with only the pairs asked for, within the range (both ends included), in date order.
 * The fixture's rows: 22, 27, 28, 29 Dec 2023 and 2, 3 Jan 2024; CNY blank on 28 Dec.
 */
const URL_F11 = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv";
const f11 = fs.readFileSync(path.join(__dirname, "../fixtures/providers/rba/f11.1-data.csv"), "utf8");
const ALL = { from: "2023-01-01", to: "2024-12-31" };

function serving(status: number, body: string) {
  const calls: { url: string; signal?: AbortSignal }[] = [];
  const http: HttpClient = async (url, init) => {
    calls.push({ url, signal: init?.signal });
    return { status, text: async () => body };
  };
  return { http, calls };
}

describe("the RBA FX provider", () => {
  it("answers only the pairs asked for, from one request to the configured URL", async () => {
    const server = serving(200, f11);
    const rba = createRbaProvider({ url: URL_F11, http: server.http });

    const rates = await rba.getRates(
      [
        { base: "AUD", quote: "USD" },
        { base: "AUD", quote: "EUR" },
      ],
      ALL,
    );

    expect(server.calls.map((c) => c.url)).toEqual([URL_F11]);
    expect(new Set(rates.map((r) => r.quote))).toEqual(new Set(["USD", "EUR"]));
    // 6 days × 2 currencies, none blank.
    expect(rates).toHaveLength(12);
  });

  it("within the range, both ends included, in date order", async () => {
    const rba = createRbaProvider({ url: URL_F11, http: serving(200, f11).http });

    const rates = await rba.getRates(
      [
        { base: "AUD", quote: "CNY" },
        { base: "AUD", quote: "USD" },
      ],
      { from: "2023-12-27", to: "2024-01-02" },
    );

    // 27, 28, 29 Dec and 2 Jan; CNY has no 28 Dec. Within a date, the file's column order (USD, CNY).
    expect(rates.map((r) => `${r.date} ${r.quote} ${r.rate}`)).toEqual([
      "2023-12-27 USD 0.6812",
      "2023-12-27 CNY 4.8634",
      "2023-12-28 USD 0.6845",
      "2023-12-29 USD 0.6827",
      "2023-12-29 CNY 4.8536",
      "2024-01-02 USD 0.6812",
      "2024-01-02 CNY 4.8543",
    ]);
  });

  it("a range on a holiday weekend alone: no rates", async () => {
    const rba = createRbaProvider({ url: URL_F11, http: serving(200, f11).http });

    expect(await rba.getRates([{ base: "AUD", quote: "USD" }], { from: "2023-12-23", to: "2023-12-26" })).toEqual([]);
  });

  it("supports A$-based pairs only: USD/AUD is the ledger's inverse of AUD/USD", () => {
    const rba = createRbaProvider({ url: URL_F11, http: serving(200, f11).http });

    expect(rba.id).toBe("rba");
    expect(rba.supports({ base: "AUD", quote: "USD" })).toBe(true);
    expect(rba.supports({ base: "AUD", quote: "GBP" })).toBe(true);
    expect(rba.supports({ base: "USD", quote: "AUD" })).toBe(false);
    expect(rba.supports({ base: "NZD", quote: "USD" })).toBe(false);
    expect(rba.supports({ base: "AUD", quote: "AUD" })).toBe(false);
    expect(rba.supports({ base: "AUD", quote: "SDR" })).toBe(false);
  });

  it("pairs it cannot answer are left out; with none it can, nothing is fetched", async () => {
    const server = serving(200, f11);
    const rba = createRbaProvider({ url: URL_F11, http: server.http });

    // GBP is not in this slice of the file; USD/AUD is not A$-based.
    const rates = await rba.getRates(
      [
        { base: "AUD", quote: "GBP" },
        { base: "USD", quote: "AUD" },
        { base: "AUD", quote: "JPY" },
      ],
      ALL,
    );
    expect(new Set(rates.map((r) => r.quote))).toEqual(new Set(["JPY"]));

    expect(await rba.getRates([{ base: "USD", quote: "AUD" }], ALL)).toEqual([]);
    expect(server.calls).toHaveLength(1);
  });

  it("passes the caller's signal to the client", async () => {
    const server = serving(200, f11);
    const rba = createRbaProvider({ url: URL_F11, http: server.http });
    const caller = new AbortController();

    await rba.getRates([{ base: "AUD", quote: "USD" }], ALL, { signal: caller.signal });

    expect(server.calls[0].signal).toBe(caller.signal);
  });

  it("an HTML page with a 200 is invalid", async () => {
    const html = fs.readFileSync(path.join(__dirname, "../fixtures/providers/rba/access-denied.html"), "utf8");
    const rba = createRbaProvider({ url: URL_F11, http: serving(200, html).http });

    await expect(rba.getRates([{ base: "AUD", quote: "USD" }], ALL)).rejects.toMatchObject({ kind: "invalid" });
  });

  it("a 404 is not-found; another refusal (Akamai's 403) is unavailable", async () => {
    const missing = createRbaProvider({ url: URL_F11, http: serving(404, "Not Found").http });
    const refused = createRbaProvider({ url: URL_F11, http: serving(403, "Access Denied").http });

    await expect(missing.getRates([{ base: "AUD", quote: "USD" }], ALL)).rejects.toMatchObject({
      kind: "not-found",
      message: `${URL_F11} answered HTTP 404: no F11.1 file there`,
    });
    await expect(refused.getRates([{ base: "AUD", quote: "USD" }], ALL)).rejects.toMatchObject({
      kind: "unavailable",
      message: `${URL_F11} answered HTTP 403`,
    });
  });

  it("behind the resilient client: a 503 is retried, three are unavailable", async () => {
    const flaky = scripted({ status: 503 }, { status: 200, body: f11 });
    const rba = createRbaProvider({ url: URL_F11, http: resilientHttp(flaky.client, { ...fast, provider: "rba" }) });
    expect(await rba.getRates([{ base: "AUD", quote: "EUR" }], ALL)).toHaveLength(6);
    expect(flaky.calls).toHaveLength(2);

    const down = scripted({ status: 503 });
    const rbaDown = createRbaProvider({ url: URL_F11, http: resilientHttp(down.client, { ...fast, provider: "rba" }) });
    await expect(rbaDown.getRates([{ base: "AUD", quote: "EUR" }], ALL)).rejects.toMatchObject({
      kind: "unavailable",
      message: "www.rba.gov.au answered HTTP 503 Service Unavailable; tried 3 times",
    });
  });
});
