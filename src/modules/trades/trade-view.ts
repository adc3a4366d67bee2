import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { holdingWhere } from "../holdings/holdings.service";
import type { StoredTrade } from "./stored-trade";

/**
 * A trade as both transports answer it, and the select it is read with: the stored trade, with
 * where it sits, its value, its parcels by quantity and whether it has an attachment.
 */
export interface TradeView extends Omit<StoredTrade, "parcels"> {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  value: Decimal;
  parcels: { tradeId: number; quantity: Decimal }[];
  hasAttachment: boolean;
}

/** The trade's own columns, which every view of a trade reads (this one, the export's file rows). */
export const TRADE_COLUMNS = {
  id: true,
  tradeType: true,
  tradeDate: true,
  quantity: true,
  price: true,
  brokerage: true,
  currencyCode: true,
  exchangeRate: true,
  notes: true,
  acquisitionDate: true,
  reference: true,
} satisfies Prisma.TradeSelect;

export const TRADE_VIEW_SELECT = {
  ...TRADE_COLUMNS,
  holdingId: true,
  portfolioId: true,
  sourceId: true,
  holding: { select: { symbol: true, exchange: true } },
  parcels: { select: { parcelTradeId: true, quantity: true }, orderBy: { parcelTradeId: "asc" } },
  attachment: { select: { tradeId: true } },
} satisfies Prisma.TradeSelect;

type TradeViewRow = Prisma.TradeGetPayload<{ select: typeof TRADE_VIEW_SELECT }>;

export function toTradeView(t: TradeViewRow): TradeView {
  const quantity = new Decimal(t.quantity);
  const price = new Decimal(t.price);
  return {
    id: t.id,
    holdingId: t.holdingId,
    portfolioId: t.portfolioId,
    symbol: t.holding.symbol,
    exchange: t.holding.exchange,
    tradeType: t.tradeType,
    tradeDate: fromDate(t.tradeDate),
    quantity,
    price,
    brokerage: new Decimal(t.brokerage),
    value: quantity.abs().times(price).toDecimalPlaces(4, Decimal.ROUND_HALF_UP),
    currencyCode: t.currencyCode,
    exchangeRate: new Decimal(t.exchangeRate),
    sourceId: t.sourceId,
    notes: t.notes,
    acquisitionDate: t.acquisitionDate ? fromDate(t.acquisitionDate) : null,
    reference: t.reference,
    parcels: t.parcels.map((p) => ({ tradeId: p.parcelTradeId, quantity: new Decimal(p.quantity) })),
    hasAttachment: t.attachment !== null,
  };
}

/** Trades the caller may see: those of its portfolios' holdings (docs/conventions.md §2.3). */
export const tradeWhere = (ctx: Context): Prisma.TradeWhereInput => ({ holding: holdingWhere(ctx) });
