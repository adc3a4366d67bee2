import { LRUCache } from "lru-cache";
import { DEFAULT_ANALYTICS_LIMITS, DEFAULT_SERIES_CACHE_MB } from "../../../config";
import type { PrismaClient } from "../../../../generated/prisma/client";
import { today } from "../../../lib/dates";
import { isClientClosed } from "../../../lib/slices";
import { atOneMoment, momentVersions } from "../moment";
import { dailyValuationSliced, dayNumber, type DailyValuation } from "./daily-series";
import { loadValuationRange, type RangePortfolio, type ValuationRange } from "./range-load";

/**
 * What a series computation reads of a request (a Context is one): the database, the process's
 * cache and day limit, and the signal that stops it when the client hangs up.
 */
export interface SeriesRequest {
  db: PrismaClient;
  series: SeriesCache;
  analytics?: { limits: { maxDays: number } };
  signal?: AbortSignal;
}

/**
 * Computed daily series, reused across requests and ranges, never stale.
 *
 * A portfolio's range load and daily engine are kept under the versions its data had when they
 * were read: the portfolio's ledger version and its account's market version, which triggers give
 * a new value in the same transaction as any write to the ledger, the prices or the rates
 * (migration ledger_versions), whichever process made it. Each request reads the two versions
 * (one statement) before anything else; a series cached under other versions is not used. The
 * versions are read before the data, so a series can only be newer than its key, never older;
 * and again after it (compute): a series is one moment's data, never half before a write and
 * half after.
 *
 * One series per portfolio, over the widest span asked for (from the first day any request needed
 * to today, or a later `to`): a later request for another range of the same portfolio slices it.
 * The cache is per process (each API process warms its own), bounded by an estimate of its size
 * in memory (SERIES_CACHE_MB, least recently used first out); concurrent requests for the same
 * series share one computation. The widest span stays within ANALYTICS_MAX_DAYS: beyond it, a
 * request's own span is computed (which analytics/limits.ts has kept within it).
 *
 * A computation stops when the client of the request that started it hangs up (lib/slices.ts); a
 * request that shared it and is still waiting then computes the series again.
 */
export interface PortfolioSeries {
  range: ValuationRange;
  engine: DailyValuation;
  /** The versions the series is the data of (read before and after its load). */
  version: string;
}

interface Entry {
  version: string;
  start: string;
  to: string;
  series: Promise<PortfolioSeries>;
  /** Bytes, estimated once the series is computed. */
  size: number;
}

export class SeriesCache {
  private readonly entries: LRUCache<number, Entry>;
  /** Lookups answered from the cache (a computation under way counts) and not (the metrics read them). */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(maxMb = DEFAULT_SERIES_CACHE_MB) {
    this.entries = new LRUCache<number, Entry>({
      maxSize: Math.max(1, maxMb) * 1024 * 1024,
      sizeCalculation: (e) => Math.max(1, e.size),
    });
  }

  /** The portfolio's series covering `start..to`: the cached one when its versions are current, else computed (and kept). */
  async get(ctx: SeriesRequest, portfolio: RangePortfolio, start: string, to: string): Promise<PortfolioSeries> {
    for (;;) {
      try {
        return await this.getOnce(ctx, portfolio, start, to);
      } catch (error) {
        // Another request's computation, stopped because its client left (getOnce dropped it).
        if (isClientClosed(error) && !ctx.signal?.aborted) continue;
        throw error;
      }
    }
  }

