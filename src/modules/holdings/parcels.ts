import { Decimal } from "../../lib/money";

/**
 * The parcel fold (DOMAIN.md §1–2): a holding's parcels, disposals, units and cost base derived
 * from its trades in date order (same day: the order they were entered). Pure: no Prisma, no
 * clock. Linear in the number of events for FIFO and LIFO sells; other methods sort the open
 * parcels of the sell they serve.
 *
 * Amounts are in the portfolio's base currency, kept to 4 decimals; units to 8. Every proportional
 * split (part of a parcel sold, proceeds across parcels, a return of capital across parcels, a
 * split's new units) gives its rounding remainder to the last part, so parts add up exactly.
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

export const PARCEL_METHODS = ["FIFO", "LIFO", "MaximiseGain", "MinimiseGain", "MinimiseCGT"] as const;
export type ParcelMethod = (typeof PARCEL_METHODS)[number];

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
  /** Per unit, in the trade's currency. For cost base adjustments: the amount per unit. */
  price: Decimal;
  /** In the trade's currency. */
  brokerage: Decimal;
  /** Base-currency units per one unit of the trade's currency (1 for base-currency trades). */
  exchangeRate: Decimal;
  /** Manual parcel selection for a Sell or TransferOut: acquiring trade id → units. */
  parcels?: { tradeId: number; units: Decimal }[];
  /** Acquisition date a Bonus or TransferIn parcel keeps, when not the event's own date. */
  acquisitionDate?: string;
}

export interface Parcel {
  /** The key of the acquiring event. */
  key: string;
  tradeId?: number;
  acquisitionDate: string;
  /** Units the parcel was acquired with, before splits. */
  originalUnits: Decimal;
  /** Units still held. */
  units: Decimal;
  /** Cost base of the units still held, base currency. */
  costBase: Decimal;
  /** Creation order, for FIFO/LIFO ties. */
  order: number;
}

export type DisposalKind = "Sell" | "Cancellation" | "TransferOut" | "ReturnOfCapitalExcess";

/** Units of one parcel leaving by one event; a CGT event unless it is a TransferOut. */
export interface Disposal {
  eventKey: string;
  tradeId?: number;
  kind: DisposalKind;
  /** The CGT event date (the trade date). */
  date: string;
  parcelKey: string;
  parcelTradeId?: number;
  acquisitionDate: string;
  units: Decimal;
  costBase: Decimal;
  proceeds: Decimal;
  /** proceeds − costBase; negative is a capital loss. */
  gain: Decimal;
  isCgtEvent: boolean;
}

export interface FoldResult {
  /** Every parcel, open (units > 0) and closed, in creation order. */
  parcels: Parcel[];
  disposals: Disposal[];
  units: Decimal;
  costBase: Decimal;
}

export class ParcelError extends Error {
  constructor(
    readonly eventKey: string,
    message: string,
  ) {
    super(message);
    this.name = "ParcelError";
  }
}

export interface FoldOptions {
  /** The parcel method of a Sell without manual parcels (default FIFO). */
  methodFor?: (event: LedgerEvent) => ParcelMethod;
  /** CGT discount rate used to rank parcels for MinimiseCGT (default 0.5). */
  discountRate?: Decimal;
}

const ZERO = new Decimal(0);
const money = (d: Decimal) => d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
const qty = (d: Decimal) => d.toDecimalPlaces(8, Decimal.ROUND_HALF_UP);

/** Orders events as the ledger does: date, then entry order. */
export function sortEvents(events: LedgerEvent[]): LedgerEvent[] {
  return [...events].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
}

/**
 * ITAA 1997 s115-25: an asset is discount-eligible when acquired at least 12 months before the
 * CGT event, the day of acquisition and the day of the event both excluded. So the event must
 * fall after the first anniversary of the acquisition day plus one day.
 */
export function isDiscountEligible(acquisitionDate: string, eventDate: string): boolean {
  const [y, m, d] = acquisitionDate.split("-").map(Number);
  // Anniversary of 29 February in a common year is 1 March (the 12 months end on 28 February).
  const anniversary = new Date(Date.UTC(y + 1, m - 1, d));
  if (anniversary.getUTCMonth() !== m - 1) anniversary.setUTCDate(0);
  anniversary.setUTCDate(anniversary.getUTCDate() + 1);
  return eventDate >= anniversary.toISOString().slice(0, 10);
}

/** Splits `total` over weights, each part rounded with `round`, the last taking the remainder. */
function apportion(total: Decimal, weights: Decimal[], round: (d: Decimal) => Decimal): Decimal[] {
  const sumW = weights.reduce((s, w) => s.plus(w), ZERO);
  if (sumW.isZero()) return weights.map(() => ZERO);
  let given = ZERO;
  return weights.map((w, i) => {
    if (i === weights.length - 1) return total.minus(given);
    const part = round(total.times(w).div(sumW));
    given = given.plus(part);
    return part;
  });
}

