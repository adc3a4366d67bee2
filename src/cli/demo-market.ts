import fs from "node:fs";
import path from "node:path";

/**
 * The demo's market (npm run demo, WEB.md: Demo data): three years of daily closes for a few ASX
 * and US securities and the RBA's A$ rates, written as the recorded provider responses the
 * `replay` provider answers from (yahoo/<symbol>.json in Yahoo's chart format, rba/f11.1-data.csv in
 * the RBA's), so the real providers and the real refresh fill the prices and rates, offline.
 *
 * The files are made when the demo runs, ending on its day, from a fixed seed: every run shows the
 * same shapes of market, and the demo stays current (a recording shipped once would leave the
 * income forecast and the tax planner with nothing to show a year later).
 */

export interface DemoSecurity {
  symbol: string;
  exchange: "ASX" | "NASDAQ";
  name: string;
  currency: "AUD" | "USD";
  instrumentType: "EQUITY" | "ETF";
  /** The first close, and the yearly drift and volatility of the walk. */
  start: number;
  drift: number;
  volatility: number;
  /** A drift of its own over the last year (CSL falls: a loss to harvest). */
  lastYearDrift?: number;
}

export const DEMO_SECURITIES: DemoSecurity[] = [
  {
    symbol: "VAS",
    exchange: "ASX",
    name: "Vanguard Australian Shares Index ETF",
    currency: "AUD",
    instrumentType: "ETF",
    start: 88,
    drift: 0.07,
    volatility: 0.12,
  },
  {
    symbol: "VGS",
    exchange: "ASX",
    name: "Vanguard MSCI Index International Shares ETF",
    currency: "AUD",
    instrumentType: "ETF",
    start: 105,
    drift: 0.1,
    volatility: 0.13,
  },
  {
    symbol: "CBA",
    exchange: "ASX",
    name: "Commonwealth Bank of Australia",
    currency: "AUD",
    instrumentType: "EQUITY",
    start: 102,
    drift: 0.14,
    volatility: 0.16,
  },
  {
    symbol: "BHP",
    exchange: "ASX",
    name: "BHP Group Limited",
    currency: "AUD",
    instrumentType: "EQUITY",
    start: 45,
    drift: 0.02,
    volatility: 0.22,
  },
  {
    symbol: "CSL",
    exchange: "ASX",
    name: "CSL Limited",
    currency: "AUD",
    instrumentType: "EQUITY",
    start: 270,
    drift: 0.04,
    volatility: 0.18,
    lastYearDrift: -0.3,
  },
  {
    symbol: "WES",
    exchange: "ASX",
    name: "Wesfarmers Limited",
    currency: "AUD",
    instrumentType: "EQUITY",
    start: 52,
    drift: 0.09,
    volatility: 0.17,
  },
  {
    symbol: "AAPL",
    exchange: "NASDAQ",
    name: "Apple Inc.",
    currency: "USD",
    instrumentType: "EQUITY",
    start: 180,
    drift: 0.12,
    volatility: 0.24,
  },
  {
    symbol: "MSFT",
    exchange: "NASDAQ",
    name: "Microsoft Corporation",
    currency: "USD",
    instrumentType: "EQUITY",
    start: 340,
    drift: 0.13,
    volatility: 0.22,
  },
];

export interface DemoMarket {
  /** The demo's last day (today). */
  today: string;
  /** Weekdays from three years and a month before today to today. */
  days: string[];
  closes: Map<string, Map<string, string>>;
  /** US$ per A$1, by day. */
  audUsd: Map<string, string>;
}

const DAY_MS = 86_400_000;
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const weekday = (day: string) => {
  const n = new Date(`${day}T00:00:00Z`).getUTCDay();
  return n !== 0 && n !== 6;
};

/** The weekday on or before `day`. */
export function tradingDayOnOrBefore(day: string): string {
  let d = new Date(`${day}T00:00:00Z`);
  while (!weekday(isoDay(d))) d = new Date(d.getTime() - DAY_MS);
  return isoDay(d);
}

/** `months` calendar months before `day` (clamped to the month's end), on a trading day. */
export function monthsBefore(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return tradingDayOnOrBefore(isoDay(target));
}