  private async getOnce(
    ctx: SeriesRequest,
    portfolio: RangePortfolio,
    start: string,
    to: string,
  ): Promise<PortfolioSeries> {
    const version = await momentVersions(ctx.db, scopeOf(portfolio));
    const cached = this.entries.get(portfolio.id);
    if (cached && cached.version === version && cached.start <= start && to <= cached.to) {
      this.lookups.hits++;
      try {
        return await cached.series;
      } catch (error) {
        if (this.entries.peek(portfolio.id)?.series === cached.series) this.entries.delete(portfolio.id);
        throw error;
      }
    }
    this.lookups.misses++;
    // Over the widest span seen for this version, to today at least: the next range is a hit.
    const sameVersion = cached?.version === version ? cached : undefined;
    const widest = {
      start: sameVersion && sameVersion.start < start ? sameVersion.start : start,
      to: [to, today(), sameVersion?.to ?? to].sort().at(-1)!,
    };
    // A context built by hand (a job, a test) may carry no limits: the defaults.
    const maxDays = ctx.analytics?.limits.maxDays ?? DEFAULT_ANALYTICS_LIMITS.maxDays;
    const span = [widest, { start, to: to < today() ? today() : to }].find(
      (s) => dayNumber(s.to) - dayNumber(s.start) + 1 <= maxDays,
    ) ?? { start, to };
    const entry: Entry = { version, ...span, size: 1, series: compute(ctx, portfolio, span.start, span.to, version) };
    // A request that read its versions before a write finished computes an older series: it
    // answers from it but does not replace a newer one (versions only grow: one sequence).
    if (cached && isOlder(version, cached.version)) return entry.series;
    this.entries.set(portfolio.id, entry);
    try {
      const series = await entry.series;
      // Re-set with its size, under the versions it was found to be the data of (a write during its
      // load had it loaded again: newer than the versions read first). Still the entry for the
      // portfolio unless a newer one replaced it.
      if (this.entries.peek(portfolio.id) === entry)
        this.entries.set(portfolio.id, { ...entry, version: series.version, size: estimateBytes(series) });
      return series;
    } catch (error) {
      if (this.entries.peek(portfolio.id)?.series === entry.series) this.entries.delete(portfolio.id);
      throw error;
    }
  }
}

/**
 * The range load's statements take their own snapshots (on a server, several at once): a write
 * landing between two of them (a DRP's income read without its units, a trade without its price)
 * would give a series of no moment. The load runs at one moment (ledger/moment.ts): the versions
 * are read again after it and, changed, it is loaded again; the series is kept under the versions
 * read before the load that gave it (when the last load stands though another write landed
 * during it: newer than its key, never older, so the next request's versions replace it).
 */
async function compute(
  ctx: SeriesRequest,
  portfolio: RangePortfolio,
  start: string,
  to: string,
  before: string,
): Promise<PortfolioSeries> {
  const { value: range, version } = await atOneMoment(
    ctx.db,
    scopeOf(portfolio),
    () => loadValuationRange(ctx.db, portfolio, start, to),
    before,
  );
  return { range, engine: await dailyValuationSliced(range, ctx.signal), version };
}

/** What a portfolio's series is read from: its ledger, its account's prices and rates. */
const scopeOf = (portfolio: RangePortfolio) => ({ portfolioIds: [portfolio.id], accountId: portfolio.accountId });

/** Whether versions `a` were read before versions `b` (either part smaller; "id:version/market"). */
function isOlder(a: string, b: string): boolean {
  const parts = (v: string) =>
    v.split("/").map((part) => {
      const n = part.slice(part.lastIndexOf(":") + 1);
      return n === "" || n === "-" ? -1n : BigInt(n);
    });
  const [al, am] = parts(a);
  const [bl, bm] = parts(b);
  return al < bl || am < bm;
}

/** A rough size in memory: the engine's typed arrays and the loaded records. */
function estimateBytes({ range, engine }: PortfolioSeries): number {
  const days = engine.days.length;
  const arrays = days * 8 * (6 * engine.holdings.length + 2 * engine.cash.length + 4) + days * 60;
  const records =
    600 * (range.trades.length + range.income.length) +
    200 * range.cashAccounts.reduce((s, a) => s + a.transactions.length, 0);
  const prices =
    120 * range.holdings.reduce((s, h) => s + h.prices.series.market.length + h.prices.series.custom.length, 0);
  return arrays + records + prices;
}

/**
 * A portfolio's daily valuation over `start..to` (at least), through the context's cache: the
 * range load and the engine's series. The engine's arrays may start earlier and end later than
 * asked; callers index them from `range.from`.
 */
export function portfolioSeries(
  ctx: SeriesRequest,
  portfolio: RangePortfolio,
  start: string,
  to: string,
): Promise<PortfolioSeries> {
  return ctx.series.get(ctx, portfolio, start, to);
}
