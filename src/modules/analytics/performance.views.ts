import type { Decimal } from "../../lib/money";

/** What the performance report answers (docs/reports.md §2). */

/** One scope's return: each component in the base currency and as a percentage of its capital. */
export interface ReturnSummary {
  totalReturnValue: Decimal;
  totalReturnPercent: number | null;
  capitalGainValue: Decimal;
  capitalGainPercent: number | null;
  dividendReturnValue: Decimal;
  dividendReturnPercent: number | null;
  currencyGainValue: Decimal;
  currencyGainPercent: number | null;
  isAnnualized: boolean;
}

/** The three return methods of a scope over a period (docs/reports.md §2, §3). */
export interface ReturnMethods {
  timeWeightedReturn: { cumulativePercent: number; annualisedPercent: number | null };
  moneyWeightedReturn: { annualisedPercent: number | null };
  modifiedDietz: { cumulativePercent: number | null; annualisedPercent: number | null };
}

export interface PerformanceHolding {
  id: number;
  symbol: string;
  name: string;
  exchange: string;
  currencyCode: string;
  quantity: Decimal;
  currentPrice: Decimal | null;
  marketValue: Decimal;
  holdingWeight: number;
  totalReturn: ReturnSummary;
  groupedByValue: string;
}

export interface PerformanceGroup {
  label: string;
  marketValue: Decimal;
  weight: number;
  totalReturn: ReturnSummary;
}

export interface PerformanceReport extends ReturnMethods {
  portfolioId: number;
  portfolioName: string;
  baseCurrencyCode: string;
  from: string;
  to: string;
  generatedDate: Date;
  hasHoldings: boolean;
  openingValue: Decimal;
  totalValue: Decimal;
  netFlows: Decimal;
  totalReturn: ReturnSummary;
  holdings: PerformanceHolding[];
  groups?: PerformanceGroup[];
}

/** The group of the cash accounts (by currency, their currency). */
export const CASH_GROUP = "Cash";
