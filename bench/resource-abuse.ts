import fs from "node:fs";
import http from "node:http";

/**
 * The requests that once exhausted a process (each measured on the
 * code before the limits): shared by B19 (bench/run.ts) and test/process/resources.test.ts.
 * 1. a 17.2 MiB CSV import of 9,000,000 rows of `1` (dry run): heap out of memory after ~3 min;
 * 2. a daily timeseries from 1900 to 2200, 8 at once: 36.5 s of CPU each, 2.2 GB;
 * 3. keyless 19 MiB JSON bodies to the bulk prices: parsed before the 401, 10–54 s each;
 * 4. oversized bulk bodies with a key: 1.1M price rows, a 9M-element array, 400k over-full rows,
 *    50,000 bad import rows (a 30 MiB answer of 250,000 errors).
 * Each request must be refused (4xx) and the process must stay alive and responsive.
 */

export interface Sent {
  /** The HTTP status, or "reset" when the server closed the connection before answering. */
  status: number | "reset";
  /** Bytes of the answer's body. */
  answerBytes: number;
}

/** One request over node:http that tolerates the server answering (and closing) before the body is sent. */
export function send(
  base: string,
  opts: { method: string; path: string; key?: string; contentType?: string; body?: string | Buffer },
): Promise<Sent> {
  const url = new URL(opts.path, base);
  const headers: Record<string, string | number> = {};
  if (opts.key) headers.authorization = opts.key;
  if (opts.contentType) headers["content-type"] = opts.contentType;
  if (opts.body !== undefined) headers["content-length"] = Buffer.byteLength(opts.body);
  return new Promise((resolve) => {
    let answered: Sent | undefined;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method,
        headers,
        agent: false,
      },
      (res) => {
        let bytes = 0;
        res.on("data", (d: Buffer) => (bytes += d.length));
        res.on("end", () => resolve((answered = { status: res.statusCode!, answerBytes: bytes })));
        res.on("error", () => resolve(answered ?? { status: res.statusCode!, answerBytes: bytes }));
      },
    );
    // EPIPE/ECONNRESET: the server refused the rest of the body and closed; its answer may still come.
    req.on("error", () => setTimeout(() => resolve(answered ?? { status: "reset", answerBytes: 0 }), 50));
    req.end(opts.body);
  });
}

export interface Abuse {
  row: number;
  what: string;
  /** How many of it go at once. */
  concurrent: number;
  request(ctx: { key: string; portfolioId: number }): Parameters<typeof send>[1];
}

const repeat = (line: string, times: number) => line.repeat(times);
/** A JSON array of `element` just under `bytes` long. */
function jsonArray(element: string, bytes: number): string {
  const n = Math.floor((bytes - 2) / (element.length + 1));
  return "[" + Array.from({ length: n }, () => element).join(",") + "]";
}
const MiB = 1024 * 1024;

