import type { Context } from "../../context";
import { addDays, today } from "../../lib/dates";
import { validationFailed } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { dailyValuation, loadValuationRange, roundMoney } from "../ledger";
import { scopedPortfolio } from "../portfolios/scoped";
import { TimeseriesQuery } from "./analytics.schemas";
import { dayNumber } from "./days";
import { defaultInterval, pointDates } from "./intervals";
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
  const to = request.to ?? today();
  const first = await firstEventDate(ctx, portfolio.id);
  const from = request.from ?? (first && first < to ? first : to);
  if (from > to) throw validationFailed("The query is invalid: from is after to.", [{ path: "from", message: `must not be after to (${to})` }]);
  const interval = request.interval ?? defaultInterval(from, to);

  // From the first event (net invested counts every flow since), or the day before `from` (its
  // close is the opening value), whichever is earlier.
  const start = first && first < from ? first : addDays(from, -1);
  const range = await loadValuationRange(ctx.db, portfolio, start, to);
  const engine = dailyValuation(range);
  const offset = dayNumber(from) - dayNumber(start);
  const days = [];
  for (let i = offset; i < engine.days.length; i++) days.push({ value: engine.total[i], inflow: engine.flowIn[i], outflow: engine.flowOut[i] });
  const twr = timeWeightedReturn(engine.total[offset - 1] ?? 0, days);

  // Net invested: the flows in date order, each at its own day's rate, summed up to each point.
  const flows = [...engine.portfolioFlows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let next = 0;
  let invested = ZERO;
  const base = portfolio.baseCurrencyCode;
  return pointDates(from, to, interval).map((date) => {
    for (; next < flows.length && flows[next].date <= date; next++) {
      const f = flows[next];
      const rate = f.currencyCode === base ? new Decimal(1) : range.fx.rateOn(f.currencyCode, base, f.date)?.rate;
      if (!rate) continue; // the engine counts a flow without a rate as 0 too
      const amount = roundMoney(f.amount.times(rate));
      invested = f.direction === "in" ? invested.plus(amount) : invested.minus(amount);
    }
    const day = engine.exactOn(date);
    return {
      date,
      marketValue: day.holdings.reduce((s, h) => s.plus(h.valueInBaseCurrency ?? 0), ZERO),
      cashValue: day.cash.reduce((s, c) => s.plus(c.valueInBaseCurrency ?? 0), ZERO),
      incomeReceivable: day.incomeReceivableInBaseCurrency,
      totalValue: day.totalInBaseCurrency,
      netInvested: invested,
      cumulativeReturnPercent: twr.daily[dayNumber(date) - dayNumber(from)],
    };
  });
}

/** The date of the portfolio's first trade, income or cash transaction; null when it has none. */
async function firstEventDate(ctx: Context, portfolioId: number): Promise<string | null> {
  const [row] = await ctx.db.$queryRaw<{ first: string | null }[]>`
    SELECT LEAST(
      (SELECT min(trade_date) FROM trade WHERE portfolio_id = ${portfolioId}),
      (SELECT min(ex_dividend_date) FROM income WHERE portfolio_id = ${portfolioId}),
      (SELECT min(t.date) FROM cash_transaction t JOIN cash_account a ON a.id = t.cash_account_id WHERE a.portfolio_id = ${portfolioId})
    )::text AS first`;
  return row?.first ?? null;
}
