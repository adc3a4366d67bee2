import { Decimal, ZERO } from "../../lib/money";
import { UNCLASSIFIED } from "../holdings/dimension";
import { driftReport, type DriftReport, type Group, type RebalanceHolding } from "./drift";
import { buyLeg, sellLeg, split, tradable, type RebalanceLeg } from "./rebalance-legs";

export type { DriftEntry, DriftReport, DriftStatus, RebalanceHolding } from "./drift";
export type { LegParcel, RebalanceLeg } from "./rebalance-legs";

/**
 * The rebalancer (docs/reports.md §4): the drift of a portfolio against an allocation
 * model and the trades that bring it back, as deterministic arithmetic. Pure: no Prisma, no clock;
 * the service values the holdings (the daily engine's rules) and hands them over.
 *
 * Money is Decimal (leg values to 4 decimals, as the ledger keeps them); weights are percentages.
 * Ties break by bucket sortOrder, then label, then holding id.
 */
export type RebalanceMode = "BuyOnly" | "BuyAndSell";
export type RebalanceBand = "Tolerance" | "ExactTarget";

export interface RebalanceBucket {
  label: string;
  targetPct: Decimal;
  tolerancePct: Decimal;
  sortOrder: number;
}

/** A security a `dimension: holding` bucket names that the portfolio does not hold yet. */
export interface NewSecurity {
  label: string;
  symbol: string;
  exchange: string;
  price: Decimal;
  rate: Decimal;
}

export interface RebalanceInput {
  dimension: string;
  buckets: RebalanceBucket[];
  holdings: RebalanceHolding[];
  /** The cash accounts' balance in the base currency (counted only with a `Cash` bucket). */
  cashBalance: Decimal;
  newSecurities: NewSecurity[];
  cashToInvest: Decimal;
  mode: RebalanceMode;
  band: RebalanceBand;
  wholeUnits: boolean;
  minTradeValue: Decimal;
  excludeHoldingIds: number[];
  taxAware: boolean;
  asOf: string;
  /** The owner's CGT discount rate (MinimiseCGT ranks discount-eligible parcels by it). */
  discountRate: Decimal;
}

export interface RebalanceWarning {
  code: "NO_HOLDING_NO_PRICE" | "NO_PRICE" | "BELOW_MIN_TRADE" | "WHOLE_UNITS_CASH";
  message: string;
  label?: string;
  holdingId?: number;
}

export interface RebalanceResult {
  totalValue: Decimal;
  cashAvailable: Decimal;
  driftReport: DriftReport;
  legs: RebalanceLeg[];
  postTradeDrift: DriftReport;
  cashRemaining: Decimal;
  warnings: RebalanceWarning[];
}

const HUNDRED = new Decimal(100);
export const CASH_LABEL = "Cash";

const key = (label: string) => label.toLowerCase();
const byGroupOrder = (a: Group, b: Group) =>
  a.sortOrder - b.sortOrder || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

