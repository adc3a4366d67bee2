import { Gauge, type Registry } from "prom-client";
import type { Database } from "../db";

const RUN_STATUSES = ["Running", "Succeeded", "Partial", "Failed"] as const;

/**
 * The market-data refresh as metrics, read from what the refresh records (market_data_run, one row
 * per run; market_data_security, each security's and rate pair's last attempt) when scraped. The
 * runs are the installation's, whichever process held the refresh lock (docs/data.md §1.3), so
 * every process reports the same values: aggregate them with max(), not sum(). A scrape while the
 * database is unreachable leaves the values of the last one.
 */
export function marketDataMetrics(db: Database, registers: Registry[]): void {
  let reading: Promise<MarketDataState | undefined> | undefined;
  // One read per scrape, shared by the four gauges (each has its own collect()).
  const state = () => {
    reading ??= readState(db)
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
  new Gauge({
    name: "market_data_runs",
    help: "Market-data refresh runs recorded in the installation, by status (Running, Succeeded, Partial, Failed).",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const s = await state();
      if (s) for (const status of RUN_STATUSES) this.set({ status }, s.runs[status] ?? 0);
    },
  });
  new Gauge({
    name: "market_data_last_run_securities",
    help: "Securities the last finished market-data run refreshed.",
    registers,
    async collect() {
      const s = await state();
      if (s) this.set(s.lastRunSecurities);
    },
  });
  new Gauge({
    name: "market_data_securities",
    help: "Securities and exchange-rate pairs by the outcome of their last refresh attempt (ok, failing).",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      const s = await state();
      if (!s) return;
      this.set({ state: "ok" }, s.ok);
      this.set({ state: "failing" }, s.failing);
    },
  });
  new Gauge({
    name: "market_data_last_success_timestamp_seconds",
    help: "When the last Succeeded or Partial market-data run finished (Unix seconds; 0: never).",
    registers,
    async collect() {
      const s = await state();
      if (s) this.set(s.lastSuccessSeconds);
    },
  });
}

interface MarketDataState {
  runs: Partial<Record<(typeof RUN_STATUSES)[number], number>>;
  lastRunSecurities: number;
  ok: number;
  failing: number;
  lastSuccessSeconds: number;
}

async function readState(db: Database): Promise<MarketDataState> {
  const prisma = db.prisma;
  const [byStatus, lastRun, lastSuccess, failing, all] = await Promise.all([
    prisma.marketDataRun.groupBy({ by: ["status"], _count: { _all: true } }),
    prisma.marketDataRun.findFirst({
      where: { finishedAt: { not: null } },
      orderBy: { id: "desc" },
      select: { counts: true },
    }),
    prisma.marketDataRun.findFirst({
      where: { status: { in: ["Succeeded", "Partial"] } },
      orderBy: { id: "desc" },
      select: { finishedAt: true },
    }),
    prisma.marketDataSecurity.count({ where: { lastError: { not: null } } }),
    prisma.marketDataSecurity.count(),
  ]);
  const counts = (lastRun?.counts ?? {}) as { securities?: number };
  return {
    runs: Object.fromEntries(byStatus.map((g) => [g.status, g._count._all])),
    lastRunSecurities: counts.securities ?? 0,
    ok: all - failing,
    failing,
    lastSuccessSeconds: lastSuccess?.finishedAt ? lastSuccess.finishedAt.getTime() / 1000 : 0,
  };
}
