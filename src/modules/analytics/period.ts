import type { Context } from "../../context";
import { addDays, today } from "../../lib/dates";
import { validationFailed } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { dayNumber, flowInBaseCurrency, type Flow, type FxTable } from "../ledger";
import { defaultInterval, type Interval } from "./intervals";
import { timeWeightedReturn, type TwrResult } from "./twr";

/** What every analytics operation shares: the period asked for, the TWR chain over it, net invested. */
export interface Period {
  from: string;
  to: string;
  /** The first day loaded: the first event, or the day before `from`, whichever is earlier. */
  start: string;
  interval: Interval;
}

/** The period asked for, with its defaults (docs/reports.md §0: from the first event to today). */
export function resolvePeriod(
  request: { from?: string; to?: string; interval?: Interval },
  first: string | null,
): Period {
  const to = request.to ?? today();
  const from = request.from ?? (first && first < to ? first : to);
  if (from > to)
    throw validationFailed("The query is invalid: from is after to.", [
      { path: "from", message: `must not be after to (${to})` },
    ]);
  // From the first event (net invested counts every flow since), or the day before `from` (its
  // close is the opening value), whichever is earlier.
  const start = first && first < from ? first : addDays(from, -1);
  return { from, to, start, interval: request.interval ?? defaultInterval(from, to) };
}

/**
 * The time-weighted return from `from` to `to` (with the cumulative percent of each day), over
 * daily series whose first day is `start` (they may run past `to`).
 */
export function chain(
  period: { from: string; to: string; start: string },
  value: ArrayLike<number>,
  flowIn: ArrayLike<number>,
  flowOut: ArrayLike<number>,
): TwrResult {
  const offset = dayNumber(period.from) - dayNumber(period.start);
  const end = dayNumber(period.to) - dayNumber(period.start);
  const days = [];
  for (let i = offset; i <= end; i++) days.push({ value: value[i], inflow: flowIn[i], outflow: flowOut[i] });
  return timeWeightedReturn(value[offset - 1] ?? 0, days);
}

/** Net invested on a date: the flows in date order, each at its own day's rate, summed up to it (dates asked in order). */
export function netInvested(flowList: readonly Flow[], fx: FxTable, base: string): (date: string) => Decimal {
  const flows = [...flowList].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let next = 0;
  let invested = new Decimal(0);
  return (date) => {
    for (; next < flows.length && flows[next].date <= date; next++) {
      const f = flows[next];
      invested = invested.plus(flowInBaseCurrency(f, fx, base) ?? 0); // without a rate: 0, as the engine counts it
    }
    return invested;
  };
}

/** The date of the first trade, income or cash transaction of a portfolio (or a holding's first trade or income); null when none. */
export async function firstEventDate(
  ctx: Context,
  of: { portfolioId: number } | { holdingId: number },
): Promise<string | null> {
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
