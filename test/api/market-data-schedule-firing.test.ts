import pino from "pino";
import { MarketDataRefresher } from "../../src/modules/market-data/refresh";
import { useTestApp } from "../support/app";

/**
 * A schedule's firing runs the refresh once for the installation (OPERATIONS.md §1, jobs), even
 * when the run is over before another process's timer for the same firing takes the lock: that
 * process finds the firing's run and starts none. A later firing runs again. (With no provider a
 * run ends at once: the case the lock alone did not cover.) The firings' moments are given, as
 * each process's timer would compute them.
 */
const t = useTestApp();

const refresher = () => new MarketDataRefresher(t.db, { prices: null, fx: null }, pino({ level: "silent" }), "off", 3);
const scheduledRuns = () =>
  t.db.prisma.marketDataRun.findMany({ where: { trigger: "schedule" }, orderBy: { id: "asc" }, select: { id: true } });

beforeEach(() => t.db.prisma.marketDataRun.deleteMany({}));

it("two processes' timers for one firing: the second, after the first run ended, starts none", async () => {
  const [first, second] = [refresher(), refresher()];
  const firing = { at: new Date(Date.now() - 200), withinMs: 30_000 };
  const a = await first.refresh({ trigger: "schedule", firing });
  await first.idle();
  const b = await second.refresh({ trigger: "schedule", firing });
  await second.idle();
  expect(b.runId).toBe(a.runId);
  expect(await scheduledRuns()).toEqual([{ id: a.runId }]);
});

it("the next firing runs again, and a request is never held back by a firing", async () => {
  const one = refresher();
  // The run of the firing before, started more than the window before this firing.
  await t.db.prisma.marketDataRun.create({
    data: {
      trigger: "schedule",
      status: "Succeeded",
      startedAt: new Date(Date.now() - 120_000),
      finishedAt: new Date(),
    },
  });
  const next = await one.refresh({ trigger: "schedule", firing: { at: new Date(), withinMs: 30_000 } });
  await one.idle();
  const asked = await one.refresh({ trigger: "request" });
  await one.idle();
  expect(asked.runId).toBeGreaterThan(next.runId);
  expect(await scheduledRuns()).toHaveLength(2);
  expect(await t.db.prisma.marketDataRun.count({ where: { trigger: "request" } })).toBe(1);
});
