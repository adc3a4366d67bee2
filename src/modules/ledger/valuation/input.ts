import type { Decimal } from "../../../lib/money";
import type { UnitsTimeline } from "../units-timeline";
import type { FlowCashTransaction, FlowIncome, FlowTrade } from "../flows";
import type { FxTable } from "../fx";
import type { HoldingPrices } from "../prices";

/**
 * What the daily valuation engine (daily-series.ts) reads, and the exact figures of one day it
 * answers (exact-day.ts computes them): the types both files share, kept apart from either.
 */
export interface ValuationHolding {
  id: number;
  currencyCode: string;
  /** Units after each day: the fold's timeline, or the lighter units timeline (fold.ts). */
  timeline: UnitsTimeline;
  prices: HoldingPrices;
}

export interface ValuationCashAccount {
  id: number;
  currencyCode: string;
  syncTrades: boolean;
  syncIncome: boolean;
  transactions: FlowCashTransaction[];
}

export interface ValuationInput {
  from: string;
  to: string;
  baseCurrencyCode: string;
  holdings: ValuationHolding[];
  /** Every trade of the portfolio up to `to` (flows and synced cash read them). */
  trades: FlowTrade[];
  /** Income records up to `to` with their ex-dividend dates (receivable) and paid dates. */
  income: (FlowIncome & { exDividendDate: string })[];
  cashAccounts: ValuationCashAccount[];
  fx: FxTable;
}

export interface ExactHolding {
  id: number;
  units: Decimal;
  price: Decimal | null;
  rate: Decimal | null;
  valueInBaseCurrency: Decimal | null;
}

export interface ExactDay {
  date: string;
  holdings: ExactHolding[];
  cash: { id: number; balance: Decimal; valueInBaseCurrency: Decimal | null }[];
  incomeReceivableInBaseCurrency: Decimal;
  inflowsInBaseCurrency: Decimal;
  outflowsInBaseCurrency: Decimal;
  /** Holdings + cash + receivable; figures with no price or rate count as 0 (see `unvalued`). */
  totalInBaseCurrency: Decimal;
  /** Ids of holdings holding units without a price or a rate on the day. */
  unvalued: number[];
}
