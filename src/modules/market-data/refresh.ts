import { Cron } from "croner";
import type { Logger } from "pino";
import { MARKET_DATA_TIMEZONE } from "../../config";
import type { MarketDataJobs } from "../../context";
import type { Database } from "../../db";
import { todayIn } from "../../lib/dates";
import type { FxProvider, PriceProvider, SecurityRef } from "./providers/provider";
import { ProviderError } from "./providers/provider";
import { fxStatusKey, fxTargets, securityTargets, type SecurityTarget } from "./refresh-targets";
import { markStatus, storeHistory, storeRates } from "./refresh-writes";
import { recordProviderDividends } from "../income/provider-dividends";
import { classifyHoldings } from "./classification";
import { offerCorporateActions } from "./corporate-actions.offer";

/**
 * The market-data refresh (docs/data.md §1.3): on a schedule, once at start when the last good
 * run is more than a day old, and on request. One run at a time for the whole installation: the
 * run holds a database lock (a PostgreSQL advisory lock across processes), and a request while a
 * run holds it answers that run's id. Failure is a state: a security that fails records its error
 * and the run goes on; the run ends Succeeded, Partial or Failed; nothing of it reaches an API
 * caller as an error.
 */

/** The advisory lock key of the refresh ("mktd"). */
export const REFRESH_LOCK_KEY = 0x6d6b7464;
/** Securities fetched at once (the provider's own rate limit spaces the requests). */
const SECURITIES_AT_ONCE = 4;

export interface Providers {
  prices: PriceProvider | null;
  fx: FxProvider | null;
}

export interface RefreshRequest {
  trigger: "request" | "schedule" | "start";
  /**
   * A schedule's firing: the moment it was due (by this process's clock) and how far before it a
   * scheduled run still counts as this firing's. Every process fires; the first to take the lock
   * runs, and one that takes it after that run has already ended finds the run and starts none.
   */
  firing?: { at: Date; withinMs: number };
  /** One account's request: its securities only (the status lists the account's alone anyway). */
  accountId?: number;
  securities?: SecurityRef[];
}

interface Counts {
  securities: number;
  prices: number;
  dividends: number;
  splits: number;
  fxRates: number;
  /** Income records made or updated from provider dividends. */
  incomeRecords: number;
  /** Pending corporate actions offered from provider splits. */
  corporateActions: number;
  /** Holdings whose classification the provider filled. */
  classified: number;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The firing a schedule's callback answers: the second it was due (cron patterns count in whole
 * seconds; each process reads its own clock, which says that second when its timer fires), and a
 * window of half the time to the next firing, at most 30 s, for the clocks of the processes and
 * the database to differ by.
 */
function firingOf(cron: Cron): { at: Date; withinMs: number } {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  const next = cron.nextRun()?.getTime() ?? at.getTime() + 60_000;
  return { at, withinMs: Math.min(30_000, Math.max(0, next - at.getTime()) / 2) };
}

