import { Decimal, ZERO } from "../../lib/money";
import { DatedSeries } from "./dated-series";
import { sortEvents, unitsAfter, type LedgerEvent } from "./events";
import { OpenParcels, ParcelError, type Parcel, type ParcelMethod } from "./parcel-selection";
import { apportion, roundMoney, roundUnits } from "./rounding";

/**
 * The parcel fold (docs/rules.md §1–3): a holding's parcels, disposals, units and cost base derived
 * from its events in date order (same day: the order they were entered), with the position after
 * every event (the timeline). Pure: no Prisma, no clock. Linear in the number of events for FIFO
 * and LIFO sells; other methods walk the open parcels of the sell they serve.
 *
 * Amounts are in the portfolio's base currency (each event converted at its own rate), 4 decimals;
 * units 8. Every proportional split gives its remainder to the last part (rounding.ts).
 */
export { ParcelError, type Parcel } from "./parcel-selection";

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
  costBaseInBaseCurrency: Decimal;
  proceedsInBaseCurrency: Decimal;
  /** proceeds − cost base; negative is a capital loss. */
  gainInBaseCurrency: Decimal;
  isCgtEvent: boolean;
}

/** The position after one event (or after the last event of a day). */
export interface PositionPoint {
  units: Decimal;
  costBaseInBaseCurrency: Decimal;
}

/** The position after every event, and by date in O(log n). */
export class FoldTimeline {
  private readonly byDate: DatedSeries<PositionPoint>;

  constructor(readonly afterEvent: readonly ({ key: string; date: string } & PositionPoint)[]) {
    // Events are in ledger order, so the last of each date is the day's closing position.
    const dates: string[] = [];
    const points: PositionPoint[] = [];
    for (const p of afterEvent) {
      if (dates.length > 0 && dates[dates.length - 1] === p.date) points[points.length - 1] = p;
      else {
        dates.push(p.date);
        points.push(p);
      }
    }
    this.byDate = DatedSeries.sorted(dates, points);
  }

  /** Units and cost base after every event dated ≤ `date` (nothing held before the first). */
  on(date: string): PositionPoint {
    return this.byDate.on(date)?.value ?? { units: new Decimal(0), costBaseInBaseCurrency: new Decimal(0) };
  }

  /** The dates on which the position changed, ascending, with the position after that day. */
  get days(): DatedSeries<PositionPoint> {
    return this.byDate;
  }
}

export interface FoldResult {
  /** Every parcel, open (units > 0) and closed, in creation order. */
  parcels: Parcel[];
  disposals: Disposal[];
  units: Decimal;
  costBaseInBaseCurrency: Decimal;
  timeline: FoldTimeline;
}

export interface FoldOptions {
  /** The parcel method of a Sell without manual parcels (default FIFO). */
  methodFor?: (event: LedgerEvent) => ParcelMethod;
  /** CGT discount rate used to rank parcels for MinimiseCGT (default 0.5). */
  discountRate?: Decimal;
}

