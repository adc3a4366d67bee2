import type { Context } from "../../context";
import { notFound } from "../../lib/domain-errors";
import { Decimal, ZERO } from "../../lib/money";
import { inSlices, type Steps } from "../../lib/slices";
import { parseInput } from "../../lib/validation";
import { dayNumber, exactHolding, foldHolding, loadLedger } from "../ledger";
import { holdingWithPortfolio } from "../holdings/holdings.service";
import { scopedPortfolio } from "../ledger/portfolio-access";
import { TimeseriesQuery } from "./analytics.schemas";
import { portfolioSeries } from "../ledger/valuation/series-cache";
import { heavyWork } from "../../lib/heavy-work";
import { assertWithinLimits } from "./limits";
import { pointDates } from "./intervals";
import { chain, firstEventDate, netInvested, resolvePeriod, type Period } from "./period";

/**
 * GET /v1/portfolios/{p}/timeseries, GraphQL `portfolioTimeseries` (docs/reports.md §1): the
 * portfolio's value over a period from the daily valuation engine. Money figures are the engine's
 * exact Decimal figures on each point's date; the cumulative time-weighted return is the engine's
 * Float64 daily chain (a rate). Net invested counts every external flow since the portfolio began,
 * each at its own day's rate.
 */
export interface TimeseriesPoint {
  date: string;
  marketValue: Decimal;
  cashValue: Decimal;
  incomeReceivable: Decimal;
  totalValue: Decimal;
  netInvested: Decimal;
  cumulativeReturnPercent: number;
}

export async function getPortfolioTimeseries(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<TimeseriesPoint[]> {
  return timeseries(ctx, query, (request) => portfolioTimeseries(ctx, portfolioId, request));
}

/** A series' query parsed and held to the limits before it waits its turn as heavy work. */
function timeseries<T>(ctx: Context, query: unknown, build: (request: TimeseriesQuery) => Promise<T>): Promise<T> {
  const request = parseInput(TimeseriesQuery, query ?? {}, "The query");
  assertWithinLimits(ctx, request, true);
  return heavyWork(ctx, () => build(request));
}

async function portfolioTimeseries(
  ctx: Context,
  portfolioId: unknown,
  request: TimeseriesQuery,
): Promise<TimeseriesPoint[]> {
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const period = resolvePeriod(request, await firstEventDate(ctx, { portfolioId: portfolio.id }));
  assertWithinLimits(ctx, period, true);
  const { range, engine } = await portfolioSeries(ctx, portfolio, period.start, period.to);
  const twr = chain({ ...period, start: range.from }, engine.total, engine.flowIn, engine.flowOut).daily;
  const invested = netInvested(engine.portfolioFlows, range.fx, portfolio.baseCurrencyCode);
  return inSlices(
    pointsOf(period, (date) => {
      const day = engine.exactOn(date);
      return {
        date,
        marketValue: day.holdings.reduce((s, h) => s.plus(h.valueInBaseCurrency ?? 0), ZERO),
        cashValue: day.cash.reduce((s, c) => s.plus(c.valueInBaseCurrency ?? 0), ZERO),
        incomeReceivable: day.incomeReceivableInBaseCurrency,
        totalValue: day.totalInBaseCurrency,
        netInvested: invested(date),
        cumulativeReturnPercent: twr[dayNumber(date) - dayNumber(period.from)],
      };
    }),
    ctx.signal,
  );
}

/** Each point of the period, as steps (a ten-year daily series values 3,650 days exactly: in slices). */
function* pointsOf<T>(period: Period, point: (date: string) => T): Steps<T[]> {
  const points: T[] = [];
  for (const date of pointDates(period.from, period.to, period.interval)) {
    points.push(point(date));
    yield;
  }
  return points;
}

export interface HoldingTimeseriesPoint {
  date: string;
  quantity: Decimal;
  price: Decimal | null;
  exchangeRate: Decimal | null;
  marketValue: Decimal;
  costBase: Decimal;
  netInvested: Decimal;
  cumulativeReturnPercent: number;
}

/**
 * GET /v1/holdings/{h}/timeseries, GraphQL `holdingTimeseries` (docs/reports.md §1): the same points for
 * one holding, with its units, price, rate and cost base; its flows are its own (docs/rules.md §10:
 * acquiring trades in, disposals, capital returns and income out).
 */
export async function getHoldingTimeseries(
  ctx: Context,
  holdingId: unknown,
  query: unknown = {},
): Promise<HoldingTimeseriesPoint[]> {
  return timeseries(ctx, query, (request) => holdingTimeseries(ctx, holdingId, request));
}

async function holdingTimeseries(
  ctx: Context,
  holdingId: unknown,
  request: TimeseriesQuery,
): Promise<HoldingTimeseriesPoint[]> {
  const holding = await holdingWithPortfolio(ctx, holdingId);
  const portfolio = holding.portfolio;
  const period = resolvePeriod(request, await firstEventDate(ctx, { holdingId: holding.id }));
  // The portfolio's engine starts at the holding's first event or the day before from: within these days.
  assertWithinLimits(ctx, period, true);
  const [{ range, engine }, ledger] = await Promise.all([
    portfolioSeries(ctx, portfolio, period.start, period.to),
    loadLedger(ctx.db, portfolio, [holding.id], period.to),
  ]);
  const series = engine.holdings.find((h) => h.id === holding.id);
  const valued = range.holdings.find((h) => h.id === holding.id);
  // Deleted between its lookup and the load: gone, as a missing holding is.
  if (!series || !valued) throw notFound(`Holding ${holding.id}`);
  // A day without a price or rate values the holding at 0, as the portfolio's total counts it; its
  // value includes the income it is owed (docs/rules.md §10), so a dividend earns from its ex-date.
  const values = series.value.map((v, d) => (Number.isNaN(v) ? 0 : v) + series.receivable[d]);
  const twr = chain({ ...period, start: range.from }, values, series.flowIn, series.flowOut).daily;
  const invested = netInvested(engine.holdingFlows.get(holding.id) ?? [], range.fx, portfolio.baseCurrencyCode);
  const timeline = foldHolding(ledger, holding.id).timeline;
  return inSlices(
    pointsOf(period, (date) => {
      const h = exactHolding(valued, range.fx, portfolio.baseCurrencyCode, date);
      return {
        date,
        quantity: h.units,
        price: h.price,
        exchangeRate: h.rate,
        marketValue: h.valueInBaseCurrency ?? ZERO,
        costBase: timeline.on(date).costBaseInBaseCurrency,
        netInvested: invested(date),
        cumulativeReturnPercent: twr[dayNumber(date) - dayNumber(period.from)],
      };
    }),
    ctx.signal,
  );
}
