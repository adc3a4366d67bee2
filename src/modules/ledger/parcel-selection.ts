import { Decimal, ZERO } from "../../lib/money";
import { discountEligibleFrom } from "./discount";
import type { LedgerEvent } from "./events";

/**
 * Which parcels a disposal takes (docs/rules.md §3): manual parcels, else the method — FIFO oldest
 * first, LIFO newest first, MaximiseGain cheapest per unit first, MinimiseGain dearest first,
 * MinimiseCGT losses first, then discount-eligible gains, then the rest, smallest gain first.
 * Pure. The open parcels are kept in two orders, so no sell sorts or rescans the whole history.
 */
export const PARCEL_METHODS = ["FIFO", "LIFO", "MaximiseGain", "MinimiseGain", "MinimiseCGT"] as const;
export type ParcelMethod = (typeof PARCEL_METHODS)[number];

export interface Parcel {
  /** The key of the acquiring event. */
  key: string;
  tradeId?: number;
  acquisitionDate: string;
  /** Units the parcel was acquired with, before splits. */
  originalUnits: Decimal;
  /** Units still held. */
  units: Decimal;
  /** Cost base of the units still held. */
  costBaseInBaseCurrency: Decimal;
  /** Creation order, for FIFO/LIFO ties. */
  order: number;
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

const isOpen = (p: Parcel) => p.units.gt(0);

function byAcquisition(a: Parcel, b: Parcel): number {
  return a.acquisitionDate < b.acquisitionDate ? -1 : a.acquisitionDate > b.acquisitionDate ? 1 : a.order - b.order;
}

/** Inserts keeping `list` sorted by `cmp`; returns the position (appending is the common case). */
function insert(list: Parcel[], p: Parcel, cmp: (a: Parcel, b: Parcel) => number): number {
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
}

/**
 * The open parcels of one fold, by acquisition (FIFO, LIFO) and by cost per unit (the other
 * methods). Closed parcels are skipped and swept out once they outnumber the open ones; those at
 * the front are passed for good (FIFO and MaximiseGain consume from there).
 */
export class OpenParcels {
  private byAcq: Parcel[] = [];
  private byCpu: Parcel[] = [];
  private acqHead = 0;
  private cpuHead = 0;
  private readonly cpuOf = new Map<Parcel, Decimal>();
  private readonly byTradeId = new Map<number, Parcel>();
  private openCount = 0;

  private readonly cpu = (p: Parcel) => this.cpuOf.get(p)!;
  private readonly byCostThenOrder = (a: Parcel, b: Parcel) => this.cpu(a).cmp(this.cpu(b)) || a.order - b.order;

  /** Registers a new parcel (open or not: a manual selection may still name a closed one). */
  add(parcel: Parcel): void {
    if (parcel.tradeId !== undefined) this.byTradeId.set(parcel.tradeId, parcel);
    if (!isOpen(parcel)) return;
    this.openCount++;
    this.cpuOf.set(parcel, parcel.costBaseInBaseCurrency.div(parcel.units));
    this.acqHead = Math.min(this.acqHead, insert(this.byAcq, parcel, byAcquisition));
    this.cpuHead = Math.min(this.cpuHead, insert(this.byCpu, parcel, this.byCostThenOrder));
  }

  /** A parcel's units reached zero. */
  closed(): void {
    this.openCount--;
  }

  /** Open parcels in acquisition order (cost base adjustments and splits spread over these). */
  open(): Parcel[] {
    return this.byAcq
      .slice(this.acqHead)
      .filter(isOpen)
      .sort((a, b) => a.order - b.order);
  }

  /** Cost per unit changes only when the cost base or the units of every parcel change. */
  recost(): void {
    this.byCpu = this.byCpu.filter(isOpen);
    this.cpuHead = 0;
    for (const p of this.byCpu) this.cpuOf.set(p, p.costBaseInBaseCurrency.div(p.units));
    this.byCpu.sort(this.byCostThenOrder);
  }

