import { Decimal, ZERO } from "../../lib/money";
import { foldParcels, roundMoney, roundUnits, type LedgerEvent } from "../ledger";
import type { RebalanceHolding } from "./drift";

/**
 * The legs of a rebalance (rebalance.ts): an amount of money turned into units of a holding to
 * buy or sell, and what a sell would realise. Pure, as the rebalancer is.
 */
export interface LegParcel {
  tradeId: number | null;
  acquisitionDate: string;
  units: Decimal;
  costBase: Decimal;
  capitalGain: Decimal;
}

export interface RebalanceLeg {
  holdingId: number | null;
  symbol: string;
  exchange: string;
  label: string;
  side: "Buy" | "Sell";
  quantity: Decimal;
  price: Decimal;
  value: Decimal;
  estimatedCapitalGain?: Decimal;
  parcels?: LegParcel[];
}

/** What a leg needs of the rebalance's input. */
export interface LegOptions {
  wholeUnits: boolean;
  taxAware: boolean;
  asOf: string;
  /** The owner's CGT discount rate (MinimiseCGT ranks discount-eligible parcels by it). */
  discountRate: Decimal;
}

/** Whether a holding can be bought or sold: a positive price and rate to turn an amount into units. */
export const tradable = (h: RebalanceHolding): boolean =>
  h.price !== null && h.rate !== null && h.price.gt(0) && h.rate.gt(0);

/** Splits an amount across holdings in proportion to their values (equally when all are 0); the last takes the remainder. */
export function split(amount: Decimal, holdings: RebalanceHolding[]): [RebalanceHolding, Decimal][] {
  if (holdings.length === 0) return [];
  const total = holdings.reduce((s, h) => s.plus(h.value), ZERO);
  let given = ZERO;
  return holdings.map((h, i) => {
    if (i === holdings.length - 1) return [h, amount.minus(given)];
    const part = roundMoney(total.isZero() ? amount.div(holdings.length) : amount.times(h.value).div(total));
    given = given.plus(part);
    return [h, part];
  });
}

function quantityFor(amount: Decimal, price: Decimal, rate: Decimal, wholeUnits: boolean): Decimal {
  // Callers pass tradable prices only; a unit price of 0 here would be a quantity of Infinity.
  if (!price.times(rate).gt(0)) return ZERO;
  const raw = amount.div(price.times(rate));
  return wholeUnits ? raw.floor() : roundUnits(raw.toDecimalPlaces(8, Decimal.ROUND_DOWN));
}

export function buyLeg(
  h: { holdingId: number | null; symbol: string; exchange: string; price: Decimal; rate: Decimal },
  label: string,
  amount: Decimal,
  wholeUnits: boolean,
): RebalanceLeg | undefined {
  // On the 4-decimal grid first: units bought for it, valued half-up, never cost more than it.
  const budget = amount.toDecimalPlaces(4, Decimal.ROUND_DOWN);
  const quantity = quantityFor(budget, h.price, h.rate, wholeUnits);
  if (quantity.lte(0)) return undefined;
  return {
    holdingId: h.holdingId,
    symbol: h.symbol,
    exchange: h.exchange,
    label,
    side: "Buy",
    quantity,
    price: h.price,
    value: roundMoney(quantity.times(h.price).times(h.rate)),
  };
}

export function sellLeg(
  h: RebalanceHolding,
  label: string,
  amount: Decimal,
  input: LegOptions,
): RebalanceLeg | undefined {
  const price = h.price!;
  const rate = h.rate!;
  const quantity = Decimal.min(h.units, quantityFor(amount, price, rate, input.wholeUnits));
  if (quantity.lte(0)) return undefined;
  const value = roundMoney(quantity.times(price).times(rate));
  const leg: RebalanceLeg = {
    holdingId: h.holdingId,
    symbol: h.symbol,
    exchange: h.exchange,
    label,
    side: "Sell",
    quantity,
    price,
    value,
  };
  if (input.taxAware && h.events) Object.assign(leg, taxOfSell(h, quantity, price, rate, input));
  return leg;
}

/**
 * The parcels a sell would take and its capital gain, by the parcel fold itself: a sell event at
 * `asOf` with the MinimiseCGT order (losses first, then discount-eligible gains, then the rest).
 */
function taxOfSell(
  h: RebalanceHolding,
  units: Decimal,
  price: Decimal,
  rate: Decimal,
  input: LegOptions,
): Pick<RebalanceLeg, "estimatedCapitalGain" | "parcels"> {
  const sell: LedgerEvent = {
    key: "rebalance sell",
    type: "Sell",
    date: input.asOf,
    seq: Number.MAX_SAFE_INTEGER,
    units,
    price,
    brokerage: ZERO,
    exchangeRate: rate,
  };
  const fold = foldParcels([...h.events!, sell], {
    methodFor: (e) => (e.key === sell.key ? "MinimiseCGT" : (h.methodFor?.(e) ?? "FIFO")),
    discountRate: input.discountRate,
  });
  const disposals = fold.disposals.filter((d) => d.eventKey === sell.key);
  return {
    estimatedCapitalGain: disposals.reduce((s, d) => s.plus(d.gainInBaseCurrency), ZERO),
    parcels: disposals.map((d) => ({
      tradeId: d.parcelTradeId ?? null,
      acquisitionDate: d.acquisitionDate,
      units: d.units,
      costBase: d.costBaseInBaseCurrency,
      capitalGain: d.gainInBaseCurrency,
    })),
  };
}
