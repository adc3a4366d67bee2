/**
 * npm run bench: the service against a same-run baseline, interleaved (performance.md §5.1).
 *
 *   B2  GET /v1/sources                         vs raw node:http + raw SQL
 *   B4  GraphQL portfolios{models{buckets}}     vs raw node:http + 3 raw SQL + hand-built tree
 *   B10 import 20,000 trades (JSON)             vs raw node:http + one unnest INSERT, no checks
 *   B6  GET /performance of the B12 portfolio, cold and warm (bench/performance.ts)
 *                                               vs raw node:http + raw SQL + a Float64 TWR pass; target ≥ 0.5
 *   B9  GET /health p99 while cold B6 reports loop; target ≤ 50 ms
 *   B11 timeseries of one range (cold) then another of the same portfolio (warm)
 *   B7  capital gains report of one year, 10,000 vs 20,000 trades (bench/capital-gains.ts); target ≤ 2.3×
 *   B8  computeRebalance, 500 holdings × 50 buckets: p50/p99 (bench/rebalance.ts); target p50 ≤ 50 ms
 *   B12 daily valuation, 50 holdings × 20,000 trades × 10 years (in-process: bench/daily-valuation.ts)
 *                                               vs plain SELECTs + a hand-written Float64 pass
 *   B13 holdings of a 20,000-trade portfolio    vs raw node:http + raw SQL + Float64 FIFO
 *   B14 GET /health p99 while abusive GraphQL   (bench/abuse.ts) hammers the service; target ≤ 100 ms
 *   B15 GET /health p99 while a market-data refresh of 200 securities × 10 years runs against a
 *       fake Yahoo (bench/market-refresh.ts, on a server of its own); target ≤ 50 ms; the refresh's
 *       time, first and incremental (BENCH_MARKET_RATE: the provider's requests/s, default 1000)
 *   B16 requests/s of B2 and of B13's holdings read, one API process vs two on one PostgreSQL
 *       (bench/scale.ts; PostgreSQL only): the ratio two / one
 *   B17 the tax planner and the income forecast, 10,000 vs 20,000 trades; target ≤ 2.3×; the
 *       adviser's book over 30 and 300 portfolios: statements constant (bench/planning.ts)
 *   B18 the web app's overview of the B13 portfolio in Chromium: navigation to drawn charts (warm),
 *       and the GraphQL cost of each operation the app sends (bench/web-app.ts)
 *   B19 GET /health p99 and peak RSS while the requests that once exhausted a process run
 *       (bench/resource-abuse.ts, on a server of its own); target ≤ 200 ms and ≤ +1 GiB
 *   B20 an import where every row names a new security, 10,000 vs 20,000 rows (bench/import-scale.ts);
 *       target ≤ 2.3×
 *
 * Each server runs in its own child process; autocannon runs here. After a warm-up, rounds
 * alternate A B B A ... and the ratio is median(service req/s) / median(baseline req/s), with the
 * per-round range as the noise band. Bodies are checked before measuring (same bytes ±5%), and
 * non-2xx answers are counted. One JSON line per workload on stdout.
 *
 * Environment: DATABASE_URL (PostgreSQL; default: embedded PGlite), BENCH_ROUNDS (5),
 * BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_ABUSE_CONNECTIONS (1, B14's abusive loops),
 * BENCH_ONLY (workloads to run, e.g. "B14" or "B2,B4").
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "../src/db";
import { aliasedCreates, aliasedNestedLists, fragmentChain } from "./abuse";
import { abuses, memoryOf, runAbuses } from "./resource-abuse";
import { dailyValuationWorkload, seedDailyValuation } from "./daily-valuation";
import { capitalGainsWorkload, seedCapitalGains } from "./capital-gains";
import { planningWorkload, seedPlanning, type PlanningTargets } from "./planning";
import { webAppWorkload } from "./web-app";
import { bundleWebApp } from "../src/cli/web-bundle";
import { performanceWorkloads } from "./performance";
import { rebalanceWorkload, seedRebalance } from "./rebalance";
import { compileBenchServers } from "./compiled";
import { importScaleWorkload } from "./import-scale";
import { marketRefreshWorkload, seedMarketRefresh } from "./market-refresh";
import { scaleWorkload } from "./scale";
import { seedBench } from "./seed";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ABUSE_CONNECTIONS = Number(process.env.BENCH_ABUSE_CONNECTIONS ?? 1);
const url = process.env.DATABASE_URL || undefined;
const ONLY = process.env.BENCH_ONLY?.split(",").map((w) => w.trim());
const selected = (name: string) => !ONLY || ONLY.includes(name.split(" ")[0]);

interface Server {
  child: ChildProcess;
  base: string;
}

/** Where the servers were compiled (bench/compiled.ts): once a run, on the first start. */
let compiled: string | undefined;