  /** The parcels a disposal of `units` takes, with the units taken from each, in order. */
  select(
    e: LedgerEvent,
    units: Decimal,
    proceedsPerUnit: Decimal,
    method: ParcelMethod,
    discountRate: Decimal,
  ): [Parcel, Decimal][] {
    if (e.parcels && e.parcels.length > 0) return this.manual(e, units);
    this.sweep();
    switch (method) {
      case "FIFO":
        return take(units, from(this.byAcq, this.acqHead));
      case "LIFO":
        return take(units, reversed(this.byAcq, this.acqHead));
      case "MaximiseGain":
        return take(units, from(this.byCpu, this.cpuHead));
      case "MinimiseGain":
        return take(units, this.dearestFirst());
      case "MinimiseCGT": {
        // Losses first (largest loss per unit first), then discount-eligible gains, then the rest,
        // each smallest gain first: every pass walks the parcels from the dearest down. With no
        // discount (a company), eligibility changes nothing and gains go dearest first too.
        const loss = (p: Parcel) => this.cpu(p).gt(proceedsPerUnit);
        const eligible = (p: Parcel) => e.date >= discountEligibleFrom(p.acquisitionDate);
        const passes = discountRate.isZero()
          ? [loss, (p: Parcel) => !loss(p)]
          : [loss, (p: Parcel) => !loss(p) && eligible(p), (p: Parcel) => !loss(p) && !eligible(p)];
        return take(units, this.inPasses(passes));
      }
    }
  }

  private manual(e: LedgerEvent, units: Decimal): [Parcel, Decimal][] {
    const chosen: [Parcel, Decimal][] = [];
    let total = ZERO;
    for (const pick of e.parcels!) {
      const parcel = this.byTradeId.get(pick.tradeId);
      if (!parcel)
        throw new ParcelError(
          e.key,
          `Parcel of trade ${pick.tradeId} is not a parcel of this holding acquired before ${e.date}.`,
        );
      const already = chosen.filter(([p]) => p === parcel).reduce((s, [, u]) => s.plus(u), ZERO);
      if (pick.units.lte(0) || already.plus(pick.units).gt(parcel.units)) {
        throw new ParcelError(
          e.key,
          `Parcel of trade ${pick.tradeId} holds ${parcel.units.minus(already).toFixed()} units on ${e.date}; ${pick.units.toFixed()} were selected.`,
        );
      }
      chosen.push([parcel, pick.units]);
      total = total.plus(pick.units);
    }
    if (!total.eq(units))
      throw new ParcelError(
        e.key,
        `The selected parcels hold ${total.toFixed()} units; the trade disposes of ${units.toFixed()}.`,
      );
    return chosen;
  }

  /** Drops closed parcels at both ends at once, and sweeps the middle when they pile up. */
  private sweep(): void {
    if (this.byAcq.length > 32 && this.byAcq.length - this.acqHead > 2 * this.openCount) {
      this.byAcq = this.byAcq.filter(isOpen);
      this.acqHead = 0;
    }
    if (this.byCpu.length > 32 && this.byCpu.length - this.cpuHead > 2 * this.openCount) {
      this.byCpu = this.byCpu.filter(isOpen);
      this.cpuHead = 0;
    }
    const { byAcq, byCpu } = this;
    while (this.acqHead < byAcq.length && !isOpen(byAcq[this.acqHead])) this.acqHead++;
    while (this.cpuHead < byCpu.length && !isOpen(byCpu[this.cpuHead])) this.cpuHead++;
    while (byAcq.length > this.acqHead && !isOpen(byAcq[byAcq.length - 1])) byAcq.pop();
    while (byCpu.length > this.cpuHead && !isOpen(byCpu[byCpu.length - 1])) byCpu.pop();
  }

  /** Parcels in dearestFirst order, pass by pass, each pass keeping only those `passes[k]` wants. */
  private *inPasses(passes: ((p: Parcel) => boolean)[]): Generator<Parcel> {
    for (const wanted of passes) for (const p of this.dearestFirst()) if (isOpen(p) && wanted(p)) yield p;
  }

  /** byCpu from the dearest down; parcels of equal cost per unit in acquisition order. */
  private *dearestFirst(): Generator<Parcel> {
    const { byCpu, cpu } = this;
    let i = byCpu.length - 1;
    while (i >= this.cpuHead) {
      let j = i;
      while (j > this.cpuHead && cpu(byCpu[j - 1]).eq(cpu(byCpu[i]))) j--;
      for (let k = j; k <= i; k++) yield byCpu[k];
      i = j - 1;
    }
  }
}

function* from(list: Parcel[], start: number): Generator<Parcel> {
  for (let i = start; i < list.length; i++) yield list[i];
}

function* reversed(list: Parcel[], stop: number): Generator<Parcel> {
  for (let i = list.length - 1; i >= stop; i--) yield list[i];
}

/** Takes `units` from parcels in the given order, skipping closed ones. */
function take(units: Decimal, ordered: Iterable<Parcel>): [Parcel, Decimal][] {
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
}
