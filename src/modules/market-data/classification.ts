import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";
import { lockPortfolioRows, write } from "../ledger/write";
import { asxClassification } from "./asx-sectors";
import type { SecurityRef } from "./providers/provider";

/**
 * Fills the classification of every holding of a security that the user has not set
 * (holding.user_classified): the holding type and asset class from the provider's instrument
 * type, the sector and industry from the shipped list of ASX companies (docs/data.md §3).
 */

type ProviderHoldingType = "Stock" | "Etf" | "Fund" | "Crypto";

/** Yahoo's `meta.instrumentType` → holding type; any other type (INDEX, CURRENCY, FUTURE, ...) sets none. */
export const HOLDING_TYPE_OF_INSTRUMENT: Readonly<Record<string, ProviderHoldingType>> = {
  EQUITY: "Stock",
  ETF: "Etf",
  MUTUALFUND: "Fund",
  CRYPTOCURRENCY: "Crypto",
};

/**
 * The asset class a provider's instrument type gives, in the words an Australian investor groups
 * by (Title Case, as users write theirs: "Australian Equities"). Shares split by market: the ASX's
 * are Australian equities, every other exchange's international. An ETF or a managed fund is its
 * own class: what it holds (shares, bonds, property) is not in the provider's answer. Null: none.
 */
export function assetClassOf(instrumentType: string | undefined, exchange: string): string | null {
  switch (instrumentType) {
    case "EQUITY":
      return exchange === "ASX" ? "Australian Equities" : "International Equities";
    case "ETF":
      return "ETFs";
    case "MUTUALFUND":
      return "Managed Funds";
    case "CRYPTOCURRENCY":
      return "Cryptocurrency";
    default:
      return null;
  }
}

/** What the provider and the ASX list say of a security; null fields fill nothing. */
export interface ProviderClassification {
  holdingType: ProviderHoldingType | null;
  assetClass: string | null;
  sector: string | null;
  industry: string | null;
}

export function providerClassification(
  security: SecurityRef,
  instrumentType: string | undefined,
): ProviderClassification {
  const asx = security.exchange === "ASX" ? asxClassification(security.symbol) : null;
  return {
    holdingType: (instrumentType && HOLDING_TYPE_OF_INSTRUMENT[instrumentType]) || null,
    assetClass: assetClassOf(instrumentType, security.exchange),
    sector: asx?.sector ?? null,
    industry: asx?.industry ?? null,
  };
}

/**
 * Writes the classification into every holding of the security, in any account, except custom
 * investments and cash: the holding type unless the user set it (a type the provider set before
 * follows the provider); the asset class, sector and industry only where empty and not the
 * user's (an explicit null from the user hands a field back). A holding whose values would not
 * change is not written, so the answer is the holdings changed and a quiet refresh moves no
 * portfolio's version.
 */
export async function classifyHoldings(
  db: PrismaClient,
  security: SecurityRef,
  instrumentType: string | undefined,
): Promise<number> {
  const c = providerClassification(security, instrumentType);
  if (!c.holdingType && !c.assetClass && !c.sector && !c.industry) return 0;
  const wanted = Prisma.sql`
    WITH current AS (
      SELECT id, portfolio_id, holding_type, asset_class, sector, industry, coalesce(user_classified, '{}') AS uc
      FROM holding
      WHERE symbol = ${security.symbol} AND exchange = ${security.exchange} AND holding_type NOT IN ('Custom', 'Cash')
    ), wanted AS (
      SELECT id, portfolio_id,
        CASE WHEN ${c.holdingType}::text IS NULL OR 'holdingType' = ANY(uc) THEN holding_type
             ELSE ${c.holdingType}::"HoldingType" END AS holding_type,
        CASE WHEN asset_class IS NULL AND NOT 'assetClass' = ANY(uc) THEN ${c.assetClass}::text ELSE asset_class END AS asset_class,
        CASE WHEN sector IS NULL AND NOT 'sector' = ANY(uc) THEN ${c.sector}::text ELSE sector END AS sector,
        CASE WHEN industry IS NULL AND NOT 'industry' = ANY(uc) THEN ${c.industry}::text ELSE industry END AS industry,
        (holding_type, asset_class, sector, industry) AS was
      FROM current
    ), changed AS (
      SELECT * FROM wanted WHERE (holding_type, asset_class, sector, industry) IS DISTINCT FROM was
    )`;
  return write({ db }, async (tx) => {
    // Ledger writers lock their portfolio's row before its holdings (ledger/write.ts): this
    // statement writes holdings of many portfolios, so it takes theirs first, in id order.
    const portfolios = await tx.$queryRaw<{ portfolio_id: number }[]>`
      ${wanted}
      SELECT DISTINCT portfolio_id FROM changed`;
    const locked = await lockPortfolioRows(
      tx,
      portfolios.map((p) => p.portfolio_id),
    );
    if (locked.length === 0) return 0;
    return tx.$executeRaw`
      ${wanted}
      UPDATE holding h
      SET holding_type = w.holding_type, asset_class = w.asset_class, sector = w.sector, industry = w.industry, updated_at = now()
      FROM changed w
      WHERE h.id = w.id AND h.portfolio_id = ANY(${locked}::int[])`;
  });
}
