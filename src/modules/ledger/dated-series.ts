/**
 * A series of values by date, sorted once, answering "the latest on or before d" by binary search
 * (O(log n)): the lookup behind every "price on d", "rate on d" and "position after d" rule.
 * Dates are YYYY-MM-DD, which order as text.
 */
export class DatedSeries<T> {
  private constructor(
    readonly dates: readonly string[],
    readonly values: readonly T[],
  ) {}

  /** Sorts by date; of several values on one date the last given wins (callers order by preference). */
  static of<T>(points: Iterable<{ date: string; value: T }>): DatedSeries<T> {
    const given = [...points];
    // Rows usually arrive in date order (ORDER BY date); sorting is for those that do not.
    let ordered = true;
    for (let i = 1; i < given.length && ordered; i++) ordered = given[i - 1].date <= given[i].date;
    const sorted = ordered
      ? given
      : given.map((p, i) => ({ ...p, i })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.i - b.i));
    const dates: string[] = [];
    const values: T[] = [];
    for (const p of sorted) {
      if (dates.length > 0 && dates[dates.length - 1] === p.date) values[values.length - 1] = p.value;
      else {
        dates.push(p.date);
        values.push(p.value);
      }
    }
    return new DatedSeries(dates, values);
  }

  /** Already sorted by date, one value per date (the fold's timeline builds itself in order). */
  static sorted<T>(dates: string[], values: T[]): DatedSeries<T> {
    return new DatedSeries(dates, values);
  }

  get length(): number {
    return this.dates.length;
  }

  /** Index of the latest date ≤ `date`, or −1 when every date is later. */
  indexOn(date: string): number {
    let lo = 0;
    let hi = this.dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.dates[mid] <= date) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The latest value dated on or before `date`, with its date. */
  on(date: string): { date: string; value: T } | undefined {
    const i = this.indexOn(date);
    return i < 0 ? undefined : { date: this.dates[i], value: this.values[i] };
  }
}