async function startServer(
  variant: "service" | "baseline",
  dataDir?: string,
  env: Record<string, string> = {},
): Promise<Server> {
  compiled ??= compileBenchServers();
  const child = fork(path.join(compiled, "bench/server.js"), [], {
    // Both as `npm start` runs the service (package.json): compiled, with a 64 MiB young generation.
    execArgv: ["--max-semi-space-size=64"],
    env: { ...process.env, VARIANT: variant, BENCH_DATA_DIR: dataDir ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`${variant} server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

const statements = (s: Server) =>
  new Promise<number>((resolve) => {
    s.child.once("message", (m: { statements: number }) => resolve(m.statements));
    s.child.send({ stats: true });
  });

interface Workload {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** Checks the two answers agree; default: same size within 5%. */
  verify?: (service: string, baseline: string) => string | undefined;
}

async function load(server: Server, w: Workload, key: string, seconds: number) {
  const result = await autocannon({
    url: server.base + w.path,
    method: w.method,
    body: w.body,
    headers: { authorization: key, "content-type": "application/json" },
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function main() {
  // Seed once; with PGlite, each server process gets its own copy of the seeded directory.
  const seedDir = url ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "pf-bench-"));
  const db = await openDatabase({ url, dataDir: seedDir });
  if (url) {
    await db.prisma.$executeRawUnsafe(
      `TRUNCATE account, portfolio, allocation_model, allocation_bucket, api_key RESTART IDENTITY CASCADE`,
    );
  }
  const { key, ledgerPortfolioId } = await seedBench(db);
  const importTargets = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     SELECT (SELECT account_id FROM portfolio WHERE id = $1), 'Import ' || g, 'AUD', 'AU', 'Individual', '06-30', now() FROM generate_series(1, $2::int) g RETURNING id`,
    ledgerPortfolioId,
    4 * ROUNDS,
  );
  // The B12 portfolio serves B6, B9 and B11 too.
  let valuedPortfolioId = 0;
  if (["B6", "B9", "B11", "B12", "B19"].some(selected)) {
    const [{ account_id: accountId }] = await db.prisma.$queryRawUnsafe<{ account_id: number }[]>(
      `SELECT account_id FROM portfolio WHERE id = $1`,
      ledgerPortfolioId,
    );
    const valued = await seedDailyValuation(db, accountId);
    valuedPortfolioId = valued.id;
    if (selected("B12")) await dailyValuationWorkload(db, valued, ROUNDS, url ? "postgresql" : "pglite");
  }
  const rebalancePortfolioId = selected("B8")
    ? await seedRebalance(
        db,
        (
          await db.prisma.$queryRawUnsafe<{ account_id: number }[]>(
            `SELECT account_id FROM portfolio WHERE id = $1`,
            ledgerPortfolioId,
          )
        )[0].account_id,
      )
    : 0;
  const capitalGainsPortfolios = [];
  if (selected("B7")) {
    const [{ account_id: accountId }] = await db.prisma.$queryRawUnsafe<{ account_id: number }[]>(
      `SELECT account_id FROM portfolio WHERE id = $1`,
      ledgerPortfolioId,
    );
    for (const trades of [10_000, 20_000])
      capitalGainsPortfolios.push({ trades, id: await seedCapitalGains(db, accountId, trades) });
  }
  let planning: PlanningTargets | undefined;
  if (selected("B17")) {
    const [{ account_id: accountId }] = await db.prisma.$queryRawUnsafe<{ account_id: number }[]>(
      `SELECT account_id FROM portfolio WHERE id = $1`,
      ledgerPortfolioId,
    );
    planning = await seedPlanning(db, accountId);
  }
  const marketKey = selected("B15") ? (await seedMarketRefresh(db)).key : "";
  await db.close();
  const copy = (name: string) => {
    if (!seedDir) return undefined;
    const dir = seedDir + "-" + name;
    fs.cpSync(seedDir, dir, { recursive: true });
    return dir;
  };

  const webDir = selected("B18") ? fs.mkdtempSync(path.join(os.tmpdir(), "bench-web-")) : undefined;
  if (webDir) await bundleWebApp(webDir);
  const service = await startServer("service", copy("service"), webDir ? { BENCH_WEB_DIR: webDir } : {});
  const baseline = await startServer("baseline", copy("baseline"));
  const workloads: Workload[] = [
    { name: "B2 GET /v1/sources", method: "GET", path: "/v1/sources" },
    {
      name: "B4 GraphQL portfolios{allocationModels{buckets}} 10x5x10",
      method: "POST",
      path: "/graphql",
      body: JSON.stringify({
        query:
          "{ portfolios { id name allocationModels { publicId name isActive buckets { label targetPct tolerancePct sortOrder } } } }",
      }),
    },
    {
      name: "B13 GET holdings of a 20,000-trade portfolio (50 holdings)",
      method: "GET",
      path: `/v1/portfolios/${ledgerPortfolioId}/holdings`,
      verify: (a, b) => {
        const key = (h: { symbol: string; quantity: number; costBase: number }) =>
          `${h.symbol} ${h.quantity} ${Number(h.costBase).toFixed(2)}`;
        const sa = (JSON.parse(a) as never[]).map(key).join("\n");
        const sb = (JSON.parse(b) as never[]).map(key).join("\n");
        return sa === sb ? undefined : "quantities or cost bases differ";
      },
    },
  ];

  try {
    for (const w of workloads.filter((x) => selected(x.name))) {
      // Correctness first: both answer 200 with the same payload size (±5%).
      const fetchOnce = (s: Server) =>
        fetch(s.base + w.path, {
          method: w.method,
          body: w.body,
          headers: { authorization: key, "content-type": "application/json" },
        });
      const before = await statements(service);
      const [a, b] = await Promise.all([fetchOnce(service), fetchOnce(baseline)]);
      const statementsPerRequest = (await statements(service)) - before;
      const [aBody, bBody] = [await a.text(), await b.text()];
      if (a.status !== 200 || b.status !== 200)
        throw new Error(`${w.name}: status ${a.status} / ${b.status}: ${aBody.slice(0, 300)}`);
      const mismatch = w.verify
        ? w.verify(aBody, bBody)
        : Math.abs(aBody.length - bBody.length) > 0.05 * bBody.length
          ? `${aBody.length} vs ${bBody.length} bytes`
          : undefined;
      if (mismatch) throw new Error(`${w.name}: answers differ: ${mismatch}`);

      await load(service, w, key, 2);
      await load(baseline, w, key, 2);
      const runs = {
        service: [] as Awaited<ReturnType<typeof load>>[],
        baseline: [] as Awaited<ReturnType<typeof load>>[],
      };
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? (["service", "baseline"] as const) : (["baseline", "service"] as const);
        for (const v of order) runs[v].push(await load(v === "service" ? service : baseline, w, key, SECONDS));
      }
      const ratios = runs.service.map((s, i) => s.rps / runs.baseline[i].rps);
      const summary = (xs: typeof runs.service) => ({
        rps: round(median(xs.map((x) => x.rps)), 1),
        p50: median(xs.map((x) => x.p50)),
        p99: median(xs.map((x) => x.p99)),
        non2xx: xs.reduce((n, x) => n + x.non2xx, 0),
        errors: xs.reduce((n, x) => n + x.errors, 0),
      });
      const s = summary(runs.service);
      const base = summary(runs.baseline);
      console.log(
        JSON.stringify({
          workload: w.name,
          database: url ? "postgresql" : "pglite",
          node: process.version,
          service: s,
          baseline: base,
          ratio: round(s.rps / base.rps, 3),
          ratioRange: [round(Math.min(...ratios), 3), round(Math.max(...ratios), 3)],
          responseBytes: { service: aBody.length, baseline: bBody.length },
          sqlStatementsPerRequest: statementsPerRequest,
          rounds: ROUNDS,
          secondsPerRound: SECONDS,
          connections: CONNECTIONS,
        }),
      );
    }
    if (["B6", "B9", "B11"].some(selected)) {
      await performanceWorkloads({
        service,
        baseline,
        key,
        portfolioId: valuedPortfolioId,
        rounds: ROUNDS,
        seconds: SECONDS,
        database: url ? "postgresql" : "pglite",
        only: selected,
      });
    }
    if (selected("B7"))
      await capitalGainsWorkload(service.base, key, capitalGainsPortfolios, ROUNDS, url ? "postgresql" : "pglite");
    if (planning)
      await planningWorkload({
        base: service.base,
        key,
        targets: planning,
        rounds: ROUNDS,
        database: url ? "postgresql" : "pglite",
        statements: () => statements(service),
      });
    if (selected("B18"))
      await webAppWorkload({
        base: service.base,
        key,
        portfolioId: ledgerPortfolioId,
        rounds: ROUNDS,
        database: url ? "postgresql" : "pglite",
      });
    if (selected("B8"))
      await rebalanceWorkload(service.base, key, rebalancePortfolioId, ROUNDS, SECONDS, url ? "postgresql" : "pglite");
    if (selected("B10")) {
      const ids = importTargets.map((p) => p.id);
      await importWorkload(service, baseline, key, ids.slice(0, 2 * ROUNDS), "json");
      await importWorkload(service, baseline, key, ids.slice(2 * ROUNDS, 4 * ROUNDS), "commsec");
    }
    if (selected("B14")) await abuseWorkload(service, key);
    if (selected("B19")) await resourceWorkload(copy("b19"), key, valuedPortfolioId);
    if (selected("B15"))
      await marketRefreshWorkload({
        key: marketKey,
        url,
        rounds: ROUNDS,
        seconds: SECONDS,
        startService: (marketUrl) => {
          if (seedDir) fs.rmSync(seedDir + "-b15", { recursive: true, force: true });
          return startServer("service", copy("b15"), { BENCH_MARKET_URL: marketUrl });
        },
      });
    if (selected("B16")) {
      if (!url) console.log(JSON.stringify({ workload: "B16", skipped: "needs DATABASE_URL (PostgreSQL)" }));
      else {
        const second = await startServer("service");
        try {
          await scaleWorkload({
            one: service,
            two: [service, second],
            key,
            paths: [
              { name: "GET /v1/sources", path: "/v1/sources" },
              { name: "GET holdings (20,000 trades)", path: `/v1/portfolios/${ledgerPortfolioId}/holdings` },
            ],
            rounds: ROUNDS,
            seconds: SECONDS,
            connections: CONNECTIONS,
          });
        } finally {
          second.child.kill("SIGTERM");
        }
      }
    }
    // Last: its imports leave 150,000 holdings in the account the other workloads read.
    if (selected("B20"))
      await importScaleWorkload({
        base: service.base,
        key,
        rounds: ROUNDS,
        database: url ? "postgresql" : "pglite",
      });
  } finally {
    service.child.kill("SIGTERM");
    baseline.child.kill("SIGTERM");
    if (webDir) fs.rmSync(webDir, { recursive: true, force: true });
    if (seedDir)
      for (const d of [seedDir, seedDir + "-service", seedDir + "-baseline", seedDir + "-b19", seedDir + "-b15"])
        fs.rmSync(d, { recursive: true, force: true });
  }
}

/**
 * B10: 20,000 trades imported into an empty portfolio, as JSON rows or as the same trades in a
 * CommSec Transactions export (the service reads the broker's file; the baseline always inserts
 * the JSON rows with no checks), against raw node:http + one unnest INSERT. One import per round,
 * timed end to end from here, alternating service and baseline; the ratio is baseline time /
 * service time.
 */
async function importWorkload(
  service: Server,
  baseline: Server,
  key: string,
  targets: number[],
  format: "json" | "commsec",
) {
  const rows = Array.from({ length: 20_000 }, (_, i) => {
    const day = new Date(Date.UTC(2015, 0, 1 + Math.floor(i / 50) * 7)).toISOString().slice(0, 10);
    const symbol = "I" + String(1 + (i % 50)).padStart(3, "0");
    const sell = Math.floor(i / 50) % 3 === 2;
    return {
      symbol,
      exchange: "ASX",
      tradeType: sell ? "Sell" : "Buy",
      tradeDate: day,
      quantity: 10,
      price: 10 + (i % 13),
      brokerage: 9.95,
    };
  });
  const json = JSON.stringify(rows);
  // The same trades as CommSec writes them: settlement dates (T+2 business days after the trade:
  // every trade date here is a Thursday, so settlement is the Monday after), the total with
  // brokerage as the debit or credit, a reference per trade.
  const settlement = (tradeDate: string) => {
    const d = new Date(tradeDate + "T00:00:00Z");
    d.setUTCDate(d.getUTCDate() + 4);
    return `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  };
  const commsecFile = [
    "Date,Reference,Details,Debit($),Credit($),Balance($)",
    ...rows.map((r, i) => {
      const value = r.quantity * r.price;
      const side = r.tradeType === "Buy" ? "B" : "S";
      const debit = r.tradeType === "Buy" ? (value + r.brokerage).toFixed(2) : "";
      const credit = r.tradeType === "Sell" ? (value - r.brokerage).toFixed(2) : "";
      return `${settlement(r.tradeDate)},C${1000000 + i},${side} ${r.quantity} ${r.symbol} @ ${r.price.toFixed(2)},${debit},${credit},0`;
    }),
  ].join("\n");
  const post = async (s: Server, portfolioId: number) => {
    const commsec = format === "commsec" && s === service;
    const t = performance.now();
    const res = await fetch(`${s.base}/v1/portfolios/${portfolioId}/trades/import`, {
      method: "POST",
      body: commsec ? commsecFile : json,
      headers: { authorization: key, "content-type": commsec ? "text/csv" : "application/json" },
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`import: ${res.status} ${text.slice(0, 300)}`);
    return performance.now() - t;
  };
  const before = await statements(service);
  const times = { service: [] as number[], baseline: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (["service", "baseline"] as const) : (["baseline", "service"] as const);
    for (const v of order)
      times[v].push(await post(v === "service" ? service : baseline, targets[2 * r + (v === "service" ? 0 : 1)]));
  }
  const statementsPerImport = Math.round(((await statements(service)) - before) / ROUNDS);
  const s = median(times.service);
  const b = median(times.baseline);
  console.log(
    JSON.stringify({
      workload:
        format === "json"
          ? "B10 import 20,000 trades (JSON, 50 new holdings)"
          : "B10 import 20,000 trades (a CommSec Transactions export, 50 new holdings; baseline: JSON)",
      database: url ? "postgresql" : "pglite",
      node: process.version,
      service: { ms: round(s, 1), rowsPerSecond: round(20_000 / (s / 1000), 0) },
      baseline: { ms: round(b, 1), rowsPerSecond: round(20_000 / (b / 1000), 0) },
      ratio: round(b / s, 3),
      ratioRange: [
        round(Math.min(...times.baseline.map((x, i) => x / times.service[i])), 3),
        round(Math.max(...times.baseline.map((x, i) => x / times.service[i])), 3),
      ],
      sqlStatementsPerImport: statementsPerImport,
      rounds: ROUNDS,
    }),
  );
}

/**
 * B14 (OWASP API4): the liveness probe while abusive GraphQL hammers the service. Each round
 * measures GET /health alone, then again while BENCH_ABUSE_CONNECTIONS loops send the abusive
 * operations of bench/abuse.ts in turn, with the key and without. Every abusive answer must be a
 * 4xx refusal; the figure is the median over rounds of /health's p99 under abuse (target ≤ 100 ms).
 */
async function abuseWorkload(service: Server, key: string) {
  const abusive = [
    { what: "1,000 aliases of portfolios{holdings{trades}}", query: aliasedNestedLists(1_000), key },
    { what: "1,000 aliased createPortfolio", query: aliasedCreates(1_000), key },
    { what: "3,000 chained fragments, no key", query: fragmentChain(3_000), key: undefined },
    { what: "51 aliases of portfolios{holdings{trades}}", query: aliasedNestedLists(51), key },
  ].map((a) => ({
    ...a,
    body: JSON.stringify({ query: a.query }),
    headers: { "content-type": "application/json", ...(a.key ? { authorization: a.key } : {}) },
  }));
  // Each alone first: a 4xx refusal, and how long it takes (median of 5, after one warm-up).
  const refusals: Record<string, { status: number; medianMs: number }> = {};
  for (const a of abusive) {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      const res = await fetch(service.base + "/graphql", { method: "POST", body: a.body, headers: a.headers });
      await res.text();
      if (i > 0) times.push(performance.now() - t);
      if (res.status < 400 || res.status >= 500)
        throw new Error(`B14: ${a.what} answered ${res.status}, not a refusal`);
      refusals[a.what] = { status: res.status, medianMs: 0 };
    }
    refusals[a.what].medianMs = round(median(times), 1);
  }
  const health = () => autocannon({ url: service.base + "/health", connections: 1, duration: SECONDS });
  const flood = () =>
    autocannon({
      url: service.base + "/graphql",
      method: "POST",
      connections: ABUSE_CONNECTIONS,
      duration: SECONDS,
      requests: abusive.map((a) => ({ method: "POST" as const, path: "/graphql", body: a.body, headers: a.headers })),
    });
  await health();
  const quiet: number[] = [];
  const loaded: number[] = [];
  const statuses: Record<string, number> = {};
  let abuseRps = 0;
  for (let r = 0; r < ROUNDS; r++) {
    quiet.push((await health()).latency.p99);
    const [h, f] = await Promise.all([health(), flood()]);
    loaded.push(h.latency.p99);
    abuseRps += f.requests.average / ROUNDS;
    for (const [code, { count = 0 }] of Object.entries(f.statusCodeStats ?? {}))
      statuses[code] = (statuses[code] ?? 0) + count;
  }
  const p99 = median(loaded);
  console.log(
    JSON.stringify({
      workload: "B14 GET /health p99 under abusive GraphQL",
      database: url ? "postgresql" : "pglite",
      node: process.version,
      health: {
        p99UnderAbuse: p99,
        p99Quiet: median(quiet),
        p99UnderAbuseRange: [Math.min(...loaded), Math.max(...loaded)],
      },
      targetMs: 100,
      withinTarget: p99 <= 100,
      abuse: { rps: round(abuseRps, 1), statuses, alone: refusals },
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      abuseConnections: ABUSE_CONNECTIONS,
    }),
  );
}

/**
 * B19: on a server process of its own (so its peak memory is this
 * workload's), `/health` is polled every 20 ms while the requests of bench/resource-abuse.ts run
 * one kind after another (each kind at its concurrency; row 2 on the B12 portfolio of 50 holdings
 * and 20,000 trades). Every request must be refused with a 4xx. Figures: `/health` p99 (target
 * ≤ 200 ms) and peak RSS over the RSS before (target ≤ +1 GiB), per round on a fresh server.
 */
async function resourceWorkload(dataDir: string | undefined, key: string, portfolioId: number) {
  const rounds: { p99: number; failedPolls: number; growthMiB: number }[] = [];
  let results: Awaited<ReturnType<typeof runAbuses>>["results"] = [];
  const list = abuses();
  for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
    const server = await startServer("service", dataDir);
    try {
      await fetch(server.base + "/health");
      const before = memoryOf(server.child.pid!);
      const run = await runAbuses(server.base, { key, portfolioId }, list);
      ({ results } = run);
      const { health } = run;
      const after = memoryOf(server.child.pid!);
      if (server.child.exitCode !== null) throw new Error("B19: the service process died");
      for (const x of results)
        for (const s of x.statuses)
          if (s !== "reset" && (s < 400 || s >= 500)) throw new Error(`B19: ${x.what} answered ${s}, not a refusal`);
      rounds.push({
        p99: health.p99,
        failedPolls: health.failed,
        growthMiB: before && after ? after.peakMiB - before.rssMiB : NaN,
      });
    } finally {
      server.child.kill("SIGTERM");
      await new Promise((r) => server.child.once("exit", r));
    }
  }
  const p99 = median(rounds.map((r) => r.p99));
  const growth = Math.max(...rounds.map((r) => r.growthMiB));
  console.log(
    JSON.stringify({
      workload: "B19 GET /health p99 and peak RSS under oversized requests",
      database: url ? "postgresql" : "pglite",
      node: process.version,
      health: {
        p99,
        p99Range: [Math.min(...rounds.map((r) => r.p99)), Math.max(...rounds.map((r) => r.p99))],
        failedPolls: rounds.reduce((s, r) => s + r.failedPolls, 0),
      },
      peakRssGrowthMiB: growth,
      targets: { p99Ms: 200, rssGrowthMiB: 1024 },
      withinTarget: p99 <= 200 && growth <= 1024,
      requests: results.map((x) => ({
        row: x.row,
        what: x.what,
        statuses: x.statuses,
        largestAnswerBytes: x.largestAnswerBytes,
        healthWhileItRan: x.health,
      })),
      rounds: rounds.length,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
