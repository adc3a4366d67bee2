import { addDays, toDate } from "../../lib/dates";
import type { PriceSource } from "./prices";

/**
 * How fresh a holding's price is (docs/data.md §2): stale when its date is more than `staleDays`
 * calendar days before the exchange's last trading day on or before the valuation date. Pure:
 * the exchange's latest close is read by the caller (market-data.ts `latestExchangeCloses`).
 */

const DAY_MS = 86_400_000;

/** The latest Monday–Friday on or before `date`: the calendar of an exchange with no closes stored. */
export function lastWeekdayOnOrBefore(date: string): string {
  const weekday = toDate(date).getUTCDay(); // 0 Sunday … 6 Saturday
  return weekday === 0 ? addDays(date, -2) : weekday === 6 ? addDays(date, -1) : date;
}

/**
 * The exchange's last trading day on or before `date`: the latest date on which one of its
 * securities has a close, which follows the exchange's own calendar (holidays included) while
 * market data flows. Without any close, or when the latest close is itself stale against the last
 * weekday (market data stopped arriving), the last weekday: otherwise a feed that stopped would
 * make every price look fresh, the one case where the flag matters most.
 */
export function lastTradingDay(latestClose: string | undefined, date: string, staleDays = Infinity): string {
  const weekday = lastWeekdayOnOrBefore(date);
  if (latestClose === undefined || latestClose > date) return weekday;
  return isStale(latestClose, weekday, staleDays) ? weekday : latestClose;
}

/** Whether `priceDate` is older than `lastTradingDay` by more than `staleDays` calendar days. */
export function isStale(priceDate: string, lastTradingDay: string, staleDays: number): boolean {
  return (toDate(lastTradingDay).getTime() - toDate(priceDate).getTime()) / DAY_MS > staleDays;
}

/**
 * A holding's price freshness. A custom investment's value (its own custom price, or with none yet
 * the price it was bought at) is a valuation as of its date, not a close that a market moved past:
 * never stale. No price at all is no stale price (the price is null). Market and last-trade prices
 * follow `isStale`.
 */
export function isPriceStale(args: {
  priceDate: string | null;
  priceSource: PriceSource;
  customInvestment: boolean;
  lastTradingDay: string;
  staleDays: number;
}): boolean {
  if (args.priceDate === null || args.priceSource === "Custom" || args.priceSource === "None") return false;
  if (args.customInvestment) return false;
  return isStale(args.priceDate, args.lastTradingDay, args.staleDays);
}
