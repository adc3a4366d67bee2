import { Decimal } from "../../src/lib/money";
import {
  taxPlan,
  type PlannerParcel,
  type TaxPlan,
  type TaxPlannerInput,
} from "../../src/modules/planning/tax-planner";
import type { CgtGain } from "../../src/modules/tax/cgt";
import { d, s } from "./parcels.helpers";
import { HALF } from "./tax.helpers";

/** An open parcel valued on asOf: `parcel(7, 12, "2023-05-02", 100, 1500, 900)` (holding, trade, date, units, cost, value). */
export function parcel(
  holdingId: number,
  tradeId: number,
  acquisitionDate: string,
  quantity: number,
  costBase: Decimal.Value,
  marketValue: Decimal.Value,
): PlannerParcel {
  return {
    holdingId,
    symbol: `H${holdingId}`,
    exchange: "ASX",
    acquisitionTradeId: tradeId,
    acquisitionDate,
    quantity: d(quantity),
    costBase: d(costBase as string),
    marketValue: d(marketValue as string),
  };
}

/** A plan with an individual's discount, no carried-forward losses, no rate and no acquisitions unless given. */
export function plan(over: Partial<TaxPlannerInput> & { gains?: CgtGain[]; carried?: Decimal.Value }): TaxPlan {
  const { gains, carried, ...rest } = over;
  return taxPlan({
    asOf: "2026-05-15",
    discountRate: HALF,
    year: { gains: gains ?? [], trustGains: [], carriedForwardLossesAvailable: d((carried ?? 0) as string) },
    parcels: [],
    unpriced: [],
    acquisitions: new Map(),
    marginalTaxRate: null,
    ...rest,
  });
}

/** A decimal or null as text. */
export const sn = (v: Decimal | null) => (v === null ? null : s(v));
