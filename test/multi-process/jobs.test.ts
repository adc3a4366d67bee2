import http from "node:http";
import type { AddressInfo } from "node:net";
import { chart } from "../support/fake-market";
import { call, describeOnPostgres, startInstallation, within, type Installation } from "../support/processes";

/**
 * OPERATIONS.md §1, jobs: the market-data refresh runs in one process at a time for the whole
 * installation (a PostgreSQL advisory lock), whether asked of every process at once or fired by
 * every process's schedule at the same moment. The local fake Yahoo answers slowly, so a run
 * lasts long enough for the other processes' attempts to meet it.
 */
const ANSWER_DELAY_MS = 1_000;
const asked: string[] = [];
let fake: http.Server;
let fakeUrl: string;

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    asked.push((req.url ?? "").split("?")[0]);
    res.setHeader("connection", "close");
    setTimeout(() => {
      if (req.url?.startsWith("/v8/finance/chart/VAS.AX?"))
        return void res.end(chart("VAS.AX", "AUD", [["2024-07-01", 95.95]], {}, "ETF"));
      res.statusCode = 404;
      res.end('{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}');
    }, ANSWER_DELAY_MS);
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => fake.close(resolve)));

interface Run {
  id: number;
  trigger: string;
  status: string;
  started: Date;
  finished: Date | null;
}
const runs = (site: Installation) =>
  site.sql<Run>(
    `SELECT id, trigger, status::text AS status, started_at AS started, finished_at AS finished FROM market_data_run ORDER BY id`,
  );

async function holdVas(site: Installation) {
  const { base } = site.processes[0];
  const portfolio = await call(base, "POST", "/v1/portfolios", { key: site.key, body: { name: "P" } });
  const body = {
    portfolioId: portfolio.body.id,
    symbol: "VAS",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-06-25",
    quantity: 10,
    price: 90,
  };
  expect((await call(base, "POST", "/v1/trades", { key: site.key, body })).status).toBe(201);
}

/** No two runs overlap in time. */
function expectOneAtATime(all: Run[]) {
  for (let i = 1; i < all.length; i++) {
    expect(all[i - 1].finished).not.toBeNull();
    expect(all[i - 1].finished!.getTime()).toBeLessThanOrEqual(all[i].started.getTime());
  }
}

describeOnPostgres("the market-data refresh asked of three processes at once", () => {
  let site: Installation;
  beforeAll(async () => {
    const env = { MARKET_DATA_PROVIDER: "yahoo", MARKET_DATA_URL: fakeUrl, MARKET_DATA_SCHEDULE: "off" };
    site = await startInstallation(3, { env });
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  it("runs once: every process answers the same run, and the provider is asked once", async () => {
    await holdVas(site);
    asked.length = 0;
    const answers = await Promise.all(
      site.processes.map((p) => call(p.base, "POST", "/v1/market-data/refresh", { key: site.key, body: {} })),
    );
    for (const a of answers) expect(a.status).toBe(202);
    const ids = answers.map((a) => a.body.runId ?? a.body.id);
    expect(new Set(ids).size).toBe(1);
    expect(
      await within(30_000, async () => (await runs(site)).every((r) => r.status !== "Running"), 100),
    ).not.toBeNull();
    const all = await runs(site);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: ids[0], trigger: "request", status: "Succeeded" });
    expect(asked).toEqual(["/v8/finance/chart/VAS.AX"]);
  }, 60_000);
});

describeOnPostgres("the market-data schedule firing on three processes at once", () => {
  // Every 3 seconds, on the second: each process's timer fires at the same moment.
  const EVERY_S = 3;
  let site: Installation;
  beforeAll(async () => {
    const env = {
      MARKET_DATA_PROVIDER: "yahoo",
      MARKET_DATA_URL: fakeUrl,
      MARKET_DATA_SCHEDULE: `*/${EVERY_S} * * * * *`,
    };
    site = await startInstallation(3, { env });
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  it("runs once per firing, one run at a time, each asking the provider once", async () => {
    await holdVas(site);
    const idle = async () => (await runs(site)).every((r) => r.status !== "Running");
    expect(await within(30_000, idle, 20)).not.toBeNull();
    const since = Date.now();
    asked.length = 0;
    const scheduled = async () =>
      (await runs(site)).filter((r) => r.trigger === "schedule" && r.started.getTime() >= since);
    expect(await within(30_000, async () => (await scheduled()).length >= 3, 200)).not.toBeNull();
    // A quiet moment (no run, none starting) to read the provider's log and the runs together.
    let requested = -1;
    let fired: Run[] = [];
    const quiet = async () => {
      const before = await runs(site);
      requested = asked.length;
      const after = await runs(site);
      fired = after.filter((r) => r.trigger === "schedule" && r.started.getTime() >= since);
      return after.length === before.length && after.every((r) => r.status !== "Running");
    };
    expect(await within(30_000, quiet, 20)).not.toBeNull();

    expectOneAtATime(await runs(site));
    const ticks = fired.map((r) => Math.floor(r.started.getTime() / (EVERY_S * 1000)));
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const r of fired) expect(r.status).toBe("Succeeded");
    // Each run asked for the one security it holds, once; no firing ran twice.
    expect(requested).toBe(fired.length);
    expect(new Set(asked)).toEqual(new Set(["/v8/finance/chart/VAS.AX"]));
  }, 90_000);
});