export class MarketDataRefresher implements MarketDataJobs {
  private cron: Cron | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly providers: Providers,
    private readonly log: Logger,
    readonly schedule: string,
    readonly staleDays: number,
  ) {}

  get provider(): string {
    return this.providers.prices?.id ?? "none";
  }

  get fxProvider(): string {
    return this.providers.fx?.id ?? "none";
  }

  /** Starts a run unless one is running anywhere; answers the run's id either way. */
  async refresh(request: RefreshRequest): Promise<{ runId: number }> {
    const release = await this.db.tryLock(REFRESH_LOCK_KEY);
    if (!release) return { runId: await this.runningRunId() };
    let runId: number;
    try {
      if (request.firing) {
        const ran = await this.db.prisma.marketDataRun.findFirst({
          where: {
            trigger: "schedule",
            startedAt: { gte: new Date(request.firing.at.getTime() - request.firing.withinMs) },
          },
          orderBy: { id: "desc" },
          select: { id: true },
        });
        if (ran) {
          await release();
          return { runId: ran.id };
        }
      }
      // Holding the lock, no run is running: a Running row is one whose process stopped mid-run.
      await this.db.prisma.marketDataRun.updateMany({
        where: { status: "Running" },
        data: { status: "Failed", finishedAt: new Date(), message: "The process running it stopped before it ended." },
      });
      runId = (await this.db.prisma.marketDataRun.create({ data: { trigger: request.trigger }, select: { id: true } }))
        .id;
    } catch (error) {
      await release();
      throw error;
    }
    this.running = this.execute(runId, request)
      .catch((error) => this.log.error({ err: error, runId }, "market-data refresh failed"))
      .finally(() => release().catch(() => undefined));
    return { runId };
  }

  /** Resolves when this process's current run has ended. */
  idle(): Promise<void> {
    return this.running;
  }

  /** The schedule, and a run now when the last good one is more than a day old ("off": neither). */
  async start(): Promise<void> {
    if (this.schedule === "off") return;
    this.cron = new Cron(this.schedule, { timezone: MARKET_DATA_TIMEZONE, protect: true }, (cron: Cron) => {
      this.refresh({ trigger: "schedule", firing: firingOf(cron) }).catch((error) =>
        this.log.warn({ err: error }, "scheduled refresh not started"),
      );
    });
    const lastGood = await this.db.prisma.marketDataRun.findFirst({
      where: { status: { in: ["Succeeded", "Partial"] } },
      orderBy: { id: "desc" },
      select: { finishedAt: true },
    });
    const dayAgo = Date.now() - 86_400_000;
    if (!lastGood?.finishedAt || lastGood.finishedAt.getTime() < dayAgo) await this.refresh({ trigger: "start" });
  }

  /** Stops the schedule and the run in progress (its security in flight is not written). */
  async stop(): Promise<void> {
    this.cron?.stop();
    this.stopping.abort();
    await this.running;
  }

  private async runningRunId(): Promise<number> {
    // The holder may not have written its run yet: a moment's grace, then the latest run.
    for (let attempt = 0; attempt < 20; attempt++) {
      const run = await this.db.prisma.marketDataRun.findFirst({
        where: { status: "Running" },
        orderBy: { id: "desc" },
      });
      if (run) return run.id;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const latest = await this.db.prisma.marketDataRun.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    return latest?.id ?? 0;
  }

  private async execute(runId: number, request: RefreshRequest): Promise<void> {
    // Today in Sydney: the refresh asks for history up to it.
    const today = todayIn(MARKET_DATA_TIMEZONE);
    const counts: Counts = {
      securities: 0,
      prices: 0,
      dividends: 0,
      splits: 0,
      fxRates: 0,
      incomeRecords: 0,
      corporateActions: 0,
      classified: 0,
    };
    const failures: string[] = [];
    let succeeded = 0;
    const { prices, fx } = this.providers;
    // Rates first: the income records made from foreign dividends convert at them.
    if (fx && !this.stopping.signal.aborted) {
      const outcome = await this.refreshRates(fx, today, counts);
      succeeded += outcome.succeeded;
      failures.push(...outcome.failures);
    }
    if (prices) {
      const targets = await securityTargets(this.db.prisma, today, {
        accountId: request.accountId,
        only: request.securities,
      });
      let next = 0;
      const worker = async () => {
        while (next < targets.length && !this.stopping.signal.aborted) {
          const target = targets[next++];
          const outcome = await this.refreshSecurity(prices, target, today, counts);
          if (outcome === "ok") succeeded++;
          else if (outcome !== "unsupported") failures.push(`${target.symbol} (${target.exchange}): ${outcome}`);
        }
      };
      await Promise.all(Array.from({ length: SECURITIES_AT_ONCE }, worker));
    }
    const status = failures.length === 0 ? "Succeeded" : succeeded > 0 ? "Partial" : "Failed";
    const message = failures.length
      ? `${failures.length} failed: ${failures.slice(0, 5).join("; ")}${failures.length > 5 ? "; …" : ""}`
      : null;
    await this.db.prisma.marketDataRun.update({
      where: { id: runId },
      data: { status, finishedAt: new Date(), counts: { ...counts }, message },
    });
    this.log.info({ runId, status, counts }, "market-data refresh ended");
  }

  /** One security, all or nothing: "ok", "unsupported", or what went wrong. */
  private async refreshSecurity(
    provider: PriceProvider,
    target: SecurityTarget,
    today: string,
    counts: Counts,
  ): Promise<string> {
    const providerSymbol = provider.symbolFor(target);
    if (!providerSymbol) {
      const error = `${provider.id} has no symbol for exchange ${target.exchange}`;
      await markStatus(this.db.prisma, target, { ok: false, error });
      return "unsupported";
    }
    try {
      const range = { from: target.from < today ? target.from : today, to: today };
      const history = await provider.getHistory(target, range, { signal: this.stopping.signal });
      if (history.currency !== target.currencyCode)
        throw new ProviderError(
          "invalid",
          `${provider.id} prices ${providerSymbol} in ${history.currency}, the holdings are in ${target.currencyCode}: nothing stored`,
        );
      const written = await storeHistory(this.db.prisma, target, history);
      counts.securities++;
      counts.prices += written.prices;
      counts.dividends += written.dividends;
      counts.splits += written.splits;
      // What the stored events mean for each account's holdings: their own records, made from
      // every dividend and split stored so far (a back-dated trade changes the units).
      // (Awaited before adding: `counts.x += await …` reads x before the await and loses the
      // other workers' additions made meanwhile.)
      const income = await recordProviderDividends(this.db.prisma, target);
      const actions = await offerCorporateActions(this.db.prisma, target);
      const classified = await classifyHoldings(this.db.prisma, target, history.instrumentType);
      counts.incomeRecords += income;
      counts.corporateActions += actions;
      counts.classified += classified;
      return "ok";
    } catch (error) {
      const message = describe(error);
      await markStatus(this.db.prisma, target, { ok: false, providerSymbol, error: message }).catch(() => undefined);
      return message;
    }
  }

  private async refreshRates(
    fx: FxProvider,
    today: string,
    counts: Counts,
  ): Promise<{ succeeded: number; failures: string[] }> {
    const targets = await fxTargets(this.db.prisma, fx, today);
    if (targets.length === 0) return { succeeded: 0, failures: [] };
    const from = targets.reduce((min, t) => (t.from < min ? t.from : min), today);
    try {
      const rows = await fx.getRates(
        targets.map((t) => t.pair),
        { from, to: today },
        { signal: this.stopping.signal },
      );
      for (const target of targets) {
        const own = rows.filter(
          (r) => r.base === target.pair.base && r.quote === target.pair.quote && r.date >= target.from,
        );
        counts.fxRates += await storeRates(this.db.prisma, fx.id, own);
        await markStatus(this.db.prisma, fxStatusKey(target.pair), { ok: true, lastPriceDate: own.at(-1)?.date });
      }
      return { succeeded: targets.length, failures: [] };
    } catch (error) {
      const message = describe(error);
      for (const target of targets)
        await markStatus(this.db.prisma, fxStatusKey(target.pair), { ok: false, error: message }).catch(
          () => undefined,
        );
      return { succeeded: 0, failures: [`exchange rates (${fx.id}): ${message}`] };
    }
  }
}
