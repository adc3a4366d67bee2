import { financialYearOf } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { atOnce, inSlices, type Steps } from "../../lib/slices";
import { discountRateOf, type EntityType } from "./discount";
import {
  amitEvents,
  drpEvent,
  tradeEvent,
  type AmitRow,
  type LedgerEvent,
  type TradeRow,
  type TradeType,
} from "./events";
import { foldParcels, type FoldResult } from "./fold";
import type { ParcelMethod } from "./parcel-selection";

/**
 * The ledger as the fold reads it, built from the rows load.ts reads: the trade rows parsed, the
 * events of each holding, the method precedence; and a holding folded into its parcels.
 */

export interface PortfolioTaxInfo {
  id: number;
  financialYearEnd: string;
  defaultMethod: ParcelMethod;
  entityType?: EntityType;
}

export interface Ledger {
  /**
   * The loaded rows as text (trades, parcel selections, DRP units, methods, the owner's settings):
   * two ledgers with one fingerprint fold to the same parcels, whichever process loaded them.
   */
  fingerprint?: string;
  eventsByHolding: Map<number, LedgerEvent[]>;
  /** The trades the events came from, in ledger order (date, then entry). */
  trades: (TradeRow & { currencyCode?: string })[];
  /** The owner's CGT discount rate, which MinimiseCGT weighs. */
  discountRate: Decimal;
  /** Method precedence (docs/rules.md §3): holding override for the year > the year's > default > FIFO. */
  methodFor(holdingId: number, event: LedgerEvent): ParcelMethod;
  /**
   * Parses the loaded rows into events now, in slices that give the event loop a turn (a
   * 20,000-trade ledger takes tens of milliseconds); without it they are parsed at once on first read.
   */
  prepare?(): Promise<void>;
}

/** What the fold reads besides the trades, of every portfolio loaded (each row names its portfolio). */
export interface LedgerExtras {
  selections: { portfolioId: number; sellTradeId: number; parcelTradeId: number; quantity: string }[];
  drp: {
    portfolioId: number;
    id: number;
    holdingId: number;
    paidDate: string;
    drpQuantity: string;
    drpPrice: string | null;
    exchangeRate: string;
  }[];
  yearMethods: { portfolioId: number; financialYear: number; method: ParcelMethod }[];
  holdingMethods: { portfolioId: number; holdingId: number; financialYear: number; method: ParcelMethod }[];
  /** Confirmed distributions whose AMIT components change the cost base (docs/rules.md §6.5). */
  amit: AmitRow[];
}

/** A ledger whose rows are parsed into events only when first read (a memo may make that needless). */
export function lazyLedger(fingerprint: string, discountRate: Decimal, build: () => Steps<Ledger>): Ledger {
  let built: Ledger | undefined;
  let preparing: Promise<void> | undefined;
  const ledger = () => (built ??= atOnce(build()));
  return {
    prepare() {
      return (preparing ??= built ? Promise.resolve() : inSlices(build()).then((l) => void (built ??= l)));
    },
    fingerprint,
    get eventsByHolding() {
      return ledger().eventsByHolding;
    },
    get trades() {
      return ledger().trades;
    },
    discountRate,
    methodFor: (holdingId, event) => ledger().methodFor(holdingId, event),
  };
}

/** A trade of the ledger with the currency it was made in (the FX and price rules read it). */
export type LedgerTradeRow = TradeRow & { currencyCode: string };

/** Rows parsed or events built between two steps of a ledger's parse (lib/slices.ts). */
const ROWS_PER_STEP = 500;

/** The rows of the trade aggregate above: one trade per line, fields in the SELECT's order. */
export function* parseTradeRows(text: string): Steps<LedgerTradeRow[]> {
  if (text === "") return [];
  const rows: LedgerTradeRow[] = [];
  for (const line of text.split("\n")) {
    const [
      id,
      holdingId,
      tradeType,
      tradeDate,
      quantity,
      price,
      brokerage,
      exchangeRate,
      currencyCode,
      acquisitionDate,
    ] = line.split(",");
    rows.push({
      id: Number(id),
      holdingId: Number(holdingId),
      tradeType: tradeType as TradeType,
      tradeDate,
      quantity,
      price,
      brokerage,
      exchangeRate,
      currencyCode,
      acquisitionDate: acquisitionDate || null,
    });
    if (rows.length % ROWS_PER_STEP === 0) yield;
  }
  return rows;
}

export function buildLedger(...args: Parameters<typeof buildLedgerSteps>): Ledger {
  return atOnce(buildLedgerSteps(...args));
}

export function* buildLedgerSteps(
  portfolio: PortfolioTaxInfo,
  trades: (TradeRow & { currencyCode?: string })[],
  selections: { sellTradeId: number; parcelTradeId: number; quantity: Decimal.Value }[],
  drp: {
    id: number;
    holdingId: number;
    paidDate: Date | string;
    drpQuantity: Decimal.Value | null;
    drpPrice: Decimal.Value | null;
    exchangeRate: Decimal.Value;
  }[],
  yearMethods: { financialYear: number; method: ParcelMethod }[],
  holdingMethods: { holdingId: number; financialYear: number; method: ParcelMethod }[],
  amit: AmitRow[] = [],
): Steps<Ledger> {
  const picks = new Map<number, { tradeId: number; units: Decimal }[]>();
  for (const s of selections) {
    const list = picks.get(s.sellTradeId) ?? [];
    list.push({ tradeId: s.parcelTradeId, units: new Decimal(s.quantity) });
    picks.set(s.sellTradeId, list);
  }
  const eventsByHolding = new Map<number, LedgerEvent[]>();
  const push = (holdingId: number, e: LedgerEvent) => {
    const list = eventsByHolding.get(holdingId) ?? [];
    list.push(e);
    eventsByHolding.set(holdingId, list);
  };
  let n = 0;
  for (const t of trades) {
    push(t.holdingId, tradeEvent(t, picks.get(t.id)));
    if (++n % ROWS_PER_STEP === 0) yield;
  }
  for (const i of drp) if (i.drpQuantity) push(i.holdingId, drpEvent({ ...i, drpQuantity: i.drpQuantity }));
  for (const i of amit) for (const e of amitEvents(i)) push(i.holdingId, e);

  const byYear = new Map(yearMethods.map((m) => [m.financialYear, m.method]));
  const byHoldingYear = new Map(holdingMethods.map((m) => [`${m.holdingId}:${m.financialYear}`, m.method]));
  return {
    eventsByHolding,
    trades,
    discountRate: discountRateOf(portfolio.entityType),
    methodFor(holdingId, event) {
      const fy = financialYearOf(event.date, portfolio.financialYearEnd);
      return byHoldingYear.get(`${holdingId}:${fy}`) ?? byYear.get(fy) ?? portfolio.defaultMethod ?? "FIFO";
    },
  };
}

/** Folds one holding's events; a ParcelError means the ledger breaks a rule (a short sell...). */
export function foldHolding(
  ledger: Ledger,
  holdingId: number,
  extra: { replace?: Map<string, LedgerEvent | null>; add?: LedgerEvent[] } = {},
): FoldResult {
  let events = ledger.eventsByHolding.get(holdingId) ?? [];
  if (extra.replace) {
    events = events.flatMap((e) => {
      if (!extra.replace!.has(e.key)) return [e];
      const r = extra.replace!.get(e.key);
      return r ? [r] : [];
    });
  }
  if (extra.add) events = [...events, ...extra.add];
  return foldParcels(events, { methodFor: (e) => ledger.methodFor(holdingId, e), discountRate: ledger.discountRate });
}
