import type { Prisma } from "../../../generated/prisma/client";
import { today } from "../../lib/dates";
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
 * as of today. `staleDays`: PRICE_STALE_DAYS (ctx.marketData.staleDays). Portfolios of one account.
 */
export async function valueHoldings(
  db: Prisma.TransactionClient,
  portfolios: PortfolioForLedger[],
  holdings: HoldingRow[],
  options: { date?: string; staleDays: number },
): Promise<HoldingView[]> {
  const { date, staleDays } = options;
  const asOf = date ?? today();
  const exchanges = [...new Set(holdings.filter((h) => !isCustomInvestment(h)).map((h) => h.exchange))];
  const [positions, closes] = await Promise.all([
    valueHoldingsOn(db, portfolios, holdings, date),
    portfolios.length === 0
      ? new Map<string, string>()
      : latestExchangeCloses(db, portfolios[0].accountId, exchanges, asOf),
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
