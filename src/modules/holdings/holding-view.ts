import type { Prisma } from "../../../generated/prisma/client";
import type { Decimal } from "../../lib/money";
import { valueHoldingsOn, type PortfolioForLedger, type PriceSource } from "../ledger";

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

/**
 * The views of holdings valued on a date (the ledger's point-in-time valuation), in a fixed number
 * of statements whatever their number. Portfolios of one account.
 */
export async function valueHoldings(
  db: Prisma.TransactionClient,
  portfolios: PortfolioForLedger[],
  holdings: HoldingRow[],
  date?: string,
): Promise<HoldingView[]> {
  const positions = await valueHoldingsOn(db, portfolios, holdings, date);
  const baseOf = new Map(portfolios.map((p) => [p.id, p.baseCurrencyCode]));
  return holdings.map((h) => {
    const position = positions.get(h.id)!;
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
