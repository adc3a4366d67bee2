import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { toDate, today } from "../../lib/dates";
import type { Decimal } from "../../lib/money";
import {
  isPriceStale,
  lastTradingDay,
  latestExchangeCloses,
  valueHoldingsOn,
  type PortfolioForLedger,
  type PriceSource,
} from "../ledger";

/**
 * A portfolio's holdings valued on a date (docs/rules.md §7), in a fixed number of statements whatever
 * their number: the ledger fold for units and cost base, the one price rule and the one FX rule.
 */
export type HoldingTypeName = "Stock" | "Etf" | "Fund" | "Crypto" | "Custom" | "Cash";

export interface HoldingView {
  id: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  holdingType: HoldingTypeName;
  quantity: Decimal;
  price: Decimal | null;
  priceDate: string | null;
  priceSource: PriceSource;
  /** The price is older than its exchange's last trading day by more than the stale days (price-freshness.ts). */
  priceStale: boolean;
  /**
   * Splits and consolidations the provider reported, dated on or before the valuation date, that
   * the user has neither applied nor dismissed: until applied, the units are those before the
   * split and the provider's closes those after it, so the value is off by the ratio.
   */
  pendingCorporateActions: number;
  /** Units of the base currency per unit of the holding's currency. */
  exchangeRate: Decimal | null;
  /** In the portfolio's base currency (`baseCurrencyCode`), as are marketValue and unrealisedGain. */
  costBase: Decimal;
  marketValue: Decimal | null;
  unrealisedGain: Decimal | null;
  classification: { assetClass: string | null; sector: string | null; industry: string | null };
  drp: { enabled: boolean; rounding: "Down" | "Nearest" | "Up" };
  notes: string;
  baseCurrencyCode: string;
}

export const HOLDING_SELECT = {
  id: true,
  portfolioId: true,
  symbol: true,
  exchange: true,
  name: true,
  currencyCode: true,
  holdingType: true,
  assetClass: true,
  sector: true,
  industry: true,
  drpEnabled: true,
  drpRounding: true,
  notes: true,
} as const;
export type HoldingRow = Prisma.HoldingGetPayload<{ select: typeof HOLDING_SELECT }>;

/** A custom investment's price is a valuation as of its date: no exchange calendar to fall behind. */
const isCustomInvestment = (h: HoldingRow) => h.holdingType === "Custom";

/**
 * The views of holdings valued on a date (the ledger's point-in-time valuation), in a fixed number
 * of statements whatever their number. Without a date: the latest prices, their freshness judged
 * as of today against PRICE_STALE_DAYS (ctx.marketData.staleDays). Portfolios of one account.
 */
export async function valueHoldings(
  ctx: Pick<Context, "db" | "marketData">,
  portfolios: PortfolioForLedger[],
  holdings: HoldingRow[],
  date?: string,
): Promise<HoldingView[]> {
  const { db } = ctx;
  const { staleDays } = ctx.marketData;
  const asOf = date ?? today();
  const exchanges = [...new Set(holdings.filter((h) => !isCustomInvestment(h)).map((h) => h.exchange))];
  const [positions, closes, pending] = await Promise.all([
    valueHoldingsOn(db, portfolios, holdings, date),
    portfolios.length === 0
      ? new Map<string, string>()
      : latestExchangeCloses(db, portfolios[0].accountId, exchanges, asOf),
    pendingCorporateActions(db, holdings, asOf),
  ]);
  const baseOf = new Map(portfolios.map((p) => [p.id, p.baseCurrencyCode]));
  return holdings.map((h) => {
    const position = positions.get(h.id)!;
    const priceStale = isPriceStale({
      priceDate: position.priceDate,
      priceSource: position.priceSource,
      customInvestment: isCustomInvestment(h),
      lastTradingDay: lastTradingDay(closes.get(h.exchange), asOf, staleDays),
      staleDays,
    });
    return {
      id: h.id,
      portfolioId: h.portfolioId,
      symbol: h.symbol,
      exchange: h.exchange,
      name: h.name,
      currencyCode: h.currencyCode,
      holdingType: h.holdingType,
      quantity: position.quantity,
      costBase: position.costBaseInBaseCurrency,
      price: position.price,
      priceDate: position.priceDate,
      priceSource: position.priceSource,
      priceStale,
      pendingCorporateActions: pending.get(h.id) ?? 0,
      exchangeRate: position.exchangeRate,
      marketValue: position.marketValueInBaseCurrency,
      unrealisedGain: position.unrealisedGainInBaseCurrency,
      baseCurrencyCode: baseOf.get(h.portfolioId)!,
      classification: { assetClass: h.assetClass, sector: h.sector, industry: h.industry },
      drp: { enabled: h.drpEnabled, rounding: h.drpRounding },
      notes: h.notes,
    };
  });
}

/** Each holding's pending corporate actions dated on or before `date` (only holdings with any). */
export async function pendingCorporateActions(
  db: Prisma.TransactionClient,
  holdings: HoldingRow[],
  date: string,
): Promise<Map<number, number>> {
  if (holdings.length === 0) return new Map();
  // The ids as one array parameter: Prisma's `in` takes one parameter an id, and a statement at most
  // 32,767 (a GraphQL batch of portfolios may hold more holdings).
  const rows = await db.$queryRaw<{ holdingId: number; pending: number }[]>`
    SELECT holding_id AS "holdingId", count(*)::int AS pending FROM corporate_action
    WHERE holding_id = ANY(${holdings.map((h) => h.id)}::int[]) AND status = 'Pending' AND date <= ${toDate(date)}
    GROUP BY holding_id`;
  return new Map(rows.map((r) => [r.holdingId, r.pending]));
}
