import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { holdingWhere } from "../holdings/holdings.service";
import { incomeAmounts } from "../ledger/cash-effects";

/** An income record as both transports answer it. */
export interface IncomeView {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  exDividendDate: string;
  paidDate: string;
  frankedAmount: Decimal;
  unfrankedAmount: Decimal;
  frankingCredits: Decimal;
  foreignIncome: Decimal;
  foreignTaxPaid: Decimal;
  withholdingTax: Decimal;
  grossAmount: Decimal;
  netAmount: Decimal;
  currencyCode: string;
  /** Base-currency units per unit of the income's currency. */
  exchangeRate: Decimal;
  isTrustIncome: boolean;
  isReinvested: boolean;
  drpQuantity: Decimal | null;
  drpPrice: Decimal | null;
  components: Record<string, Decimal> | null;
  notes: string;
  isConfirmed: boolean;
  /** `User`, or `Provider`: made from a market-data provider's dividend (docs/data.md §3). */
  origin: "User" | "Provider";
  /** Fields the provider did not say, estimated by the service; confirming clears them. */
  estimated: string[];
}

export const INCOME_SELECT = {
  id: true,
  holdingId: true,
  portfolioId: true,
  exDividendDate: true,
  paidDate: true,
  frankedAmount: true,
  unfrankedAmount: true,
  frankingCredits: true,
  foreignIncome: true,
  foreignTaxPaid: true,
  withholdingTax: true,
  currencyCode: true,
  exchangeRate: true,
  isTrustIncome: true,
  isReinvested: true,
  drpQuantity: true,
  drpPrice: true,
  components: true,
  notes: true,
  isConfirmed: true,
  origin: true,
  estimated: true,
  holding: { select: { symbol: true, exchange: true } },
} satisfies Prisma.IncomeSelect;
export type IncomeRow = Prisma.IncomeGetPayload<{ select: typeof INCOME_SELECT }>;

const D = (v: Prisma.Decimal | Decimal | null | undefined) => new Decimal(v ?? 0);

/** A stored components column (name → decimal text) as Decimals; null when there are none. */
export function componentsOf(json: unknown): Record<string, Decimal> | null {
  return json && typeof json === "object"
    ? Object.fromEntries(Object.entries(json as Record<string, string>).map(([k, v]) => [k, new Decimal(v)]))
    : null;
}

/** Components as their column stores them: name → decimal text. */
export function componentsText(components: Record<string, Decimal>): Record<string, string> {
  return Object.fromEntries(Object.entries(components).map(([k, v]) => [k, v.toFixed()]));
}

export function toIncomeView(r: IncomeRow): IncomeView {
  const amounts = {
    frankedAmount: D(r.frankedAmount),
    unfrankedAmount: D(r.unfrankedAmount),
    foreignIncome: D(r.foreignIncome),
    withholdingTax: D(r.withholdingTax),
    foreignTaxPaid: D(r.foreignTaxPaid),
  };
  const components = componentsOf(r.components);
  return {
    id: r.id,
    holdingId: r.holdingId,
    portfolioId: r.portfolioId,
    symbol: r.holding.symbol,
    exchange: r.holding.exchange,
    exDividendDate: fromDate(r.exDividendDate),
    paidDate: fromDate(r.paidDate),
    ...amounts,
    frankingCredits: D(r.frankingCredits),
    ...incomeAmounts(amounts),
    currencyCode: r.currencyCode,
    exchangeRate: D(r.exchangeRate),
    isTrustIncome: r.isTrustIncome,
    isReinvested: r.isReinvested,
    drpQuantity: r.drpQuantity === null ? null : D(r.drpQuantity),
    drpPrice: r.drpPrice === null ? null : D(r.drpPrice),
    components,
    notes: r.notes,
    isConfirmed: r.isConfirmed,
    origin: r.origin,
    estimated: r.estimated,
  };
}

export const incomeWhere = (ctx: Context): Prisma.IncomeWhereInput => ({ holding: holdingWhere(ctx) });
