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
  return eventDate >= discountEligibleFrom(acquisitionDate);
}

/** The first CGT event date on which an asset acquired on `acquisitionDate` is discount-eligible. */
export function discountEligibleFrom(acquisitionDate: string): string {
  const [y, m, d] = acquisitionDate.split("-").map(Number);
  // Anniversary of 29 February in a common year is 1 March (the 12 months end on 28 February).
  const anniversary = new Date(Date.UTC(y + 1, m - 1, d));
  if (anniversary.getUTCMonth() !== m - 1) anniversary.setUTCDate(0);
  anniversary.setUTCDate(anniversary.getUTCDate() + 1);
  return anniversary.toISOString().slice(0, 10);
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
  // Open parcels kept in two orders, so no sell sorts or rescans the whole history: by
  // acquisition (FIFO, LIFO) and by cost per unit (MaximiseGain, MinimiseGain, MinimiseCGT).
  // Closed parcels are skipped and swept out once they outnumber the open ones.
  let byAcq: Parcel[] = [];
  let byCpu: Parcel[] = [];
  // Closed parcels at the front are passed for good (FIFO, MaximiseGain consume from there).
  let acqHead = 0;
  let cpuHead = 0;
  const cpuOf = new Map<Parcel, Decimal>();
  const eligibleFrom = new Map<Parcel, string>();
  let openCount = 0;
  const isOpen = (p: Parcel) => p.units.gt(0);
  const cpu = (p: Parcel) => cpuOf.get(p)!;
  const byCostThenOrder = (a: Parcel, b: Parcel) => cpu(a).cmp(cpu(b)) || a.order - b.order;

  /** Inserts keeping `list` sorted by `cmp`; returns the position (appending is the common case). */
  const insert = (list: Parcel[], p: Parcel, cmp: (a: Parcel, b: Parcel) => number): number => {
    let lo = 0;
    let hi = list.length;
    if (hi === 0 || cmp(list[hi - 1], p) <= 0) return list.push(p) - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(list[mid], p) <= 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, p);
    return lo;
  };

  /** Drops closed parcels at both ends at once, and sweeps the middle when they pile up. */
  const sweep = () => {
    if (byAcq.length > 32 && byAcq.length - acqHead > 2 * openCount) {
      byAcq = byAcq.filter(isOpen);
      acqHead = 0;
    }
    if (byCpu.length > 32 && byCpu.length - cpuHead > 2 * openCount) {
      byCpu = byCpu.filter(isOpen);
      cpuHead = 0;
    }
    while (acqHead < byAcq.length && !isOpen(byAcq[acqHead])) acqHead++;
    while (cpuHead < byCpu.length && !isOpen(byCpu[cpuHead])) cpuHead++;
    while (byAcq.length > acqHead && !isOpen(byAcq[byAcq.length - 1])) byAcq.pop();
    while (byCpu.length > cpuHead && !isOpen(byCpu[byCpu.length - 1])) byCpu.pop();
  };

  /** Cost per unit changes only when the cost base or the units of every parcel change. */
  const recost = () => {
    byCpu = byCpu.filter(isOpen);
    cpuHead = 0;
    for (const p of byCpu) cpuOf.set(p, p.costBase.div(p.units));
    byCpu.sort(byCostThenOrder);
  };

  const open = () => parcels.filter(isOpen);

  const acquire = (e: LedgerEvent, costBase: Decimal) => {
    const acquisitionDate = e.acquisitionDate ?? e.date;
    const parcel: Parcel = { key: e.key, tradeId: e.tradeId, acquisitionDate, originalUnits: e.units, units: e.units, costBase, order: parcels.length };
    parcels.push(parcel);
    if (e.tradeId !== undefined) byTradeId.set(e.tradeId, parcel);
    held = held.plus(e.units);
    if (!isOpen(parcel)) return;
    openCount++;
    cpuOf.set(parcel, costBase.div(e.units));
    eligibleFrom.set(parcel, discountEligibleFrom(acquisitionDate));
    acqHead = Math.min(acqHead, insert(byAcq, parcel, byAcquisition));
    cpuHead = Math.min(cpuHead, insert(byCpu, parcel, byCostThenOrder));
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
    sweep();
    switch (methodFor(e)) {
      case "FIFO":
        return take(units, from(byAcq, acqHead));
      case "LIFO":
        return take(units, reversed(byAcq, acqHead));
      case "MaximiseGain":
        return take(units, from(byCpu, cpuHead));
      case "MinimiseGain":
        return take(units, dearestFirst());
      case "MinimiseCGT": {
        // Losses first (largest loss per unit first), then discount-eligible gains, then the rest,
        // each smallest gain first: every pass walks the parcels from the dearest down. With no
        // discount (a company), eligibility changes nothing and gains go dearest first too.
        const loss = (p: Parcel) => cpu(p).gt(proceedsPerUnit);
        const eligible = (p: Parcel) => e.date >= eligibleFrom.get(p)!;
        const passes = discountRate.isZero()
          ? [loss, (p: Parcel) => !loss(p)]
          : [loss, (p: Parcel) => !loss(p) && eligible(p), (p: Parcel) => !loss(p) && !eligible(p)];
        return take(units, inPasses(passes));
      }
    }
  };

  function* from(list: Parcel[], start: number): Generator<Parcel> {
    for (let i = start; i < list.length; i++) yield list[i];
  }
  function* reversed(list: Parcel[], stop: number): Generator<Parcel> {
    for (let i = list.length - 1; i >= stop; i--) yield list[i];
  }
  /** Parcels in dearestFirst order, pass by pass, each pass keeping only those `passes[k]` wants. */
  function* inPasses(passes: ((p: Parcel) => boolean)[]): Generator<Parcel> {
    for (const wanted of passes) for (const p of dearestFirst()) if (isOpen(p) && wanted(p)) yield p;
  }
  /** byCpu from the dearest down; parcels of equal cost per unit in acquisition order. */
  function* dearestFirst(): Generator<Parcel> {
    let i = byCpu.length - 1;
    while (i >= cpuHead) {
      let j = i;
      while (j > cpuHead && cpu(byCpu[j - 1]).eq(cpu(byCpu[i]))) j--;
      for (let k = j; k <= i; k++) yield byCpu[k];
      i = j - 1;
    }
  }

  /** Takes `units` from parcels in the given order, skipping closed ones. */
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
      if (parcel.units.isZero()) openCount--;
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
    recost();
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
    recost();
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
