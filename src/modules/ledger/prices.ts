import { Decimal } from "../../lib/money";
import { DatedSeries } from "./dated-series";

/**
 * The one price rule (docs/rules.md §7): a holding's price on day d is the latest price dated ≤ d
 * from the custom investment's own prices first, else the imported market prices of its symbol,
 * else the price of its last trade in the holding's currency. Pure: series loaded once, each
 * question answered by binary search.
 */
export type PriceSource = "Custom" | "Market" | "LastTrade" | "None";

export interface PriceOn {
  price: Decimal | null;
  date: string | null;
  source: PriceSource;
}

/** The trade types whose price is a market price of the holding (not a per-unit adjustment). */
export const PRICED_TRADE_TYPES = ["Buy", "Sell", "OpeningBalance", "TransferIn"] as const;

export interface HoldingPriceRows {
  /** Points, or a series already in date order with one point per date. */
  custom: { date: string; price: Decimal.Value }[] | DatedSeries<Decimal.Value>;
  market: { date: string; price: Decimal.Value }[] | DatedSeries<Decimal.Value>;
  /** The holding's trades, any order; only priced ones in the holding's currency count. */
  trades: { date: string; seq: number; tradeType: string; price: Decimal.Value; currencyCode: string }[];
  currencyCode: string;
}

/** A sign check needs no exact arithmetic: any positive decimal text is a positive number. */
const isPositive = (v: Decimal.Value) => (v instanceof Decimal ? v.gt(0) : Number(v) > 0);

/** Whether a trade's price is a price of the holding: a priced trade type, in its currency, above zero. */
export function isPriceTrade(
  t: { tradeType: string; price: Decimal.Value; currencyCode: string },
  holdingCurrency: string,
): boolean {
  return (
    (PRICED_TRADE_TYPES as readonly string[]).includes(t.tradeType) &&
    t.currencyCode === holdingCurrency &&
    isPositive(t.price)
  );
}

export class HoldingPrices {
  private readonly custom: DatedSeries<Decimal.Value>;
  private readonly market: DatedSeries<Decimal.Value>;
  private readonly lastTrade: DatedSeries<Decimal.Value>;

  constructor(rows: HoldingPriceRows) {
    const seriesOf = (x: HoldingPriceRows["custom"]) =>
      x instanceof DatedSeries ? x : DatedSeries.of(x.map((p) => ({ date: p.date, value: p.price })));
    this.custom = seriesOf(rows.custom);
    this.market = seriesOf(rows.market);
    const priced = rows.trades
      .filter((t) => isPriceTrade(t, rows.currencyCode))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
    // Of one day's trades the last entered is the day's last trade (DatedSeries keeps the last).
    this.lastTrade = DatedSeries.of(priced.map((t) => ({ date: t.date, value: t.price })));
  }

  priceOn(date: string): PriceOn {
    for (const [series, source] of [
      [this.custom, "Custom"],
      [this.market, "Market"],
      [this.lastTrade, "LastTrade"],
    ] as const) {
      const hit = series.on(date);
      if (hit) return { price: new Decimal(hit.value), date: hit.date, source };
    }
    return { price: null, date: null, source: "None" };
  }

  /** The raw series, for the daily engine's walk. */
  get series(): {
    custom: DatedSeries<Decimal.Value>;
    market: DatedSeries<Decimal.Value>;
    lastTrade: DatedSeries<Decimal.Value>;
  } {
    return { custom: this.custom, market: this.market, lastTrade: this.lastTrade };
  }
}
