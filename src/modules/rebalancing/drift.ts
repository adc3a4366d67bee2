import { Decimal, ZERO } from "../../lib/money";
import type { LedgerEvent, ParcelMethod } from "../ledger";

/**
 * The drift report (docs/reports.md §4.3): each bucket's current weight against its target, and whether it
 * is in band. Current weight = value / total value; drift = current % − target %; InBand when
 * |drift| ≤ tolerance, else Over or Under; holdings in no bucket are Untargeted (target 0) and,
 * when they hold value, count in maxDriftPct and outOfBandCount.
 */
/** A holding as the drift report and the rebalancer (rebalance.ts) read it. */
export interface RebalanceHolding {
  holdingId: number;
  symbol: string;
  exchange: string;
  /** The holding's value on the model's dimension (its bucket label); null: Unclassified. */
  dimensionValue: string | null;
  units: Decimal;
  /** Price on `asOf` in the holding's currency, and the rate to the base; null when unknown. */
  price: Decimal | null;
  rate: Decimal | null;
  /** units × price × rate, base currency (0 when no price). */
  value: Decimal;
  /** For `taxAware`: the holding's ledger events and their parcel methods, so a sell leg is folded as the tax engine folds it. */
  events?: LedgerEvent[];
  methodFor?: (event: LedgerEvent) => ParcelMethod;
}

export type DriftStatus = "InBand" | "Under" | "Over" | "Untargeted";

export interface DriftEntry {
  label: string;
  currentValue: Decimal;
  /** Computed: a Float, unrounded (docs/conventions.md §4.3). */
  currentPct: number;
  /** The model's own, as stored: exact. */
  targetPct: Decimal;
  tolerancePct: Decimal;
  driftPct: number;
  status: DriftStatus;
}

export interface DriftReport {
  entries: DriftEntry[];
  maxDriftPct: number;
  outOfBandCount: number;
}

const HUNDRED = new Decimal(100);

/** A bucket, or the entry of holdings no bucket takes (target 0). */
export interface Group {
  label: string;
  targetPct: Decimal;
  tolerancePct: Decimal;
  sortOrder: number;
  untargeted: boolean;
  isCash: boolean;
  holdings: RebalanceHolding[];
}

export function driftReport(groups: Group[], total: Decimal, valueOf: (g: Group) => Decimal): DriftReport {
  const entries = groups.map((g) => {
    const currentValue = valueOf(g);
    const currentPct = total.isZero() ? ZERO : currentValue.div(total).times(HUNDRED);
    const drift = currentPct.minus(g.targetPct);
    const status: DriftStatus = g.untargeted
      ? "Untargeted"
      : drift.abs().lte(g.tolerancePct)
        ? "InBand"
        : drift.gt(0)
          ? "Over"
          : "Under";
    return {
      label: g.label,
      currentValue,
      currentPct: currentPct.toNumber(),
      targetPct: g.targetPct,
      tolerancePct: g.tolerancePct,
      driftPct: drift.toNumber(),
      status,
    };
  });
  const counted = entries.filter((e) => e.status !== "Untargeted" || !e.currentValue.isZero());
  return {
    entries,
    maxDriftPct: counted.reduce((m, e) => Math.max(m, Math.abs(e.driftPct)), 0),
    outOfBandCount: counted.filter((e) => e.status !== "InBand").length,
  };
}
