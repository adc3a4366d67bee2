import { fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";

/**
 * The events of a holding (docs/rules.md §1): its trades and the units a reinvested distribution
 * allots, in the order the ledger applies them. Pure: rows in, events out.
 */
export const TRADE_TYPES = [
  "Buy",
  "Sell",
  "Split",
  "Consolidation",
  "Bonus",
  "ReturnOfCapital",
  "CostBaseIncrease",
  "CostBaseDecrease",
  "OpeningBalance",
  "Cancellation",
  "TransferIn",
  "TransferOut",
] as const;
export type TradeType = (typeof TRADE_TYPES)[number];

/** One event of a holding's ledger: a trade, or the units a reinvested distribution allots. */
export interface LedgerEvent {
  /** Identifies the event in errors and results ("trade 12"); unique within the fold. */
  key: string;
  /** The trade id, when the event is a trade (manual parcel selection refers to it). */
  tradeId?: number;
  type: TradeType | "DrpAllotment";
  /** YYYY-MM-DD */
  date: string;
  /** Entry order, breaking ties between events of the same day. */
  seq: number;
  /** Units, always ≥ 0 (the type says which way they go). For Split/Consolidation: units gained/lost. */
  units: Decimal;
  /**
   * Per unit, in the trade's currency. For cost base adjustments: the amount per unit. For a Bonus:
   * 0 (a stored trade's price is never absent) for a bonus issue that is not a dividend.
   */
  price: Decimal;
  /** In the trade's currency. */
  brokerage: Decimal;
  /** Base-currency units per one unit of the trade's currency (1 for base-currency trades). */
  exchangeRate: Decimal;
  /** Manual parcel selection for a Sell or TransferOut: acquiring trade id → units. */
  parcels?: { tradeId: number; units: Decimal }[];
  /**
   * Acquisition date a TransferIn, OpeningBalance or Bonus parcel keeps, when not the event's own
   * date. An unpriced Bonus over held units makes no parcel: its units keep their parcels' dates.
   */
  acquisitionDate?: string;
  /**
   * A cost base change a distribution's AMIT components make (not a trade the user entered): when
   * no units are held on its paid date (sold before the statement came) it changes nothing,
   * instead of refusing the ledger as a trade's would.
   */
  fromDistribution?: true;
}

/**
 * Units held after an event (docs/rules.md §2), the one rule the parcel fold and the units timeline
 * share: acquisitions, bonuses and splits add, disposals and consolidations take away, a
 * cancellation leaves none; cost base adjustments and capital returns leave units alone.
 */
export function unitsAfter(e: LedgerEvent, held: Decimal): Decimal {
  switch (e.type) {
    case "Buy":
    case "OpeningBalance":
    case "TransferIn":
    case "DrpAllotment":
    case "Bonus":
    case "Split":
      return held.plus(e.units);
    case "Sell":
    case "TransferOut":
    case "Consolidation":
      return held.minus(e.units);
    case "Cancellation":
      return new Decimal(0);
    case "ReturnOfCapital":
    case "CostBaseIncrease":
    case "CostBaseDecrease":
      return held;
  }
}

/** Orders events as the ledger does: date, then entry order. */
export function sortEvents(events: LedgerEvent[]): LedgerEvent[] {
  return [...events].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
}

/** A trade as the fold needs it; decimals as text or Decimal, dates as YYYY-MM-DD. */
export interface TradeRow {
  id: number;
  holdingId: number;
  tradeType: TradeType;
  tradeDate: string;
  quantity: Decimal.Value;
  price: Decimal.Value;
  brokerage: Decimal.Value;
  exchangeRate: Decimal.Value;
  acquisitionDate: string | null;
}

/**
 * Decimals of a ledger's text rows, shared by value: prices, brokerage, rates and quantities
 * repeat across thousands of trades, and a Decimal is immutable, so one object per distinct text
 * spares the fold most of its allocations.
 */
const decimals = new Map<string, Decimal>();
function decimalOf(value: Decimal.Value): Decimal {
  if (value instanceof Decimal) return value;
  const text = String(value);
  let d = decimals.get(text);
  if (!d) {
    d = new Decimal(text);
    if (decimals.size > 50_000) decimals.clear();
    decimals.set(text, d);
  }
  return d;
}

/** DRP allotments come before the same day's trades: the units exist once the distribution is paid. */
const DRP_SEQ_OFFSET = -1_000_000_000;

const absolute = (d: Decimal) => (d.isNegative() ? d.abs() : d);

export function tradeEvent(t: TradeRow, parcels?: { tradeId: number; units: Decimal }[]): LedgerEvent {
  return {
    key: `trade ${t.id}`,
    tradeId: t.id,
    type: t.tradeType,
    date: t.tradeDate,
    seq: t.id,
    units: absolute(decimalOf(t.quantity)),
    price: decimalOf(t.price),
    brokerage: decimalOf(t.brokerage),
    exchangeRate: decimalOf(t.exchangeRate),
    acquisitionDate: t.acquisitionDate ?? undefined,
    parcels,
  };
}

export interface DrpRow {
  id: number;
  paidDate: Date | string;
  drpQuantity: Decimal.Value;
  drpPrice: Decimal.Value | null;
  exchangeRate: Decimal.Value;
}

export function drpEvent(i: DrpRow): LedgerEvent {
  return {
    key: `income ${i.id}`,
    type: "DrpAllotment",
    date: typeof i.paidDate === "string" ? i.paidDate : fromDate(i.paidDate),
    seq: DRP_SEQ_OFFSET + i.id,
    units: new Decimal(i.drpQuantity),
    price: new Decimal(i.drpPrice ?? 0),
    brokerage: new Decimal(0),
    exchangeRate: new Decimal(i.exchangeRate),
  };
}

/** A confirmed distribution with AMIT components that change the cost base (docs/rules.md §6.5). */
export interface AmitRow {
  id: number;
  portfolioId: number;
  holdingId: number;
  paidDate: string;
  exchangeRate: string;
  components: Record<string, string | number> | null;
}

/** AMIT cost base changes come first on their paid date: they concern the units already held, not those a DRP allots that day. */
const AMIT_SEQ_OFFSET = 2 * DRP_SEQ_OFFSET;

/**
 * A distribution's cost base changes: `taxDeferred` and `amitCostBaseDecrease` lower the holding's
 * cost base on the paid date like a CostBaseDecrease, `amitCostBaseIncrease` raises it; amounts in
 * the distribution's currency at its rate. Net of each other, as one AMIT statement's net amount.
 */
export function amitEvents(i: AmitRow): LedgerEvent[] {
  const c = i.components ?? {};
  const amount = (name: string) => new Decimal(c[name] ?? 0);
  const net = amount("taxDeferred").plus(amount("amitCostBaseDecrease")).minus(amount("amitCostBaseIncrease"));
  if (net.isZero()) return [];
  return [
    {
      key: `income ${i.id} cost base`,
      type: net.isPositive() ? "CostBaseDecrease" : "CostBaseIncrease",
      date: i.paidDate,
      seq: AMIT_SEQ_OFFSET + i.id,
      units: new Decimal(1),
      price: net.abs(),
      brokerage: new Decimal(0),
      exchangeRate: new Decimal(i.exchangeRate),
      fromDistribution: true,
    },
  ];
}