export function foldParcels(events: LedgerEvent[], options: FoldOptions = {}): FoldResult {
  const methodFor = options.methodFor ?? (() => "FIFO" as ParcelMethod);
  const discountRate = options.discountRate ?? new Decimal("0.5");
  const parcels: Parcel[] = [];
  const book = new OpenParcels();
  const disposals: Disposal[] = [];
  const afterEvent: ({ key: string; date: string } & PositionPoint)[] = [];
  let held = ZERO;
  let cost = ZERO;

  const acquire = (e: LedgerEvent, costBase: Decimal) => {
    const parcel: Parcel = {
      key: e.key,
      tradeId: e.tradeId,
      acquisitionDate: e.acquisitionDate ?? e.date,
      originalUnits: e.units,
      units: e.units,
      costBaseInBaseCurrency: costBase,
      order: parcels.length,
    };
    parcels.push(parcel);
    book.add(parcel);
    cost = cost.plus(costBase);
  };

  /** An event may take (or apply to) the units held, no more. */
  const assertHeld = (e: LedgerEvent, units: Decimal) => {
    if (!units.gt(held)) return;
    const over = `${e.type} of ${units.toFixed()} units on ${e.date} exceeds the ${held.toFixed()} units held.`;
    throw new ParcelError(e.key, over);
  };

  const dispose = (e: LedgerEvent, kind: DisposalKind, units: Decimal, proceeds: Decimal) => {
    assertHeld(e, units);
    const chosen = book.select(e, units, units.isZero() ? ZERO : proceeds.div(units), methodFor(e), discountRate);
    const proceedsParts = apportion(
      proceeds,
      chosen.map(([, u]) => u),
      roundMoney,
    );
    chosen.forEach(([parcel, take], i) => {
      const costBase = take.eq(parcel.units)
        ? parcel.costBaseInBaseCurrency
        : roundMoney(parcel.costBaseInBaseCurrency.times(take).div(parcel.units));
      parcel.units = parcel.units.minus(take);
      parcel.costBaseInBaseCurrency = parcel.costBaseInBaseCurrency.minus(costBase);
      cost = cost.minus(costBase);
      if (parcel.units.isZero()) book.closed();
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
        costBaseInBaseCurrency: costBase,
        proceedsInBaseCurrency: proceedsParts[i],
        gainInBaseCurrency: isCgtEvent ? proceedsParts[i].minus(costBase) : ZERO,
        isCgtEvent,
      });
    });
  };

  /** Spreads `amount` over open parcels by units (+ raises, − lowers the cost base). */
  const adjustCostBase = (e: LedgerEvent, amount: Decimal, direction: 1 | -1) => {
    const openParcels = book.open();
    if (openParcels.length === 0) {
      if (e.fromDistribution) return;
      throw new ParcelError(e.key, `${e.type} on ${e.date}: no units are held.`);
    }
    // More units than held would return (or add) an amount for units that do not exist.
    if (!e.fromDistribution) assertHeld(e, e.units);
    const parts = apportion(
      amount,
      openParcels.map((p) => p.units),
      roundMoney,
    );
    openParcels.forEach((p, i) => {
      if (direction === 1) {
        p.costBaseInBaseCurrency = p.costBaseInBaseCurrency.plus(parts[i]);
        cost = cost.plus(parts[i]);
        return;
      }
      const reduced = p.costBaseInBaseCurrency.minus(parts[i]);
      if (reduced.gte(0)) {
        p.costBaseInBaseCurrency = reduced;
        cost = cost.minus(parts[i]);
        return;
      }
      // CGT event G1: the part of a capital return beyond the cost base is a capital gain.
      const excess = reduced.neg();
      cost = cost.minus(p.costBaseInBaseCurrency);
      p.costBaseInBaseCurrency = ZERO;
      disposals.push({
        eventKey: e.key,
        tradeId: e.tradeId,
        kind: "ReturnOfCapitalExcess",
        date: e.date,
        parcelKey: p.key,
        parcelTradeId: p.tradeId,
        acquisitionDate: p.acquisitionDate,
        units: ZERO,
        costBaseInBaseCurrency: ZERO,
        proceedsInBaseCurrency: excess,
        gainInBaseCurrency: excess,
        isCgtEvent: true,
      });
    });
    book.recost();
  };

  /**
   * Scales every open parcel's units (by units, the last taking the remainder) so they add up to
   * `newTotal`; cost and dates stay. Splits, consolidations and unpriced bonuses share it.
   */
  const rescale = (e: LedgerEvent, newTotal: Decimal) => {
    const openParcels = book.open();
    if (openParcels.length === 0) throw new ParcelError(e.key, `${e.type} on ${e.date}: no units are held.`);
    const parts = apportion(
      newTotal,
      openParcels.map((p) => p.units),
      roundUnits,
    );
    openParcels.forEach((p, i) => {
      if (parts[i].lte(0)) throw new ParcelError(e.key, `${e.type} on ${e.date} would leave a parcel with no units.`);
      p.units = parts[i];
    });
    book.recost();
  };

  /** An amount in the trade's currency, in the base currency (most trades are in it: rate 1). */
  const toBase = (amount: Decimal, rate: Decimal) => (rate.eq(1) ? amount : amount.times(rate));

  for (const e of sortEvents(events)) {
    const rate = e.exchangeRate;
    const next = unitsAfter(e, held);
    switch (e.type) {
      case "Buy":
      case "OpeningBalance":
      case "TransferIn":
      case "DrpAllotment":
        acquire(e, roundMoney(toBase(e.units.times(e.price).plus(e.brokerage), rate)));
        break;
      case "Bonus":
        // ITAA 1997 s130-20: an unpriced bonus (not a dividend) splits every open parcel, cost base
        // and date kept; a priced one (taxed as a dividend, or paid up), or one with nothing held,
        // is a parcel of its own at price × units (docs/rules.md §2).
        if (e.price.isZero() && held.gt(0)) rescale(e, next);
        else acquire(e, roundMoney(toBase(e.units.times(e.price).plus(e.brokerage), rate)));
        break;
      case "Sell":
        dispose(e, "Sell", e.units, roundMoney(toBase(e.units.times(e.price).minus(e.brokerage), rate)));
        break;
      case "TransferOut":
        dispose(e, "TransferOut", e.units, ZERO);
        break;
      case "Cancellation":
        // Delisted or cancelled shares: every unit goes for nothing (a capital loss). A new one
        // with none held is refused where it is written (stored-trade.ts), not here: one stored
        // before that rule must still fold.
        dispose(e, "Cancellation", held, ZERO);
        break;
      case "Split":
        rescale(e, next);
        break;
      case "Consolidation":
        if (e.units.gte(held))
          throw new ParcelError(
            e.key,
            `Consolidation of ${e.units.toFixed()} units on ${e.date} would remove all ${held.toFixed()} units held.`,
          );
        rescale(e, next);
        break;
      case "ReturnOfCapital":
      case "CostBaseDecrease":
        adjustCostBase(e, roundMoney(toBase(e.units.times(e.price), rate)), -1);
        break;
      case "CostBaseIncrease":
        adjustCostBase(e, roundMoney(toBase(e.units.times(e.price), rate)), 1);
        break;
    }
    held = next;
    afterEvent.push({ key: e.key, date: e.date, units: held, costBaseInBaseCurrency: cost });
  }

  return { parcels, disposals, units: held, costBaseInBaseCurrency: cost, timeline: new FoldTimeline(afterEvent) };
}
