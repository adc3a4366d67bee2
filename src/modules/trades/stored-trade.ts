import { Decimal, ZERO } from "../../lib/money";
import { tradeEvent, type FoldResult, type LedgerEvent, type TradeType } from "../ledger";
import { OUTGOING, type TradeInput } from "./trades.schemas";

/**
 * What a valid trade input is stored as, one rule for a trade entered alone (trades.service.ts)
 * and for each row of an import (trades-import.service.ts). Pure: the caller has chosen the
 * currency and the exchange rate.
 */
export interface StoredTrade {
  tradeType: TradeType;
  tradeDate: string;
  quantity: Decimal;
  price: Decimal;
  brokerage: Decimal;
  currencyCode: string;
  exchangeRate: Decimal;
  sourceId: string | null;
  notes: string;
  acquisitionDate: string | null;
  reference: string | null;
  parcels: { tradeId: number; units: Decimal }[];
}

/** The fields of a trade input (a body or an import row) that the stored trade takes as given. */
type GivenFields = Pick<
  TradeInput,
  | "tradeType"
  | "tradeDate"
  | "quantity"
  | "price"
  | "brokerage"
  | "sourceId"
  | "notes"
  | "acquisitionDate"
  | "reference"
  | "parcels"
>;

/** Units as stored: negative for units leaving; a Cancellation without a quantity takes every unit (known after the fold). */
export function signedQuantity(type: TradeType, quantity: Decimal | undefined): Decimal {
  const q = (quantity ?? ZERO).abs();
  return OUTGOING.has(type) ? q.neg() : q;
}

export function storedTrade(data: GivenFields, currencyCode: string, exchangeRate: Decimal): StoredTrade {
  return {
    tradeType: data.tradeType,
    tradeDate: data.tradeDate,
    quantity: signedQuantity(data.tradeType, data.quantity),
    price: data.price ?? ZERO,
    brokerage: data.brokerage ?? ZERO,
    currencyCode,
    exchangeRate,
    sourceId: data.sourceId ?? null,
    notes: data.notes ?? "",
    acquisitionDate: data.acquisitionDate ?? null,
    reference: data.reference ?? null,
    parcels: (data.parcels ?? []).map((p) => ({ tradeId: p.tradeId, units: p.quantity })),
  };
}

/** The trade as the parcel fold reads it; `id` orders it among the trades of its day. */
export function storedTradeEvent(id: number, holdingId: number, t: StoredTrade): LedgerEvent {
  return tradeEvent(
    {
      id,
      holdingId,
      tradeType: t.tradeType,
      tradeDate: t.tradeDate,
      quantity: t.quantity,
      price: t.price,
      brokerage: t.brokerage,
      exchangeRate: t.exchangeRate,
      acquisitionDate: t.acquisitionDate,
    },
    t.parcels.length ? t.parcels : undefined,
  );
}

/**
 * A Cancellation disposes of every unit held when it comes (same-day trades entered before it
 * included): it is stored as that many units, negative, read off the fold itself.
 */
export function cancelledUnits(fold: FoldResult, eventKey: string): Decimal {
  return fold.disposals.filter((d) => d.eventKey === eventKey).reduce((s, d) => s.minus(d.units), new Decimal(0));
}

/**
 * Why a Cancellation's given quantity cannot stand, or undefined when it can: absent (zero), or
 * the units it takes (either sign). Any other figure is refused rather than replaced: a user who
 * wrote 100 for a holding of 150 has the wrong holding, date or trade type in mind.
 */
export function cancelledUnitsMismatch(given: Decimal, taken: Decimal): string | undefined {
  if (given.isZero() || given.abs().eq(taken.abs())) return undefined;
  return `is ${given.abs().toFixed()}, but a Cancellation takes every unit held on its date: ${taken.abs().toFixed()}; give that, or leave quantity out`;
}
