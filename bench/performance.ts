import autocannon from "autocannon";

/**
 * B6, B9 and B11: the analytics of the B12 portfolio (50 holdings, 25 in USD, 20,000 trades, ten
 * years of daily prices and USD/AUD rates), over HTTP.
 *
 * B6: GET /v1/portfolios/{p}/performance over the ten years, the service against the same-run
 * baseline (raw node:http, raw SQL and a hand-written Float64 pass doing the same TWR and Dietz:
 * bench/baseline.ts). Cold: the request after a write that invalidates the portfolio's series (a
 * market price of a security it does not hold, posted untimed), so the service loads and computes
 * everything; warm: the same request again (the series cached). The ratio is baseline time /
 * service time (target ≥ 0.5), cold and warm separately; medians over rounds, interleaved.
 * B9: GET /health's p99 while a loop sends B6 requests back to back, cold (each after an
 * invalidating write) and warm (the cached series), reported apart (target ≤ 50 ms).
 * B11: a timeseries of 2015–2019 after an invalidation (cold), then one of 2020–2024 (another
 * range of the same portfolio: warm).
 */
interface Server {
  base: string;
}

const FROM = "2015-01-01";
const TO = "2024-12-31";

export async function performanceWorkloads(opts: {
  service: Server;
  baseline: Server;
  key: string;
  portfolioId: number;
  rounds: number;
  seconds: number;
  database: string;
  only: (name: string) => boolean;
}): Promise<void> {
  const { service, baseline, key, portfolioId, rounds, seconds, database } = opts;
  const headers = { authorization: key, "content-type": "application/json" };
  const path = `/v1/portfolios/${portfolioId}/performance?from=${FROM}&to=${TO}`;
  let invalidations = 0;
  /** A write to the account's prices: every series of the account is stale after it. */
  const invalidate = async () => {
    const day = new Date(Date.UTC(2000, 0, 1 + invalidations++)).toISOString().slice(0, 10);
    const res = await fetch(service.base + "/v1/market-prices/bulk", {
      method: "POST",
      headers,
      body: JSON.stringify([{ symbol: "BENCHCOLD", exchange: "ASX", date: day, close: 1 }]),
    });
    await res.text();
    if (res.status >= 300) throw new Error(`B6: invalidating write answered ${res.status}`);
  };
  const timed = async (s: Server, url: string) => {
    const t = performance.now();
    const res = await fetch(s.base + url, { headers });
    const body = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
    return {
      ms,
      body: JSON.parse(body) as {
        timeWeightedReturn: { cumulativePercent: number };
        modifiedDietz: { cumulativePercent: number };
      },
    };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

  if (opts.only("B6")) {
    // Correctness first: the same TWR and Dietz to 1e-6 relative.
    await invalidate();
    const [s0, b0] = [await timed(service, path), await timed(baseline, path)];
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
    if (
      !close(s0.body.timeWeightedReturn.cumulativePercent, b0.body.timeWeightedReturn.cumulativePercent) ||
      !close(s0.body.modifiedDietz.cumulativePercent, b0.body.modifiedDietz.cumulativePercent)
    ) {
      throw new Error(
        `B6: returns differ: service ${JSON.stringify([s0.body.timeWeightedReturn, s0.body.modifiedDietz])} vs baseline ${JSON.stringify([b0.body.timeWeightedReturn, b0.body.modifiedDietz])}`,
      );
    }
    const runs = { cold: [] as number[], warm: [] as number[], baseline: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      await invalidate();
      const measure = async () => {
        runs.cold.push((await timed(service, path)).ms);
        for (let i = 0; i < 3; i++) runs.warm.push((await timed(service, path)).ms);
      };
      if (r % 2 === 0) {
        await measure();
        runs.baseline.push((await timed(baseline, path)).ms);
      } else {
        runs.baseline.push((await timed(baseline, path)).ms);
        await measure();
      }
    }
    const [cold, warm, base] = [median(runs.cold), median(runs.warm), median(runs.baseline)];
    console.log(
      JSON.stringify({
        workload: "B6 GET /performance, 50 holdings × 20,000 trades × 10 years of daily prices and FX",
        database,
        node: process.version,
        serviceMs: { cold: round(cold), warm: round(warm) },
        baselineMs: round(base),
        ratio: { cold: round(base / cold, 3), warm: round(base / warm, 3) },
        target: "ratio ≥ 0.5 (service within 2× of the baseline)",
        returns: {
          timeWeightedPercent: s0.body.timeWeightedReturn.cumulativePercent,
          modifiedDietzPercent: s0.body.modifiedDietz.cumulativePercent,
        },
        rounds,
      }),
    );
  }

  if (opts.only("B9")) {
    const health = () => autocannon({ url: service.base + "/health", connections: 1, duration: seconds });
    await health();
    /** /health's p99 over each round while `report` runs back to back; and how many reports ran. */
    const whileLooping = async (report: () => Promise<unknown>) => {
      const p99s: number[] = [];
      let reports = 0;
      for (let r = 0; r < rounds; r++) {
        let running = true;
        const loop = (async () => {
          while (running) {
            await report();
            reports++;
          }
        })();
        p99s.push((await health()).latency.p99);
        running = false;
        await loop;
      }
      return { p99: median(p99s), rounds: p99s, reports };
    };
    const quiet: number[] = [];
    for (let r = 0; r < rounds; r++) quiet.push((await health()).latency.p99);
    // Cold: every report after an invalidating write (loads and computes all); warm: the cached series.
    const cold = await whileLooping(async () => {
      await invalidate();
      await timed(service, path);
    });
    await timed(service, path);
    const warm = await whileLooping(() => timed(service, path));
    console.log(
      JSON.stringify({
        workload: "B9 GET /health p99 while B6 reports run back to back, cold and warm",
        database,
        node: process.version,
        health: {
          p99WhileCold: cold.p99,
          p99WhileColdRounds: cold.rounds,
          p99WhileWarm: warm.p99,
          p99WhileWarmRounds: warm.rounds,
          p99Quiet: median(quiet),
        },
        targetMs: 50,
        withinTarget: { cold: cold.p99 <= 50, warm: warm.p99 <= 50 },
        reportsDuringMeasurement: { cold: cold.reports, warm: warm.reports },
        rounds,
        secondsPerRound: seconds,
      }),
    );
  }

  if (opts.only("B11")) {
    const first = `/v1/portfolios/${portfolioId}/timeseries?from=2015-01-01&to=2019-12-31`;
    const second = `/v1/portfolios/${portfolioId}/timeseries?from=2020-01-01&to=2024-12-31`;
    const cold: number[] = [];
    const warm: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await invalidate();
      cold.push((await timed(service, first)).ms);
      warm.push((await timed(service, second)).ms);
    }
    console.log(
      JSON.stringify({
        workload: "B11 timeseries 2015–2019 (cold) then 2020–2024 of the same portfolio (warm), monthly points",
        database,
        node: process.version,
        firstRangeColdMs: round(median(cold)),
        secondRangeWarmMs: round(median(warm)),
        ratio: round(median(cold) / median(warm), 2),
        rounds,
      }),
    );
  }
}
