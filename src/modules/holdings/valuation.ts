import { Decimal } from "../../lib/money";

/**
 * Valuation inputs and the choice of price and rate (API.md, market prices): the latest price on
 * or before the date, from the custom investment's own prices, else imported market prices, else
 * the last trade price; the holding's currency converted to the base at the latest imported rate
 * on or before the date, else the rate of its last trade. Pure.
 */
export interface PricePoint {
  date: string;
  price: Decimal;
}

export type PriceSource = "Custom" | "Market" | "LastTrade" | "None";

export function choosePrice(custom: PricePoint | undefined, market: PricePoint | undefined, lastTrade: PricePoint | undefined): { price: Decimal | null; date: string | null; source: PriceSource } {
  const pick = custom ?? market ?? lastTrade;
  if (!pick) return { price: null, date: null, source: "None" };
  return { price: pick.price, date: pick.date, source: custom ? "Custom" : market ? "Market" : "LastTrade" };
}

/** A unit of `from` in `to`, from rates "1 base buys `rate` quote" in either direction. */
export function crossRate(from: string, to: string, rates: Map<string, Decimal>): Decimal | undefined {
  if (from === to) return new Decimal(1);
  const direct = rates.get(`${from}/${to}`);
  if (direct) return direct;
  const inverse = rates.get(`${to}/${from}`);
  if (inverse && !inverse.isZero()) return new Decimal(1).div(inverse);
  return undefined;
}

export interface Position {
  quantity: Decimal;
  costBase: Decimal;
  price: Decimal | null;
  priceDate: string | null;
  priceSource: PriceSource;
  /** Holding currency → base currency rate used. */
  exchangeRate: Decimal | null;
  marketValue: Decimal | null;
  unrealisedGain: Decimal | null;
}

export function valuePosition(args: {
  quantity: Decimal;
  costBase: Decimal;
  price: ReturnType<typeof choosePrice>;
  rate: Decimal | undefined;
}): Position {
  const { quantity, costBase, price, rate } = args;
  const marketValue =
    quantity.isZero() ? new Decimal(0) : price.price && rate ? quantity.times(price.price).times(rate).toDecimalPlaces(4, Decimal.ROUND_HALF_UP) : null;
  return {
    quantity,
    costBase,
    price: price.price,
    priceDate: price.date,
    priceSource: price.source,
    exchangeRate: rate ?? null,
    marketValue,
    unrealisedGain: marketValue ? marketValue.minus(costBase) : null,
  };
}
