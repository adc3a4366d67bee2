import type { Context } from "../../context";
import { addDays, today } from "../../lib/dates";
import { validationFailed } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { dailyValuation, dayNumber, foldHolding, loadLedger, loadValuationRange, roundMoney, type Flow, type FxTable } from "../ledger";
import { holdingWithPortfolio } from "../holdings/holdings.service";
import { scopedPortfolio } from "../portfolios/scoped";
import { TimeseriesQuery } from "./analytics.schemas";
import { defaultInterval, pointDates, type Interval } from "./intervals";
import { timeWeightedReturn } from "./twr";

/**
 * GET /v1/portfolios/{p}/timeseries, GraphQL `portfolioTimeseries` (REPORTS.md §1): the
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

const ZERO = new Decimal(0);

export async function getPortfolioTimeseries(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<TimeseriesPoint[]> {
  const request = parseInput(TimeseriesQuery, query ?? {}, "The query");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const period = resolvePeriod(request, await firstEventDate(ctx, { portfolioId: portfolio.id }));
  const range = await loadValuationRange(ctx.db, portfolio, period.start, period.to);
  const engine = dailyValuation(range);
  const twr = chain(period, engine.total, engine.flowIn, engine.flowOut);
  const invested = netInvested(engine.portfolioFlows, range.fx, portfolio.baseCurrencyCode);
  return pointDates(period.from, period.to, period.interval).map((date) => {
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
  });
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
 * GET /v1/holdings/{h}/timeseries, GraphQL `holdingTimeseries` (REPORTS.md §1): the same points for
 * one holding, with its units, price, rate and cost base; its flows are its own (DOMAIN.md §3:
 * acquiring trades in, disposals, capital returns and income out).
 */
export async function getHoldingTimeseries(ctx: Context, holdingId: unknown, query: unknown = {}): Promise<HoldingTimeseriesPoint[]> {
  const request = parseInput(TimeseriesQuery, query ?? {}, "The query");
  const holding = await holdingWithPortfolio(ctx, holdingId);
  const portfolio = holding.portfolio;
  const period = resolvePeriod(request, await firstEventDate(ctx, { holdingId: holding.id }));
  const [range, ledger] = await Promise.all([loadValuationRange(ctx.db, portfolio, period.start, period.to), loadLedger(ctx.db, portfolio, [holding.id], period.to)]);
  const engine = dailyValuation(range);
  const series = engine.holdings.find((h) => h.id === holding.id)!;
  // A day without a price or rate values the holding at 0, as the portfolio's total counts it.
  const values = series.value.map((v) => (Number.isNaN(v) ? 0 : v));
  const twr = chain(period, values, series.flowIn, series.flowOut);
  const invested = netInvested(engine.holdingFlows.get(holding.id) ?? [], range.fx, portfolio.baseCurrencyCode);
  const timeline = foldHolding(ledger, holding.id).timeline;
  return pointDates(period.from, period.to, period.interval).map((date) => {
    const h = engine.exactOn(date).holdings.find((x) => x.id === holding.id)!;
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
  });
}

interface Period {
  from: string;
  to: string;
  /** The first day loaded: the first event, or the day before `from`, whichever is earlier. */
  start: string;
  interval: Interval;
}

/** The period asked for, with its defaults (REPORTS.md §0: from the first event to today). */
function resolvePeriod(request: { from?: string; to?: string; interval?: Interval }, first: string | null): Period {
  const to = request.to ?? today();
  const from = request.from ?? (first && first < to ? first : to);
  if (from > to) throw validationFailed("The query is invalid: from is after to.", [{ path: "from", message: `must not be after to (${to})` }]);
  // From the first event (net invested counts every flow since), or the day before `from` (its
  // close is the opening value), whichever is earlier.
  const start = first && first < from ? first : addDays(from, -1);
  return { from, to, start, interval: request.interval ?? defaultInterval(from, to) };
}

/** The cumulative time-weighted return (percent) of each day from `from`, over series starting at `start`. */
function chain(period: Period, value: ArrayLike<number>, flowIn: ArrayLike<number>, flowOut: ArrayLike<number>): Float64Array {
  const offset = dayNumber(period.from) - dayNumber(period.start);
  const days = [];
  for (let i = offset; i < value.length; i++) days.push({ value: value[i], inflow: flowIn[i], outflow: flowOut[i] });
  return timeWeightedReturn(value[offset - 1] ?? 0, days).daily;
}

/** Net invested on a date: the flows in date order, each at its own day's rate, summed up to it (dates asked in order). */
function netInvested(flowList: readonly Flow[], fx: FxTable, base: string): (date: string) => Decimal {
  const flows = [...flowList].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let next = 0;
  let invested = ZERO;
  return (date) => {
    for (; next < flows.length && flows[next].date <= date; next++) {
      const f = flows[next];
      const rate = fx.rateOn(f.currencyCode, base, f.date)?.rate;
      if (!rate) continue; // the engine counts a flow without a rate as 0 too
      const amount = roundMoney(f.amount.times(rate));
      invested = f.direction === "in" ? invested.plus(amount) : invested.minus(amount);
    }
    return invested;
  };
}

/** The date of the first trade, income or cash transaction of a portfolio (or a holding's first trade or income); null when none. */
async function firstEventDate(ctx: Context, of: { portfolioId: number } | { holdingId: number }): Promise<string | null> {
  const [row] =
    "portfolioId" in of
      ? await ctx.db.$queryRaw<{ first: string | null }[]>`
          SELECT LEAST(
            (SELECT min(trade_date) FROM trade WHERE portfolio_id = ${of.portfolioId}),
            (SELECT min(ex_dividend_date) FROM income WHERE portfolio_id = ${of.portfolioId}),
            (SELECT min(t.date) FROM cash_transaction t JOIN cash_account a ON a.id = t.cash_account_id WHERE a.portfolio_id = ${of.portfolioId})
          )::text AS first`
      : await ctx.db.$queryRaw<{ first: string | null }[]>`
          SELECT LEAST(
            (SELECT min(trade_date) FROM trade WHERE holding_id = ${of.holdingId}),
            (SELECT min(ex_dividend_date) FROM income WHERE holding_id = ${of.holdingId})
          )::text AS first`;
  return row?.first ?? null;
}