/** The rows' requests; `scale` < 1 shrinks the counts of row 3 for a quicker test run. */
export function abuses(scale = 1): Abuse[] {
  const csvImport = "date,type,quantity\n" + repeat("1\n", 9_000_000);
  const keylessPrices = jsonArray('{"symbol":"CBA","exchange":"ASX","date":"2024-01-02","close":1}', 19 * MiB);
  const priceRows = "symbol,exchange,date,close\n" + repeat("A,X,2024-01-02,1\n", 1_100_000);
  const nineMillion = jsonArray("1", 18 * MiB);
  const overFull = "date,type,quantity\n" + repeat("2024-01-02,Buy,1,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n", 400_000);
  const badImport =
    "date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate\n" + repeat("x,x,,,x,x,x,x,x\n", 50_000);
  return [
    {
      row: 1,
      what: "CSV import, 9,000,000 rows of `1`, dry run",
      concurrent: 1,
      request: ({ key, portfolioId }) => ({
        method: "POST",
        path: `/v1/portfolios/${portfolioId}/trades/import?dryRun=true`,
        key,
        contentType: "text/csv",
        body: csvImport,
      }),
    },
    {
      row: 2,
      what: "daily timeseries 1900–2200, 8 at once",
      concurrent: 8,
      request: ({ key, portfolioId }) => ({
        method: "GET",
        path: `/v1/portfolios/${portfolioId}/timeseries?from=1900-01-01&to=2200-12-31&interval=day`,
        key,
      }),
    },
    {
      row: 3,
      what: "keyless 19 MiB JSON to the bulk prices",
      concurrent: Math.max(1, Math.round(20 * scale)),
      request: () => ({
        method: "POST",
        path: "/v1/market-prices/bulk",
        contentType: "application/json",
        body: keylessPrices,
      }),
    },
    {
      row: 4,
      what: "1.1M-row price CSV",
      concurrent: 1,
      request: ({ key }) => ({
        method: "POST",
        path: "/v1/market-prices/bulk",
        key,
        contentType: "text/csv",
        body: priceRows,
      }),
    },
    {
      row: 4,
      what: "9M-element JSON array to the bulk prices",
      concurrent: 1,
      request: ({ key }) => ({
        method: "POST",
        path: "/v1/market-prices/bulk",
        key,
        contentType: "application/json",
        body: nineMillion,
      }),
    },
    {
      row: 4,
      what: "400k over-full CSV import rows",
      concurrent: 1,
      request: ({ key, portfolioId }) => ({
        method: "POST",
        path: `/v1/portfolios/${portfolioId}/trades/import?dryRun=true`,
        key,
        contentType: "text/csv",
        body: overFull,
      }),
    },
    {
      row: 4,
      what: "50,000 bad import rows",
      concurrent: 1,
      request: ({ key, portfolioId }) => ({
        method: "POST",
        path: `/v1/portfolios/${portfolioId}/trades/import?dryRun=true`,
        key,
        contentType: "text/csv",
        body: badImport,
      }),
    },
  ];
}

/** Resident memory of a process now and at its peak, in MiB (Linux /proc; null elsewhere). */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rssMiB: Math.round(kb("VmRSS") / 1024), peakMiB: Math.round(kb("VmHWM") / 1024) };
  } catch {
    return null;
  }
}

/** p50, p99 and the largest of some /health latencies in ms (a failed poll is Infinity), with the latencies. */
export function latencyStats(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
  return {
    polls: sorted.length,
    failed: sorted.filter((x) => x === Infinity).length,
    p50: Math.round(at(0.5)),
    p99: Math.round(at(0.99)),
    max: Math.round(at(1)),
    latencies,
  };
}

/** Polls GET /health every `everyMs` until stopped; answers the latencies (a failed poll counts as Infinity). */
export function healthProbe(base: string, everyMs = 50) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const res = await fetch(base + "/health", { signal: AbortSignal.timeout(10_000) });
        await res.text();
        latencies.push(res.ok ? performance.now() - t : Infinity);
      } catch {
        latencies.push(Infinity);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencyStats(latencies);
    },
  };
}

/**
 * Runs every abuse in turn (each with its concurrency) while /health is polled every `everyMs`:
 * each one's statuses, answer sizes and the /health latencies while it ran, and all the latencies.
 */
export async function runAbuses(base: string, ctx: { key: string; portfolioId: number }, list: Abuse[], everyMs = 20) {
  const results: {
    row: number;
    what: string;
    statuses: (number | "reset")[];
    largestAnswerBytes: number;
    health: { p99: number; max: number };
  }[] = [];
  const latencies: number[] = [];
  for (const a of list) {
    const probe = healthProbe(base, everyMs);
    const sent = await Promise.all(Array.from({ length: a.concurrent }, () => send(base, a.request(ctx))));
    const health = await probe.stop();
    latencies.push(...health.latencies);
    results.push({
      row: a.row,
      what: a.what,
      statuses: sent.map((s) => s.status),
      largestAnswerBytes: Math.max(...sent.map((s) => s.answerBytes)),
      health: { p99: health.p99, max: health.max },
    });
  }
  const { latencies: _all, ...health } = latencyStats(latencies);
  return { results, health };
}
