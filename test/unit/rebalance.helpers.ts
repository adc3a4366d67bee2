import { Decimal } from "../../src/lib/money";
import {
  computeRebalancePlan,
  type RebalanceHolding,
  type RebalanceInput,
  type RebalanceResult,
} from "../../src/modules/rebalancing/rebalance";

/** A holding of `units` at `price` (rate 1) in the bucket `label`. */
export function holding(
  holdingId: number,
  label: string | null,
  units: number | string,
  price: number | string | null = 1,
  extra: Partial<RebalanceHolding> = {},
): RebalanceHolding {
  const u = new Decimal(units);
  const p = price === null ? null : new Decimal(price);
  return {
    holdingId,
    symbol: `H${holdingId}`,
    exchange: "ASX",
    dimensionValue: label,
    units: u,
    price: p,
    rate: p === null ? null : new Decimal(1),
    value: p === null ? new Decimal(0) : u.times(p),
    ...extra,
  };
}

export const bucket = (label: string, targetPct: number, tolerancePct = 0, sortOrder = 0) => ({
  label,
  targetPct: new Decimal(targetPct),
  tolerancePct: new Decimal(tolerancePct),
  sortOrder,
});

export function plan(partial: Partial<RebalanceInput> & Pick<RebalanceInput, "buckets" | "holdings">): RebalanceResult {
  return computeRebalancePlan({
    dimension: "sector",
    cashBalance: new Decimal(0),
    newSecurities: [],
    cashToInvest: new Decimal(0),
    mode: "BuyAndSell",
    band: "Tolerance",
    wholeUnits: true,
    minTradeValue: new Decimal(0),
    excludeHoldingIds: [],
    taxAware: false,
    asOf: "2025-06-30",
    discountRate: new Decimal("0.5"),
    ...partial,
  });
}

/** Legs as short text: "Sell 1000 H1 = 1000". */
export const legsOf = (r: RebalanceResult) =>
  r.legs.map((l) => `${l.side} ${l.quantity.toFixed()} ${l.symbol} = ${l.value.toFixed()}`);
/** Drift entries as [label, currentPct, driftPct, status]. */
export const driftOf = (d: RebalanceResult["driftReport"]) =>
  d.entries.map((e) => [e.label, round(e.currentPct), round(e.driftPct), e.status]);
const round = (x: number) => Math.round(x * 1e6) / 1e6;
