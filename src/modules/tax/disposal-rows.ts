import { financialYearOf } from "../../lib/dates";
import type { Decimal } from "../../lib/money";
import { isDiscountEligible, type Disposal, type FoldResult, type Ledger, type LedgerEvent } from "../ledger";
import type { CgtGain, CgtSummary } from "./cgt";
import type { UnconfirmedIncome } from "./unconfirmed-income";

/*
 * The rows of the CGT events (docs/reports.md §5.1): each parcel's part in a sell, a cancellation or
 * a capital return beyond the cost base, as the capital gains report, the tax planner and a
 * simulated sell list them. tax-book.ts folds the ledger that feeds them.
 */

export type CgtEventType = "Sell" | "Cancellation" | "CapitalReturnExcess";

/** The gain of units of one parcel disposed of (or, in the unrealised report, as if disposed of). */
export interface ParcelGain extends CgtGain {
  acquisitionTradeId: number | null;
  acquisitionDate: string;
  disposalDate: string;
  quantity: Decimal;
  costBase: Decimal;
  proceeds: Decimal;
}

/** One parcel's part in one CGT event: a row of the capital gains report. */
export interface DisposalRow extends ParcelGain {
  holdingId: number;
  symbol: string;
  exchange: string;
  eventType: CgtEventType;
  saleTradeId: number | null;
  method: string | null;
  financialYear: number;
}

const EVENT_TYPE: Record<Disposal["kind"], CgtEventType | null> = {
  Sell: "Sell",
  Cancellation: "Cancellation",
  ReturnOfCapitalExcess: "CapitalReturnExcess",
  TransferOut: null,
};

/** The CGT events of every holding's fold, each parcel's part a row, in date order. */
export function disposalRows(
  ledger: Ledger,
  holdings: Map<number, { symbol: string; exchange: string }>,
  yearEnd: string,
  discountRate: Decimal,
  folds: Map<number, FoldResult>,
): DisposalRow[] {
  const rows: (DisposalRow & { order: number })[] = [];
  let order = 0;
  for (const [holdingId, events] of ledger.eventsByHolding) {
    const holding = holdings.get(holdingId);
    if (!holding) continue;
    const eventOf = new Map<string, LedgerEvent>(events.map((e) => [e.key, e]));
    const disposals = folds.get(holdingId)?.disposals ?? [];
    for (const d of disposals) {
      const eventType = EVENT_TYPE[d.kind];
      if (!eventType || !d.isCgtEvent) continue;
      const event = eventOf.get(d.eventKey);
      rows.push({
        ...disposalRow(
          holdingId,
          holding,
          d,
          eventType,
          event ? methodOf(ledger, holdingId, event) : null,
          yearEnd,
          discountRate,
        ),
        order: order++,
      });
    }
  }
  rows.sort((a, b) =>
    a.disposalDate < b.disposalDate
      ? -1
      : a.disposalDate > b.disposalDate
        ? 1
        : (a.saleTradeId ?? 0) - (b.saleTradeId ?? 0) || a.order - b.order,
  );
  return rows.map(({ order: _, ...row }) => row);
}

export function disposalRow(
  holdingId: number,
  holding: { symbol: string; exchange: string },
  d: Disposal,
  eventType: CgtEventType,
  method: string | null,
  yearEnd: string,
  discountRate: Decimal,
): DisposalRow {
  return {
    holdingId,
    symbol: holding.symbol,
    exchange: holding.exchange,
    eventType,
    saleTradeId: d.tradeId ?? null,
    acquisitionTradeId: d.parcelTradeId ?? null,
    acquisitionDate: d.acquisitionDate,
    disposalDate: d.date,
    quantity: d.units,
    costBase: d.costBaseInBaseCurrency,
    proceeds: d.proceedsInBaseCurrency,
    capitalGain: d.gainInBaseCurrency,
    // Eligible by the 12-month rule (a loss row may be: the summary never discounts a loss); an
    // entity without a discount has no discountable rows.
    isDiscountable: discountRate.gt(0) && isDiscountEligible(d.acquisitionDate, d.date),
    method,
    financialYear: financialYearOf(d.date, yearEnd),
  };
}

/** The parcel method a sell took: its manual parcels, or the method of docs/rules.md §3's precedence. */
export function methodOf(ledger: Ledger, holdingId: number, event: LedgerEvent): string | null {
  if (event.type !== "Sell") return null;
  return event.parcels && event.parcels.length > 0 ? "Manual" : ledger.methodFor(holdingId, event);
}

/** The capital gains report of a year (docs/reports.md §5.1): its events and summary. */
export interface CapitalGainsReport {
  portfolioId: number;
  financialYear: number;
  from: string;
  to: string;
  entityType: string;
  discountPercent: Decimal;
  summary: CgtSummary;
  disposals: Omit<DisposalRow, "financialYear">[];
  /** Income paid in the year and not confirmed: its trusts' capital gains and cost base changes are out (docs/rules.md §4.2, §6.5). */
  unconfirmedIncome: UnconfirmedIncome;
}

/** A parcel a sell takes, as simulate-sell and the tax planner's what-if answer it. */
export interface SoldParcel {
  acquisitionTradeId: number | null;
  acquisitionDate: string;
  quantity: Decimal;
  costBase: Decimal;
  proceeds: Decimal;
  capitalGain: Decimal;
  isDiscountable: boolean;
}

/** The parcel a disposal row took, as a sell's answer lists it. */
export function soldParcel(row: Omit<DisposalRow, "financialYear">): SoldParcel {
  const { acquisitionTradeId, acquisitionDate, quantity, costBase, proceeds, capitalGain, isDiscountable } = row;
  return { acquisitionTradeId, acquisitionDate, quantity, costBase, proceeds, capitalGain, isDiscountable };
}
