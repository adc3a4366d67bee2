import { Decimal } from "../../lib/money";
import { DatedSeries } from "./dated-series";
import { roundMoney } from "./rounding";

/**
 * The one FX rule (docs/rules.md §8): the rate on day d, in units of the target currency per unit of
 * the source, is the latest imported rate dated ≤ d, direct, inverse or crossed through a common
 * currency, the newest winning; else the rate of the last trade in that currency dated ≤ d; 1 for
 * the same currency. Pure: built from rows loaded once, answered by binary search.
 *
 * Imported rows read "1 base buys `rate` quote" (the fx_rate table). Derived rates (an inverse, a
 * cross) are rounded to 10 decimals, the scale exchange rates are stored with.
 */
export const RATE_DP = 10;

export interface FxRow {
  base: string;
  quote: string;
  /** YYYY-MM-DD */
  date: string;
  rate: Decimal.Value;
}

/** A trade's own rate (base currency of its portfolio per unit of the trade's currency). */
export interface TradeRateRow {
  currencyCode: string;
  /** YYYY-MM-DD */
  date: string;
  exchangeRate: Decimal.Value;
}

export type RateVia = "Same" | "Direct" | "Inverse" | "Crossed" | "LastTrade";

export interface RateOn {
  rate: Decimal;
  /** The date of the rate used; a cross is as old as its older leg. */
  date: string;
  via: RateVia;
}

const roundRate = (d: Decimal) => d.toDecimalPlaces(RATE_DP, Decimal.ROUND_HALF_UP);

export class FxTable {
  /** "A/B" → units of B per unit of A, imported direct or as the inverse of a B/A row. */
  private readonly legs = new Map<string, DatedSeries<{ rate: Decimal.Value; inverse: boolean }>>();
  /** Currencies each currency has a leg with, for crosses. */
  private readonly neighbours = new Map<string, Set<string>>();
  private readonly tradeRates = new Map<string, DatedSeries<Decimal.Value>>();
  /** The currency trade rates convert into: the portfolio's base. */
  private readonly tradeBase: string | undefined;

  /** `trades`: the portfolio's trades' own rates into its `base` currency, the rule's fallback. */
  constructor(rows: Iterable<FxRow>, trades?: { base: string; rates: Iterable<TradeRateRow> }) {
    this.tradeBase = trades?.base;
    const points = new Map<string, { date: string; value: { rate: Decimal.Value; inverse: boolean } }[]>();
    const add = (from: string, to: string, date: string, rate: Decimal.Value, inverse: boolean) => {
      const key = `${from}/${to}`;
      const list = points.get(key) ?? [];
      list.push({ date, value: { rate, inverse } });
      points.set(key, list);
      if (!this.neighbours.has(from)) this.neighbours.set(from, new Set());
      this.neighbours.get(from)!.add(to);
    };
    for (const r of rows) {
      if (r.base === r.quote || !(Number(r.rate) > 0)) continue;
      add(r.base, r.quote, r.date, r.rate, false);
      add(r.quote, r.base, r.date, r.rate, true);
    }
    // Same date both ways: the direct row wins (DatedSeries keeps the last of a date).
    for (const [key, list] of points)
      this.legs.set(key, DatedSeries.of(list.sort((a, b) => Number(b.value.inverse) - Number(a.value.inverse))));
    const byCurrency = new Map<string, { date: string; value: Decimal.Value }[]>();
    for (const t of trades?.rates ?? []) {
      if (t.currencyCode === trades!.base) continue; // the base converts at 1, never by a trade
      const list = byCurrency.get(t.currencyCode) ?? [];
      list.push({ date: t.date, value: t.exchangeRate });
      byCurrency.set(t.currencyCode, list);
    }
    for (const [currency, list] of byCurrency) this.tradeRates.set(currency, DatedSeries.of(list));
  }

  /** Units of `to` per unit of `from` from the imported rates alone, or undefined. */
  imported(from: string, to: string, date: string): RateOn | undefined {
    if (from === to) return { rate: new Decimal(1), date, via: "Same" };
    let best = this.leg(from, to, date);
    for (const via of [...(this.neighbours.get(from) ?? [])].sort()) {
      if (via === to) continue;
      const first = this.leg(from, via, date);
      const second = first && this.leg(via, to, date);
      if (!first || !second) continue;
      const cross: RateOn = {
        rate: roundRate(first.rate.times(second.rate)),
        date: first.date < second.date ? first.date : second.date,
        via: "Crossed",
      };
      if (!best || cross.date > best.date) best = cross;
    }
    return best;
  }

  /**
   * The rate on `date` by the whole rule: imported (newest wins), else the last trade in `from`
   * dated ≤ `date` (trade rates convert into the portfolio's base, so only when `to` is that base).
   */
  rateOn(from: string, to: string, date: string): RateOn | undefined {
    const imported = this.imported(from, to, date);
    if (imported) return imported;
    const trade = to === this.tradeBase ? this.tradeRates.get(from)?.on(date) : undefined;
    return trade ? { rate: new Decimal(trade.value), date: trade.date, via: "LastTrade" } : undefined;
  }

  /** `amount` of `from` in `to` at the rate on `date`, rounded as money; null without a rate. */
  convert(amount: Decimal, from: string, to: string, date: string): Decimal | null {
    const rate = this.rateOn(from, to, date)?.rate;
    return rate ? roundMoney(amount.times(rate)) : null;
  }

  private leg(from: string, to: string, date: string): RateOn | undefined {
    const hit = this.legs.get(`${from}/${to}`)?.on(date);
    if (!hit) return undefined;
    const { rate, inverse } = hit.value;
    return inverse
      ? { rate: roundRate(new Decimal(1).div(rate)), date: hit.date, via: "Inverse" }
      : { rate: new Decimal(rate), date: hit.date, via: "Direct" };
  }
}
