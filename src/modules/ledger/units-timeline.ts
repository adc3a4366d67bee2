import { ZERO, type Decimal } from "../../lib/money";
import { DatedSeries } from "./dated-series";
import { sortEvents, unitsAfter, type LedgerEvent } from "./events";

/** What the daily engine reads of a holding: units after each day, and on any date. */
export interface UnitsTimeline {
  readonly days: DatedSeries<{ units: Decimal }>;
  on(date: string): { units: Decimal };
}

/**
 * Units after every day, without parcels or cost base: the fold's units by the same rule
 * (unitsAfter), for valuation over long periods where only units matter. It trusts the ledger
 * (stored ledgers are checked by the fold on every write).
 */
export function unitsTimeline(events: LedgerEvent[]): UnitsTimeline {
  const dates: string[] = [];
  const points: { units: Decimal }[] = [];
  let held = ZERO;
  for (const e of sortEvents(events)) {
    held = unitsAfter(e, held);
    if (dates.length > 0 && dates[dates.length - 1] === e.date) points[points.length - 1] = { units: held };
    else {
      dates.push(e.date);
      points.push({ units: held });
    }
  }
  const days = DatedSeries.sorted(dates, points);
  return { days, on: (date) => days.on(date)?.value ?? { units: ZERO } };
}
