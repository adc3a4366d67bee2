import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";

/**
 * B15's stand-in for Yahoo's chart API, in a process of its own (so building answers never
 * stalls the harness's latency clock nor the service's event loop), on 127.0.0.1: nothing reaches
 * the internet. `GET /v8/finance/chart/<SYM>?period1&period2` answers every weekday in the period
 * with a close made from the symbol and the date alone, so any two periods agree on a day (the
 * second, incremental refresh rewrites nothing). Two dividends a year (four for every other
 * symbol) and, for one symbol in five, a 2:1 split five years back. The body has Yahoo's full
 * shape (open, high, low, close, volume, adjclose as float32 artefacts), so parsing costs what
 * the real answer costs. Closes are split-adjusted, as Yahoo's are; an answer carries only the
 * splits inside its period, as Yahoo's does.
 */

const DAY = 86_400;

/** FNV-1a: a symbol's own seed. */
function seedOf(symbol: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < symbol.length; i++) h = Math.imul(h ^ symbol.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A weekday on or after `seconds` (midnight UTC). */
function weekdayFrom(seconds: number): number {
  let s = seconds - (seconds % DAY);
  while ([0, 6].includes(new Date(s * 1000).getUTCDay())) s += DAY;
  return s;
}

const splitDay = weekdayFrom(Math.floor(Date.now() / 1000) - 5 * 365 * DAY);

/** The split-adjusted close of `symbol` on the day starting at `seconds`. */
function adjustedClose(seed: number, seconds: number): number {
  const d = seconds / DAY;
  const base = 2 + (seed % 9_800) / 100;
  const phase = (seed % 628) / 100;
  return (
    base * (1 + 0.25 * Math.sin(d / 190 + phase)) * (1 + 0.04 * Math.sin(d / 11 + 2 * phase)) + ((d * seed) % 7) / 100
  );
}

/** Yahoo's numbers are float32 values printed as doubles (97.12000274658203). */
const f32 = (x: number) => Math.fround(Math.round(x * 1e4) / 1e4);

export function chartBody(yahooSymbol: string, period1: number, period2: number): string {
  const symbol = yahooSymbol.replace(/\.AX$/, "");
  const seed = seedOf(symbol);
  const timestamp: number[] = [];
  const [open, high, low, close, volume] = [[], [], [], [], []] as number[][];
  for (let s = weekdayFrom(Math.max(period1, 0)); s < period2; s = weekdayFrom(s + DAY)) {
    const c = adjustedClose(seed, s);
    timestamp.push(s);
    open.push(f32(c * 0.995));
    high.push(f32(c * 1.01));
    low.push(f32(c * 0.985));
    close.push(f32(c));
    volume.push(100_000 + (((s / DAY) * seed) % 900_000));
  }
  const dividends: Record<string, { amount: number; date: number }> = {};
  const months = seed % 2 ? [2, 5, 8, 11] : [2, 8];
  const first = new Date(period1 * 1000).getUTCFullYear();
  for (let year = first; year <= new Date(period2 * 1000).getUTCFullYear(); year++)
    for (const month of months) {
      const date = weekdayFrom(Date.UTC(year, month, 1) / 1000);
      if (date >= period1 && date < period2) dividends[date] = { amount: f32(adjustedClose(seed, date) * 0.012), date };
    }
  const splits: Record<string, object> = {};
  if (seed % 5 === 0 && splitDay >= period1 && splitDay < period2)
    splits[splitDay] = { date: splitDay, numerator: 2, denominator: 1, splitRatio: "2:1" };
  const result = {
    meta: { currency: "AUD", symbol: yahooSymbol, exchangeName: "ASX", instrumentType: "EQUITY", gmtoffset: 36_000 },
    timestamp,
    events: { dividends, splits },
    indicators: { quote: [{ open, high, low, close, volume }], adjclose: [{ adjclose: close }] },
  };
  return JSON.stringify({ chart: { result: [result], error: null } });
}

const NOT_FOUND = '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}';

function serve(): void {
  let served = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const symbol = /^\/v8\/finance\/chart\/([^/]+)$/.exec(url.pathname)?.[1];
    const [p1, p2] = [Number(url.searchParams.get("period1")), Number(url.searchParams.get("period2"))];
    const ok = symbol && Number.isInteger(p1) && Number.isInteger(p2) && p1 < p2;
    served++;
    res.writeHead(ok ? 200 : 404, { "content-type": "application/json" });
    res.end(ok ? chartBody(decodeURIComponent(symbol), p1, p2) : NOT_FOUND);
  });
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as { port: number }).port }));
  process.on("message", (m: { served?: boolean }) => m.served && process.send!({ served }));
}

/** Starts the fake in a child process; answers its origin and the child. */
export async function forkFakeYahoo(): Promise<{ base: string; child: ChildProcess }> {
  const child = fork(__filename, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_FAKE_YAHOO: "serve" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`fake Yahoo exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

/** Requests answered so far. */
export const servedBy = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    child.once("message", (m: { served: number }) => resolve(m.served));
    child.send({ served: true });
  });

if (process.env.BENCH_FAKE_YAHOO === "serve") serve();
