import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { replayHttpClient } from "../../src/modules/market-data/providers/replay";
import { createYahooProvider } from "../../src/modules/market-data/providers/yahoo";

/**
 * `MARKET_DATA_PROVIDER=replay` (docs/data.md §1): recorded files answer instead of the network,
 * and no URL can read a file outside the recordings.
 */
const FIXTURES = path.join(__dirname, "../fixtures/providers");
const BASE = "http://192.0.2.1"; // TEST-NET-1: nothing answers there, so a real request would hang

async function get(client: ReturnType<typeof replayHttpClient>, url: string) {
  const response = await client(url);
  return { status: response.status, body: await response.text() };
}

describe("the replaying HTTP client", () => {
  const replay = replayHttpClient(FIXTURES);
  let fetchSpy: jest.SpyInstance;
  let scratch: string;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "yahoo-helper-replay-"));
    fs.mkdirSync(path.join(scratch, "rba"));
    fs.mkdirSync(path.join(scratch, "yahoo"));
    fs.writeFileSync(path.join(scratch, "rba", "f11.1-data.csv"), "F11.1  EXCHANGE RATES\nUnits,USD\n");
    fs.writeFileSync(path.join(scratch, "yahoo", "ODD.AX.status"), "soon\n");
    fs.writeFileSync(path.join(scratch, "secret.json"), '{"secret":true}');
  });

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, "fetch");
  });

  afterEach(() => {
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it("answers a chart path from <dir>/yahoo/<decoded symbol>.json, whatever the host and query", async () => {
    const vas = await get(replay, `${BASE}/v8/finance/chart/VAS.AX?period1=1&period2=2&interval=1d`);
    expect(vas.status).toBe(200);
    expect(vas.body).toBe(fs.readFileSync(path.join(FIXTURES, "yahoo", "VAS.AX.json"), "utf8"));
    const fx = await get(replay, "https://elsewhere.example/prefix/v8/finance/chart/AUDUSD%3DX");
    expect(fx.status).toBe(200);
    expect(JSON.parse(fx.body).chart.result[0].meta.symbol).toBe("AUDUSD=X");
  });

  it("answers with a recorded status: with the recorded body, or an empty one", async () => {
    const missing = await get(replay, `${BASE}/v8/finance/chart/NOTFOUND.AX`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).chart.error.code).toBe("Not Found");
    expect(await get(replay, `${BASE}/v8/finance/chart/BUSY.AX`)).toEqual({ status: 503, body: "" });
  });

  it("a status file that holds no status is a broken recording, said loudly", async () => {
    await expect(replayHttpClient(scratch)(`${BASE}/v8/finance/chart/ODD.AX`)).rejects.toThrow(/HTTP status/);
  });

  it("a symbol with no recording answers Yahoo's 404", async () => {
    const response = await get(replay, `${BASE}/v8/finance/chart/NOPE.AX`);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({
      chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } },
    });
  });

  it("no URL reads outside <dir>/yahoo", async () => {
    const client = replayHttpClient(path.join(scratch));
    const attempts = [
      "/v8/finance/chart/..%2Fsecret",
      "/v8/finance/chart/%2E%2E%2Fsecret",
      "/v8/finance/chart/%2e%2e",
      "/v8/finance/chart/..",
      "/v8/finance/chart/../../secret.json",
      "/v8/finance/chart/.%2E/secret",
      "/v8/finance/chart/%252e%252e%252fsecret",
      "/v8/finance/chart/%00secret",
      "/v8/finance/chart/%E0%A4%A",
      "/v8/finance/chart/secret%2Fx",
      "/v8/finance/chart/",
      "/secret.json",
      "/v8/finance/chart/a/b",
    ];
    for (const attempt of attempts) {
      const response = await get(client, BASE + attempt);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain("secret");
    }
  });

  it("answers any URL ending in f11.1-data.csv from <dir>/rba/f11.1-data.csv", async () => {
    const client = replayHttpClient(scratch);
    const rba = await get(client, "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv");
    expect(rba).toEqual({ status: 200, body: "F11.1  EXCHANGE RATES\nUnits,USD\n" });
    expect((await get(client, `${BASE}/mirror/f11.1-data.csv?v=2`)).status).toBe(200);
    // A directory with no rba/ recording: 404.
    const yahooOnly = replayHttpClient(path.join(scratch, "yahoo"));
    expect((await get(yahooOnly, "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv")).status).toBe(404);
    expect((await get(client, `${BASE}/statistics/f11.1-data.csv.bak`)).status).toBe(404);
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(replay(`${BASE}/v8/finance/chart/VAS.AX`, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("the Yahoo provider runs unchanged over it", async () => {
    const provider = createYahooProvider({ baseUrl: BASE, http: replay });
    const history = await provider.getHistory(
      { symbol: "VAS", exchange: "ASX" },
      { from: "2024-07-01", to: "2024-07-01" },
    );
    // The fixture's 2024-07-01 bar (95.95) and its 0.9 dividend.
    expect(history.prices).toEqual([{ date: "2024-07-01", close: "95.95" }]);
    expect(history.dividends).toEqual([{ exDate: "2024-07-01", amount: "0.9" }]);
  });
});
