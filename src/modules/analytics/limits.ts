import type { Context } from "../../context";
import { addDays, today } from "../../lib/dates";
import { validationFailed } from "../../lib/domain-errors";
import { dayNumber } from "../ledger";
import { defaultInterval, pointCount, type Interval } from "./intervals";

/**
 * What one analytics request may cost (config.ts AnalyticsLimits; README: Limits and protections),
 * checked inside the services so REST and GraphQL refuse alike: a series of at most
 * ANALYTICS_MAX_POINTS points, a daily valuation of at most ANALYTICS_MAX_DAYS days.
 *
 * Checked twice: on the query itself before any read, when it names `from`; and on the resolved
 * period (from the first event by default, which the daily valuation starts from anyway, net
 * invested counting every flow since). A portfolio whose events span less than the limit is never
 * refused its default period.
 */
export function assertWithinLimits(
  ctx: Context,
  period: { from?: string; to?: string; start?: string; interval?: Interval },
  series: boolean,
): void {
  const { from } = period;
  if (from === undefined) return;
  const to = period.to ?? today();
  // resolvePeriod refuses that one with its own message.
  if (from > to) return;
  const { maxPoints, maxDays } = ctx.analytics.limits;
  if (series) {
    const interval = period.interval ?? defaultInterval(from, to);
    const points = pointCount(from, to, interval);
    if (points > maxPoints) {
      const what = `${interval} from ${from} to ${to} gives ${points} points, more than ANALYTICS_MAX_POINTS (${maxPoints})`;
      throw validationFailed(
        `The query is invalid: ${what}; ask for a shorter period or a longer interval (week, month).`,
        [
          { path: "interval", message: what },
          {
            path: "from",
            message: `gives more than ANALYTICS_MAX_POINTS (${maxPoints}) ${interval} points with to ${to}`,
          },
          {
            path: "to",
            message: `gives more than ANALYTICS_MAX_POINTS (${maxPoints}) ${interval} points with from ${from}`,
          },
        ],
      );
    }
  }
  const start = period.start !== undefined && period.start < from ? period.start : addDays(from, -1);
  const days = dayNumber(to) - dayNumber(start) + 1;
  if (days > maxDays) {
    const since = start === addDays(from, -1) ? `the day before from (${start})` : `the first event (${start})`;
    const what = `the daily valuation from ${since} to ${to} takes ${days} days, more than ANALYTICS_MAX_DAYS (${maxDays})`;
    throw validationFailed(`The query is invalid: ${what}; ask for a shorter period.`, [
      { path: "from", message: `${what} with to ${to}` },
      { path: "to", message: `${what} with from ${from}` },
    ]);
  }
}
