import { call, describeOnPostgres, startInstallation, type Installation } from "../support/processes";

/**
 * OPERATIONS.md §1, caches: a write through one process is seen by the next read through any
 * other. Each process keeps its own caches (the daily series, positions); they are keyed by the
 * ledger versions the writing transaction bumps, so a process whose cache was warmed before
 * another process wrote must not answer from it.
 */
describeOnPostgres("a write through one process, read through the others", () => {
  let site: Installation;
  beforeAll(async () => {
    site = await startInstallation(3);
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  const TIMESERIES = "timeseries?from=2024-06-24&to=2024-07-05&interval=day";

  it("holdings and the valuation series agree on every process right after each write", async () => {
    const [a] = site.processes;
    const portfolio = await call(a.base, "POST", "/v1/portfolios", { key: site.key, body: { name: "Shared" } });
    expect(portfolio.status).toBe(201);
    const p = portfolio.body.id as number;
    const trade = (tradeDate: string, quantity: number, price: number, tradeType = "Buy") => ({
      portfolioId: p,
      symbol: "VAS",
      exchange: "ASX",
      tradeType,
      tradeDate,
      quantity,
      price,
    });
    expect(
      (await call(a.base, "POST", "/v1/trades", { key: site.key, body: trade("2024-06-25", 10, 90) })).status,
    ).toBe(201);

    const read = async (base: string) => {
      const holdings = await call(base, "GET", `/v1/portfolios/${p}/holdings`, { key: site.key });
      const series = await call(base, "GET", `/v1/portfolios/${p}/${TIMESERIES}`, { key: site.key });
      expect(holdings.status).toBe(200);
      expect(series.status).toBe(200);
      return { holdings: holdings.body, series: series.body };
    };
    // Every process answers once, so each holds the series in its cache.
    const warmed = await Promise.all(site.processes.map((proc) => read(proc.base)));
    for (const w of warmed) expect(w).toEqual(warmed[0]);

    const writes = [
      { via: 1, trade: trade("2024-06-27", 5, 100), units: 15, lastValue: 1500 },
      { via: 2, trade: trade("2024-07-01", 3, 110, "Sell"), units: 12, lastValue: 1320 },
      { via: 0, trade: trade("2024-07-03", 8, 95), units: 20, lastValue: 1900 },
    ];
    for (const w of writes) {
      const writer = site.processes[w.via];
      const created = await call(writer.base, "POST", "/v1/trades", { key: site.key, body: w.trade });
      expect(created.status).toBe(201);
      // The next read through each other process, then the writer: all the same, all with the write.
      const others = site.processes.filter((proc) => proc !== writer);
      const seen = [];
      for (const proc of [...others, writer]) seen.push({ index: proc.index, ...(await read(proc.base)) });
      for (const s of seen) {
        expect({ index: s.index, units: s.holdings[0].quantity }).toEqual({ index: s.index, units: w.units });
        const last = s.series[s.series.length - 1];
        expect({ index: s.index, date: last.date, marketValue: last.marketValue }).toEqual({
          index: s.index,
          date: "2024-07-05",
          marketValue: w.lastValue,
        });
        expect(s.holdings).toEqual(seen[0].holdings);
        expect(s.series).toEqual(seen[0].series);
      }
    }
  }, 120_000);
});
