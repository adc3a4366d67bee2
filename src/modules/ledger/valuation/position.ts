import { Decimal } from "../../../lib/money";
import type { PriceOn, PriceSource } from "../prices";
import type { RateOn } from "../fx";
import { roundMoney } from "../rounding";

/**
 * The value of a position on a date (docs/rules.md §7): units × price on d × rate on d, in the
 * portfolio's base currency, 4 decimals. Pure; the price and the rate come from the one price
 * rule (prices.ts) and the one FX rule (fx.ts).
 */
export type { PriceSource };

export interface Position {
  quantity: Decimal;
  costBaseInBaseCurrency: Decimal;
  price: Decimal | null;
  priceDate: string | null;
  priceSource: PriceSource;
  /** Units of the base currency per unit of the holding's currency. */
  exchangeRate: Decimal | null;
  marketValueInBaseCurrency: Decimal | null;
  unrealisedGainInBaseCurrency: Decimal | null;
}

export function valuePosition(args: {
  quantity: Decimal;
  costBaseInBaseCurrency: Decimal;
  price: PriceOn;
  rate: RateOn | undefined;
}): Position {
  const { quantity, costBaseInBaseCurrency, price } = args;
  const rate = args.rate?.rate;
  const marketValue = quantity.isZero()
    ? new Decimal(0)
    : price.price && rate
      ? roundMoney(quantity.times(price.price).times(rate))
      : null;
  return {
    quantity,
    costBaseInBaseCurrency,
    price: price.price,
    priceDate: price.date,
    priceSource: price.source,
    exchangeRate: rate ?? null,
    marketValueInBaseCurrency: marketValue,
    unrealisedGainInBaseCurrency: marketValue ? marketValue.minus(costBaseInBaseCurrency) : null,
  };
}
