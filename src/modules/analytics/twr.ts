/**
 * The daily time-weighted return (docs/rules.md §11.1, GIPS), pure: inflows at the start of their day,
 * outflows at its end, `r_d = (V_d + Out_d) / (V_{d−1} + In_d) − 1`, 0 when the denominator is 0
 * (an empty portfolio earns nothing, and a full exit and re-entry does not break the chain);
 * cumulative `Π(1 + r_d) − 1`; annualised `(1 + R)^(365 / days) − 1` only over 365 days or more.
 * Float64: rates, not money (docs/reports.md §0).
 */
export interface TwrDay {
  /** Value at the close of the day, base currency. */
  value: number;
  /** External inflows of the day (positive amounts). */
  inflow: number;
  /** External outflows of the day (positive amounts). */
  outflow: number;
}

export interface TwrResult {
  /** Cumulative return, percent. */
  cumulativePercent: number;
  /** Annualised, percent; null under 365 days. */
  annualisedPercent: number | null;
  /** The cumulative return (percent) at the close of every day, for series. */
  daily: Float64Array;
}

export function timeWeightedReturn(openingValue: number, days: readonly TwrDay[]): TwrResult {
  const daily = new Float64Array(days.length);
  let growth = 1;
  let previous = openingValue;
  for (let i = 0; i < days.length; i++) {
    const { value, inflow, outflow } = days[i];
    const base = previous + inflow;
    if (base !== 0) growth *= (value + outflow) / base;
    daily[i] = (growth - 1) * 100;
    previous = value;
  }
  const cumulative = growth - 1;
  return { cumulativePercent: cumulative * 100, annualisedPercent: annualise(cumulative, days.length), daily };
}

/** `(1 + R)^(365 / days) − 1`, percent; null under 365 days (a part year is not annualised). */
export function annualise(cumulative: number, days: number): number | null {
  if (days < 365) return null;
  return (Math.pow(1 + cumulative, 365 / days) - 1) * 100;
}
