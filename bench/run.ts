/**
 * npm run bench: the service against a same-run baseline, interleaved (performance.md §5.1).
 *
 *   B2  GET /v1/sources                         vs raw node:http + raw SQL
 *   B4  GraphQL portfolios{models{buckets}}     vs raw node:http + 3 raw SQL + hand-built tree
 *
 * Each server runs in its own child process; autocannon runs here. After a warm-up, rounds
 * alternate A B B A ... and the ratio is median(service req/s) / median(baseline req/s), with the
 * per-round range as the noise band. Bodies are checked before measuring (same bytes ±5%), and
 * non-2xx answers are counted. One JSON line per workload on stdout.
 *
 * Environment: DATABASE_URL (PostgreSQL; default: embedded PGlite), BENCH_ROUNDS (5),
 * BENCH_SECONDS (5), BENCH_CONNECTIONS (10).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "../src/db";
import { seedBench } from "./seed";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const url = process.env.DATABASE_URL || undefined;

interface Server {
  child: ChildProcess;
  base: string;
}

async function startServer(variant: "service" | "baseline", dataDir?: string): Promise<Server> {
  const child = fork(path.join(__dirname, "server.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, VARIANT: variant, BENCH_DATA_DIR: dataDir ?? "", NODE_ENV: "production" },
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
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
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
    await db.prisma.$executeRawUnsafe(`TRUNCATE account, portfolio, allocation_model, allocation_bucket, api_key RESTART IDENTITY CASCADE`);
  }
  const { key } = await seedBench(db);
  await db.close();
  const copy = (name: string) => {
    if (!seedDir) return undefined;
    const dir = seedDir + "-" + name;
    fs.cpSync(seedDir, dir, { recursive: true });
    return dir;
  };

  const service = await startServer("service", copy("service"));
  const baseline = await startServer("baseline", copy("baseline"));
  const workloads: Workload[] = [
    { name: "B2 GET /v1/sources", method: "GET", path: "/v1/sources" },
    {
      name: "B4 GraphQL portfolios{allocationModels{buckets}} 10x5x10",
      method: "POST",
      path: "/graphql",
      body: JSON.stringify({ query: "{ portfolios { id name allocationModels { publicId name isActive buckets { label targetPct tolerancePct sortOrder } } } }" }),
    },
  ];

  try {
    for (const w of workloads) {
      // Correctness first: both answer 200 with the same payload size (±5%).
      const fetchOnce = (s: Server) => fetch(s.base + w.path, { method: w.method, body: w.body, headers: { authorization: key, "content-type": "application/json" } });
      const before = await statements(service);
      const [a, b] = await Promise.all([fetchOnce(service), fetchOnce(baseline)]);
      const statementsPerRequest = (await statements(service)) - before;
      const [aBody, bBody] = [await a.text(), await b.text()];
      if (a.status !== 200 || b.status !== 200) throw new Error(`${w.name}: status ${a.status} / ${b.status}: ${aBody.slice(0, 300)}`);
      if (Math.abs(aBody.length - bBody.length) > 0.05 * bBody.length) throw new Error(`${w.name}: bodies differ: ${aBody.length} vs ${bBody.length} bytes`);

      await load(service, w, key, 2);
      await load(baseline, w, key, 2);
      const runs = { service: [] as Awaited<ReturnType<typeof load>>[], baseline: [] as Awaited<ReturnType<typeof load>>[] };
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
  } finally {
    service.child.kill("SIGTERM");
    baseline.child.kill("SIGTERM");
    if (seedDir) for (const d of [seedDir, seedDir + "-service", seedDir + "-baseline"]) fs.rmSync(d, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