export function computeRebalancePlan(input: RebalanceInput): RebalanceResult {
  const warnings: RebalanceWarning[] = [];
  const excluded = new Set(input.excludeHoldingIds);
  const inScope = [...input.holdings]
    .filter((h) => !excluded.has(h.holdingId))
    .sort((a, b) => a.holdingId - b.holdingId);
  const hasCashBucket = input.buckets.some((b) => key(b.label) === key(CASH_LABEL));
  const cashAvailable = hasCashBucket ? input.cashBalance : ZERO;

  const groups = new Map<string, Group>();
  for (const b of input.buckets) {
    groups.set(key(b.label), {
      label: b.label,
      targetPct: b.targetPct,
      tolerancePct: b.tolerancePct,
      sortOrder: b.sortOrder,
      untargeted: false,
      isCash: key(b.label) === key(CASH_LABEL),
      holdings: [],
    });
  }
  const untargetedOrder = Math.max(0, ...input.buckets.map((b) => b.sortOrder)) + 1;
  for (const h of inScope) {
    // A price of 0 (a legacy close, a trade at 0) is no price either: nothing to divide a budget by.
    if (!tradable(h) && !h.units.isZero()) {
      warnings.push({
        code: "NO_PRICE",
        holdingId: h.holdingId,
        message: `${h.symbol}.${h.exchange} has no price (or no exchange rate), or one of 0, on ${input.asOf}: valued at 0 and not traded.`,
      });
    }
    const label = h.dimensionValue ?? UNCLASSIFIED;
    let g = groups.get(key(label));
    if (!g || g.isCash) {
      const k = `\u0000${key(label)}`;
      g = groups.get(k);
      if (!g) {
        g = {
          label,
          targetPct: ZERO,
          tolerancePct: ZERO,
          sortOrder: untargetedOrder,
          untargeted: true,
          isCash: false,
          holdings: [],
        };
        groups.set(k, g);
      }
    }
    g.holdings.push(h);
  }
  const ordered = [...groups.values()]
    .filter((g) => !g.untargeted || g.holdings.some((h) => !h.value.isZero()))
    .sort((a, b) => Number(a.untargeted) - Number(b.untargeted) || byGroupOrder(a, b));

  const totalValue = inScope
    .reduce((s, h) => s.plus(h.value), ZERO)
    .plus(cashAvailable)
    .plus(input.cashToInvest);
  const valueOf = (g: Group, cash: Decimal, moved: Map<number, Decimal>) =>
    g.isCash ? cash : g.holdings.reduce((s, h) => s.plus(h.value).plus(moved.get(h.holdingId) ?? ZERO), ZERO);
  const report = (cash: Decimal, moved: Map<number, Decimal>, bought: Map<string, Decimal>) =>
    driftReport(ordered, totalValue, (g) => valueOf(g, cash, moved).plus(bought.get(key(g.label)) ?? ZERO));
  const before = report(cashAvailable, new Map(), new Map());

  // What each group should hold, and whether the band lets it trade.
  const desired = (g: Group) => totalValue.times(g.targetPct).div(HUNDRED);
  const entryOf = new Map(ordered.map((g, i) => [g, before.entries[i]]));
  const trades = (g: Group) => input.band === "ExactTarget" || g.untargeted || entryOf.get(g)!.status !== "InBand";

  const legs: RebalanceLeg[] = [];
  let cash = input.cashToInvest.plus(cashAvailable);
  /** A leg worth at least minTradeValue is made (its cash moves at once); a smaller one is dropped with a warning. */
  const admit = (leg: RebalanceLeg | undefined): boolean => {
    if (!leg) return false;
    if (leg.value.lt(input.minTradeValue)) {
      warnings.push({
        code: "BELOW_MIN_TRADE",
        label: leg.label,
        ...(leg.holdingId !== null ? { holdingId: leg.holdingId } : {}),
        message: `${leg.side} of ${leg.symbol}.${leg.exchange} worth ${leg.value.toFixed()} is below minTradeValue ${input.minTradeValue.toFixed()}: dropped.`,
      });
      return false;
    }
    legs.push(leg);
    cash = leg.side === "Sell" ? cash.plus(leg.value) : cash.minus(leg.value);
    return true;
  };
  // Cash the model wants kept in cash is not spent (a Cash bucket's target).
  const cashGroup = ordered.find((g) => g.isCash);
  const keep = cashGroup ? desired(cashGroup) : ZERO;

  // Sells: overweight groups down to target (untargeted ones to zero), split by current value.
  if (input.mode === "BuyAndSell") {
    for (const g of ordered) {
      if (g.isCash || !trades(g)) continue;
      const excess = valueOf(g, ZERO, new Map()).minus(g.untargeted ? ZERO : desired(g));
      if (excess.lte(0)) continue;
      for (const [h, amount] of split(excess, g.holdings.filter(tradable))) admit(sellLeg(h, g.label, amount, input));
    }
  }

  // Buys: underweight groups, most underweight first, each up to its target, never past the cash.
  const under = ordered
    .filter((g) => !g.isCash && !g.untargeted && trades(g))
    .map((g) => ({ g, gap: desired(g).minus(valueOf(g, ZERO, new Map())) }))
    .filter((x) => x.gap.gt(0))
    .sort((a, b) => entryOf.get(a.g)!.driftPct - entryOf.get(b.g)!.driftPct || byGroupOrder(a.g, b.g));
  for (const { g, gap } of under) {
    const budget = Decimal.min(gap, cash.minus(keep));
    if (budget.lte(0)) break;
    const targets = g.holdings.filter(tradable);
    // Holdings without a price are named in their own warning; the bucket waits for a price.
    if (targets.length === 0 && g.holdings.length > 0) continue;
    if (targets.length === 0) {
      const fresh =
        input.dimension === "holding" ? input.newSecurities.find((s) => key(s.label) === key(g.label)) : undefined;
      if (!fresh || !fresh.price.gt(0) || !fresh.rate.gt(0)) {
        warnings.push({
          code: "NO_HOLDING_NO_PRICE",
          label: g.label,
          message: `Bucket ${g.label} has no holding to buy and no market price above 0 for one: nothing bought for it.`,
        });
        continue;
      }
      admit(
        buyLeg(
          { holdingId: null, symbol: fresh.symbol, exchange: fresh.exchange, price: fresh.price, rate: fresh.rate },
          g.label,
          budget,
          input.wholeUnits,
        ),
      );
      continue;
    }
    for (const [h, amount] of split(budget, targets))
      admit(
        buyLeg(
          { holdingId: h.holdingId, symbol: h.symbol, exchange: h.exchange, price: h.price!, rate: h.rate! },
          g.label,
          amount,
          input.wholeUnits,
        ),
      );
  }
  if (input.wholeUnits && legs.some((l) => l.side === "Buy") && cash.gt(keep)) {
    warnings.push({
      code: "WHOLE_UNITS_CASH",
      message: `Whole units leave ${cash.minus(keep).toFixed()} of the cash to invest unspent (in cashRemaining).`,
    });
  }

  const moved = new Map<number, Decimal>();
  const bought = new Map<string, Decimal>();
  for (const leg of legs) {
    const signed = leg.side === "Buy" ? leg.value : leg.value.neg();
    if (leg.holdingId === null) bought.set(key(leg.label), (bought.get(key(leg.label)) ?? ZERO).plus(signed));
    else moved.set(leg.holdingId, (moved.get(leg.holdingId) ?? ZERO).plus(signed));
  }
  const sorted = legs.sort(
    (a, b) =>
      sideOrder(a) - sideOrder(b) ||
      groupRank(ordered, a.label) - groupRank(ordered, b.label) ||
      (a.holdingId ?? 0) - (b.holdingId ?? 0),
  );
  return {
    totalValue,
    cashAvailable,
    driftReport: before,
    legs: sorted,
    postTradeDrift: report(cash, moved, bought),
    cashRemaining: cash,
    warnings,
  };
}

const sideOrder = (l: RebalanceLeg) => (l.side === "Sell" ? 0 : 1);
const groupRank = (groups: Group[], label: string) => groups.findIndex((g) => g.label === label);