export function foldParcels(events: LedgerEvent[], options: FoldOptions = {}): FoldResult {
  const methodFor = options.methodFor ?? (() => "FIFO" as ParcelMethod);
  const discountRate = options.discountRate ?? new Decimal("0.5");
  const parcels: Parcel[] = [];
  const byTradeId = new Map<number, Parcel>();
  const disposals: Disposal[] = [];
  let held = ZERO;
  // FIFO walks from `head`, LIFO from the top of `lifo`; parcels closed at those ends are
  // passed once and for all, which keeps FIFO and LIFO folds linear.
  let head = 0;
  const lifo: Parcel[] = [];
  // True while creation order is also acquisition order (a back-dated Bonus breaks it).
  let inAcquisitionOrder = true;

  const open = () => parcels.filter((p) => p.units.gt(0));

  const acquire = (e: LedgerEvent, costBase: Decimal) => {
    const acquisitionDate = e.acquisitionDate ?? e.date;
    const last = parcels[parcels.length - 1];
    if (last && acquisitionDate < last.acquisitionDate) inAcquisitionOrder = false;
    const parcel: Parcel = { key: e.key, tradeId: e.tradeId, acquisitionDate, originalUnits: e.units, units: e.units, costBase, order: parcels.length };
    parcels.push(parcel);
    lifo.push(parcel);
    if (e.tradeId !== undefined) byTradeId.set(e.tradeId, parcel);
    held = held.plus(e.units);
  };

  /** The parcels a disposal of `units` takes, with the units taken from each, in order. */
  const select = (e: LedgerEvent, units: Decimal, proceedsPerUnit: Decimal): [Parcel, Decimal][] => {
    if (e.parcels && e.parcels.length > 0) {
      const chosen: [Parcel, Decimal][] = [];
      let total = ZERO;
      for (const pick of e.parcels) {
        const parcel = byTradeId.get(pick.tradeId);
        if (!parcel) throw new ParcelError(e.key, `Parcel of trade ${pick.tradeId} is not a parcel of this holding acquired before ${e.date}.`);
        const already = chosen.filter(([p]) => p === parcel).reduce((s, [, u]) => s.plus(u), ZERO);
        if (pick.units.lte(0) || already.plus(pick.units).gt(parcel.units)) {
          throw new ParcelError(e.key, `Parcel of trade ${pick.tradeId} holds ${parcel.units.minus(already).toFixed()} units on ${e.date}; ${pick.units.toFixed()} were selected.`);
        }
        chosen.push([parcel, pick.units]);
        total = total.plus(pick.units);
      }
      if (!total.eq(units)) throw new ParcelError(e.key, `The selected parcels hold ${total.toFixed()} units; the trade disposes of ${units.toFixed()}.`);
      return chosen;
    }
    const method = methodFor(e);
    if (method === "FIFO" && inAcquisitionOrder) {
      while (head < parcels.length && parcels[head].units.isZero()) head++;
      return take(units, fromHead());
    }
    if (method === "LIFO" && inAcquisitionOrder) {
      while (lifo.length > 0 && lifo[lifo.length - 1].units.isZero()) lifo.pop();
      return take(units, fromTop());
    }
    const ordered = parcels.slice(head).filter((p) => p.units.gt(0)).sort(byAcquisition);
    const costPerUnit = (p: Parcel) => p.costBase.div(p.units);
    if (method === "LIFO") ordered.reverse();
    if (method === "MaximiseGain") ordered.sort((a, b) => costPerUnit(a).cmp(costPerUnit(b)) || a.order - b.order);
    if (method === "MinimiseGain") ordered.sort((a, b) => costPerUnit(b).cmp(costPerUnit(a)) || a.order - b.order);
    if (method === "MinimiseCGT") {
      // Losses first (largest loss per unit first), then discount-eligible gains, then the rest,
      // each by the smallest taxable gain per unit after the discount.
      const rank = (p: Parcel) => {
        const gain = proceedsPerUnit.minus(costPerUnit(p));
        if (gain.lt(0)) return { tier: 0, value: gain };
        if (isDiscountEligible(p.acquisitionDate, e.date)) return { tier: 1, value: gain.times(new Decimal(1).minus(discountRate)) };
        return { tier: 2, value: gain };
      };
      const ranks = new Map(ordered.map((p) => [p, rank(p)]));
      ordered.sort((a, b) => {
        const ra = ranks.get(a)!;
        const rb = ranks.get(b)!;
        return ra.tier - rb.tier || ra.value.cmp(rb.value) || a.order - b.order;
      });
    }
    return take(units, ordered);
  };

  function* fromHead(): Generator<Parcel> {
    for (let i = head; i < parcels.length; i++) yield parcels[i];
  }
  function* fromTop(): Generator<Parcel> {
    for (let i = lifo.length - 1; i >= 0; i--) yield lifo[i];
  }

  /** Takes `units` from parcels in the given order. */
  const take = (units: Decimal, ordered: Iterable<Parcel>): [Parcel, Decimal][] => {
    const chosen: [Parcel, Decimal][] = [];
    let left = units;
    for (const p of ordered) {
      if (left.isZero()) break;
      if (p.units.isZero()) continue;
      const part = Decimal.min(p.units, left);
      chosen.push([p, part]);
      left = left.minus(part);
    }
    return chosen;
  };

  const dispose = (e: LedgerEvent, kind: DisposalKind, units: Decimal, proceeds: Decimal) => {
    if (units.gt(held)) {
      throw new ParcelError(e.key, `${e.type} of ${units.toFixed()} units on ${e.date} exceeds the ${held.toFixed()} units held.`);
    }
    const chosen = select(e, units, units.isZero() ? ZERO : proceeds.div(units));
    const proceedsParts = apportion(proceeds, chosen.map(([, u]) => u), money);
    chosen.forEach(([parcel, take], i) => {
      const costBase = take.eq(parcel.units) ? parcel.costBase : money(parcel.costBase.times(take).div(parcel.units));
      parcel.units = parcel.units.minus(take);
      parcel.costBase = parcel.costBase.minus(costBase);
      const isCgtEvent = kind !== "TransferOut";
      disposals.push({
        eventKey: e.key,
        tradeId: e.tradeId,
        kind,
        date: e.date,
        parcelKey: parcel.key,
        parcelTradeId: parcel.tradeId,
        acquisitionDate: parcel.acquisitionDate,
        units: take,
        costBase,
        proceeds: proceedsParts[i],
        gain: isCgtEvent ? proceedsParts[i].minus(costBase) : ZERO,
        isCgtEvent,
      });
    });
    held = held.minus(units);
  };

  /** Spreads `amount` over open parcels by units (+ raises, − lowers the cost base). */
  const adjustCostBase = (e: LedgerEvent, amount: Decimal, direction: 1 | -1) => {
    const openParcels = open();
    if (openParcels.length === 0) throw new ParcelError(e.key, `${e.type} on ${e.date}: no units are held.`);
    const parts = apportion(amount, openParcels.map((p) => p.units), money);
    openParcels.forEach((p, i) => {
      if (direction === 1) {
        p.costBase = p.costBase.plus(parts[i]);
        return;
      }
      const reduced = p.costBase.minus(parts[i]);
      if (reduced.gte(0)) {
        p.costBase = reduced;
        return;
      }
      // CGT event G1: the part of a capital return beyond the cost base is a capital gain.
      const excess = reduced.neg();
      p.costBase = ZERO;
      disposals.push({
        eventKey: e.key,
        tradeId: e.tradeId,
        kind: "ReturnOfCapitalExcess",
        date: e.date,
        parcelKey: p.key,
        parcelTradeId: p.tradeId,
        acquisitionDate: p.acquisitionDate,
        units: ZERO,
        costBase: ZERO,
        proceeds: excess,
        gain: excess,
        isCgtEvent: true,
      });
    });
  };

  /** Scales every open parcel's units so they add up to `newTotal`; cost and dates stay. */
  const rescale = (e: LedgerEvent, newTotal: Decimal) => {
    const openParcels = open();
    if (openParcels.length === 0) throw new ParcelError(e.key, `${e.type} on ${e.date}: no units are held.`);
    const parts = apportion(newTotal, openParcels.map((p) => p.units), qty);
    openParcels.forEach((p, i) => {
      if (parts[i].lte(0)) throw new ParcelError(e.key, `${e.type} on ${e.date} would leave a parcel with no units.`);
      p.units = parts[i];
    });
    held = newTotal;
  };

  for (const e of sortEvents(events)) {
    const rate = e.exchangeRate;
    switch (e.type) {
      case "Buy":
      case "OpeningBalance":
      case "TransferIn":
      case "DrpAllotment":
        acquire(e, money(e.units.times(e.price).plus(e.brokerage).times(rate)));
        break;
      case "Bonus":
        acquire(e, ZERO);
        break;
      case "Sell":
        dispose(e, "Sell", e.units, money(e.units.times(e.price).minus(e.brokerage).times(rate)));
        break;
      case "TransferOut":
        dispose(e, "TransferOut", e.units, ZERO);
        break;
      case "Cancellation":
        // Delisted or cancelled shares: every unit goes for nothing (a capital loss).
        dispose(e, "Cancellation", held, ZERO);
        break;
      case "Split":
        rescale(e, held.plus(e.units));
        break;
      case "Consolidation":
        if (e.units.gte(held)) throw new ParcelError(e.key, `Consolidation of ${e.units.toFixed()} units on ${e.date} would remove all ${held.toFixed()} units held.`);
        rescale(e, held.minus(e.units));
        break;
      case "ReturnOfCapital":
      case "CostBaseDecrease":
        adjustCostBase(e, money(e.units.times(e.price).times(rate)), -1);
        break;
      case "CostBaseIncrease":
        adjustCostBase(e, money(e.units.times(e.price).times(rate)), 1);
        break;
    }
  }

  return { parcels, disposals, units: held, costBase: parcels.reduce((s, p) => s.plus(p.costBase), ZERO) };
}

function byAcquisition(a: Parcel, b: Parcel): number {
  return a.acquisitionDate < b.acquisitionDate ? -1 : a.acquisitionDate > b.acquisitionDate ? 1 : a.order - b.order;
}
