import { Decimal } from "../../lib/money";
import { foldParcels, ParcelError, type FoldResult, type LedgerEvent, type ParcelMethod } from "../ledger";
import type { CgtSummary, LossLedgerYear } from "../tax/cgt";
import { taxAt } from "./tax-planner";

/**
 * The tax planner's what-if (docs/reports.md §6.1), pure: simulate sell grown into a plan. Sells
 * fold into their holdings' ledgers together, and the year's loss ledger is read without and with
 * them.
 */
/** One sell of a what-if, ready for the fold: amounts in the holding's currency, its rate to AUD. */
export interface PlannedSell {
  holdingId: number;
  date: string;
  units: Decimal;
  price: Decimal;
  brokerage: Decimal;
  exchangeRate: Decimal;
  /** The method it takes when it names no parcels. */
  method: ParcelMethod;
  parcels?: { tradeId: number; units: Decimal }[];
}

/** The event key of the what-if's sell at `index` (its position in the request). */
export const whatIfKey = (index: number): string => `what-if sell ${index}`;

/**
 * The folds of the holdings the sells touch, each sell added after every event of its day, in the
 * request's order: a second sell of a holding takes its parcels after the first. A sell beyond the
 * units held, or one leaving a later trade without units, is a ParcelError naming the sells.
 */
export function foldWithSells(
  eventsOf: (holdingId: number) => readonly LedgerEvent[],
  methodFor: (holdingId: number, event: LedgerEvent) => ParcelMethod,
  discountRate: Decimal,
  sells: readonly PlannedSell[],
): Map<number, FoldResult> {
  const added = new Map<number, Map<LedgerEvent, ParcelMethod>>();
  sells.forEach((s, i) => {
    const event: LedgerEvent = {
      key: whatIfKey(i),
      type: "Sell",
      date: s.date,
      seq: Number.MAX_SAFE_INTEGER - sells.length + i,
      units: s.units,
      price: s.price,
      brokerage: s.brokerage,
      exchangeRate: s.exchangeRate,
      parcels: s.parcels,
    };
    const of = added.get(s.holdingId) ?? new Map<LedgerEvent, ParcelMethod>();
    of.set(event, s.method);
    added.set(s.holdingId, of);
  });
  const folds = new Map<number, FoldResult>();
  for (const [holdingId, extra] of [...added].sort(([a], [b]) => a - b)) {
    try {
      folds.set(
        holdingId,
        foldParcels([...eventsOf(holdingId), ...extra.keys()], {
          methodFor: (e) => extra.get(e) ?? methodFor(holdingId, e),
          discountRate,
        }),
      );
    } catch (error) {
      if (!(error instanceof ParcelError)) throw error;
      const index = sells.findIndex((_, i) => whatIfKey(i) === error.eventKey);
      if (index >= 0)
        throw new ParcelError(error.eventKey, `sells[${index}]: ${error.message.replace(error.eventKey, "the sell")}`);
      const named = sells.flatMap((s, i) => (s.holdingId === holdingId ? [`sells[${i}]`] : [])).join(", ");
      throw new ParcelError(
        error.eventKey,
        `${named} would leave ${error.eventKey} of holding ${holdingId} without the units it needs: ${error.message}`,
      );
    }
  }
  return folds;
}

export interface WhatIfOutcome {
  before: CgtSummary;
  after: CgtSummary;
  difference: { netCapitalGain: Decimal; netCapitalLossesCarriedForward: Decimal; estimatedTax: Decimal | null };
}

/** The year's summary before and after the sells (the loss ledgers without and with them), and what changed. */
export function whatIfOutcome(
  before: readonly LossLedgerYear[],
  after: readonly LossLedgerYear[],
  marginalTaxRate: Decimal | null,
): WhatIfOutcome {
  const b = before[before.length - 1].summary;
  const a = after[after.length - 1].summary;
  const netCapitalGain = a.netCapitalGain.minus(b.netCapitalGain);
  return {
    before: b,
    after: a,
    difference: {
      netCapitalGain,
      netCapitalLossesCarriedForward: a.netCapitalLossesCarriedForward.minus(b.netCapitalLossesCarriedForward),
      // Each side's tax rounded as estimatedTax is, so the difference is theirs exactly.
      estimatedTax:
        marginalTaxRate === null
          ? null
          : taxAt(a.netCapitalGain, marginalTaxRate)!.minus(taxAt(b.netCapitalGain, marginalTaxRate)!),
    },
  };
}