/** A small seeded generator (mulberry32): the same walk on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
const normal = (rand: () => number) => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());

export function demoMarket(today: string): DemoMarket {
  const first = monthsBefore(today, 37);
  const days: string[] = [];
  for (let t = new Date(`${first}T00:00:00Z`).getTime(); ; t += DAY_MS) {
    const day = isoDay(new Date(t));
    if (day > today) break;
    if (weekday(day)) days.push(day);
  }
  const yearAgo = monthsBefore(today, 12);
  const dt = 1 / 260;
  const closes = new Map<string, Map<string, string>>();
  DEMO_SECURITIES.forEach((s, n) => {
    const rand = random(0x5eed + n * 7919);
    let price = s.start;
    const series = new Map<string, string>();
    for (const day of days) {
      const drift = day >= yearAgo && s.lastYearDrift !== undefined ? s.lastYearDrift : s.drift;
      price *= Math.exp((drift - (s.volatility * s.volatility) / 2) * dt + s.volatility * Math.sqrt(dt) * normal(rand));
      series.set(day, price.toFixed(2));
    }
    closes.set(s.symbol, series);
  });
  const rand = random(0xa0d);
  let rate = 0.66;
  const audUsd = new Map<string, string>();
  for (const day of days) {
    rate = Math.min(0.75, Math.max(0.6, rate * Math.exp(0.08 * Math.sqrt(dt) * normal(rand))));
    audUsd.set(day, rate.toFixed(4));
  }
  return { today, days, closes, audUsd };
}

/** Yahoo stamps a daily bar at the exchange's open: 10:00 in Sydney, 9:30 in New York. */
const OPEN = { ASX: { gmtoffset: 36_000, open: 36_000 }, NASDAQ: { gmtoffset: -18_000, open: 34_200 } };

function chartJson(s: DemoSecurity, market: DemoMarket): string {
  const { gmtoffset, open } = OPEN[s.exchange];
  const series = market.closes.get(s.symbol)!;
  const days = [...series.keys()];
  const symbol = s.exchange === "ASX" ? `${s.symbol}.AX` : s.symbol;
  return JSON.stringify({
    chart: {
      result: [
        {
          meta: { currency: s.currency, symbol, instrumentType: s.instrumentType, gmtoffset, dataGranularity: "1d" },
          timestamp: days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000 + open - gmtoffset),
          indicators: { quote: [{ close: days.map((d) => Number(series.get(d))) }] },
        },
      ],
      error: null,
    },
  });
}

const RBA_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const rbaDate = (day: string) => `${day.slice(8, 10)}-${RBA_MONTHS[Number(day.slice(5, 7)) - 1]}-${day.slice(0, 4)}`;

function rbaCsv(market: DemoMarket): string {
  const head = [
    "F11.1  EXCHANGE RATES,,",
    "Title,A$1=USD,Trade-weighted Index May 1970 = 100,",
    "Description,AUD/USD Exchange Rate,Australian Dollar Trade-weighted Index,",
    "Frequency,Daily,Daily,",
    "Type,Indicative,Indicative,",
    "Units,USD,Index,",
    ",,,",
    ",,,",
    "Source,WM/Reuters,RBA,",
    `Publication date,${rbaDate(market.today)},${rbaDate(market.today)},`,
    "Series ID,FXRUSD,FXRTWI,",
  ];
  const rows = [...market.audUsd].map(([day, rate]) => `${rbaDate(day)},${rate},60.00,`);
  return [...head, ...rows].join("\n") + "\n";
}

/** Writes the recordings the replay provider reads (MARKET_DATA_REPLAY_DIR). */
export function writeDemoRecordings(dir: string, market: DemoMarket): void {
  fs.mkdirSync(path.join(dir, "yahoo"), { recursive: true });
  fs.mkdirSync(path.join(dir, "rba"), { recursive: true });
  for (const s of DEMO_SECURITIES) {
    const file = s.exchange === "ASX" ? `${s.symbol}.AX.json` : `${s.symbol}.json`;
    fs.writeFileSync(path.join(dir, "yahoo", file), chartJson(s, market));
  }
  fs.writeFileSync(path.join(dir, "rba", "f11.1-data.csv"), rbaCsv(market));
}
