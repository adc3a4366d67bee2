import type { Prisma } from "../../../generated/prisma/client";
import { fromDate, toDate } from "../../lib/dates";
import { DomainError } from "../../lib/errors";
import type { Decimal } from "../../lib/money";
import { foldHolding, FxTable, HoldingPrices, loadLedgers, ParcelError, valuePosition, type PortfolioTaxInfo, type PriceSource } from "../ledger";

/**
 * A portfolio's holdings valued on a date (DOMAIN.md §3), in a fixed number of statements whatever
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

export const PORTFOLIO_TAX_SELECT = { id: true, baseCurrencyCode: true, financialYearEnd: true, defaultMethod: true, entityType: true, accountId: true } as const;
export type PortfolioForLedger = PortfolioTaxInfo & { baseCurrencyCode: string; accountId: number };

/**
 * Values holdings in a fixed number of statements whatever their number. With a date, the
 * position and prices are those of that date; without one, the whole ledger (trades dated
 * later than today's UTC date included: it is already tomorrow in Sydney) at the latest prices.
 */
export async function valueHoldings(db: Prisma.TransactionClient, portfolio: PortfolioForLedger, holdings: HoldingRow[], date?: string): Promise<HoldingView[]> {
  return valuePortfolioHoldings(db, [portfolio], holdings, date);
}

/** valueHoldings over the holdings of several portfolios of one account, in the same statements. */
export async function valuePortfolioHoldings(db: Prisma.TransactionClient, portfolios: PortfolioForLedger[], holdings: HoldingRow[], date?: string): Promise<HoldingView[]> {
  if (holdings.length === 0) return [];
  const accountIds = [...new Set(portfolios.map((p) => p.accountId))];
  if (accountIds.length !== 1) throw new Error("valuePortfolioHoldings: portfolios of one account only");
  const accountId = accountIds[0];
  const portfolioIds = portfolios.map((p) => p.id);
  const ids = holdings.map((h) => h.id);
  const day = date ?? "9999-12-31";
  const asOf = toDate(day);
  const [ledgers, market, custom, fx, tradeRates] = await Promise.all([
    loadLedgers(db, portfolios, ids, date),
    db.$queryRaw<{ symbol: string; exchange: string; date: Date; close: Decimal }[]>`
      SELECT DISTINCT ON (symbol, exchange) symbol, exchange, date, close FROM market_price
      WHERE account_id = ${accountId} AND date <= ${asOf}
        AND (symbol, exchange) IN (SELECT symbol, exchange FROM holding WHERE id = ANY(${ids}::int[]))
      ORDER BY symbol, exchange, date DESC`,
    db.$queryRaw<{ holding_id: number; date: Date; price: Decimal }[]>`
      SELECT DISTINCT ON (holding_id) holding_id, date, price FROM custom_price
      WHERE holding_id = ANY(${ids}::int[]) AND date <= ${asOf}
      ORDER BY holding_id, date DESC`,
    // The latest of each pair is all a rate on one date needs, crosses included.
    db.$queryRaw<{ base: string; quote: string; date: Date; rate: Decimal }[]>`
      SELECT DISTINCT ON (base, quote) base, quote, date, rate FROM fx_rate
      WHERE account_id = ${accountId} AND date <= ${asOf}
      ORDER BY base, quote, date DESC`,
    // The rule's fallback: the last trade in each currency, of any holding of the portfolio.
    db.$queryRaw<{ portfolio_id: number; currency_code: string; trade_date: Date; exchange_rate: Decimal }[]>`
      SELECT DISTINCT ON (portfolio_id, currency_code) portfolio_id, currency_code, trade_date, exchange_rate FROM trade
      WHERE portfolio_id = ANY(${portfolioIds}::int[]) AND trade_date <= ${asOf}
      ORDER BY portfolio_id, currency_code, trade_date DESC, id DESC`,
  ]);
  const marketBy = new Map(market.map((m) => [`${m.symbol}|${m.exchange}`, { date: fromDate(m.date), price: m.close }]));
  const customBy = new Map(custom.map((c) => [c.holding_id, { date: fromDate(c.date), price: c.price }]));
  const fxRows = fx.map((r) => ({ base: r.base, quote: r.quote, date: fromDate(r.date), rate: r.rate }));
  const tables = new Map(
    portfolios.map((p) => [
      p.id,
      new FxTable(fxRows, {
        base: p.baseCurrencyCode,
        rates: tradeRates.filter((t) => t.portfolio_id === p.id).map((t) => ({ currencyCode: t.currency_code, date: fromDate(t.trade_date), exchangeRate: t.exchange_rate })),
      }),
    ]),
  );
  const portfolioBy = new Map(portfolios.map((p) => [p.id, p]));
  const tradesByHolding = new Map<number, { date: string; seq: number; tradeType: string; price: Decimal.Value; currencyCode: string }[]>();
  for (const ledger of ledgers.values()) {
    for (const t of ledger.trades) {
      const list = tradesByHolding.get(t.holdingId) ?? [];
      list.push({ date: t.tradeDate, seq: t.id, tradeType: t.tradeType, price: t.price, currencyCode: t.currencyCode ?? "" });
      tradesByHolding.set(t.holdingId, list);
    }
  }

  return holdings.map((h) => {
    const portfolio = portfolioBy.get(h.portfolioId)!;
    const fold = foldOrExplain(() => foldHolding(ledgers.get(portfolio.id)!, h.id));
    const custom = customBy.get(h.id);
    const market = marketBy.get(`${h.symbol}|${h.exchange}`);
    const prices = new HoldingPrices({ currencyCode: h.currencyCode, custom: custom ? [custom] : [], market: market ? [market] : [], trades: tradesByHolding.get(h.id) ?? [] });
    const position = valuePosition({
      quantity: fold.units,
      costBaseInBaseCurrency: fold.costBaseInBaseCurrency,
      price: prices.priceOn(day),
      rate: tables.get(portfolio.id)!.rateOn(h.currencyCode, portfolio.baseCurrencyCode, day),
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
      exchangeRate: position.exchangeRate,
      marketValue: position.marketValueInBaseCurrency,
      unrealisedGain: position.unrealisedGainInBaseCurrency,
      baseCurrencyCode: portfolio.baseCurrencyCode,
      classification: { assetClass: h.assetClass, sector: h.sector, industry: h.industry },
      drp: { enabled: h.drpEnabled, rounding: h.drpRounding },
      notes: h.notes,
    };
  });
}

function foldOrExplain<T>(fold: () => T): T {
  try {
    return fold();
  } catch (error) {
    // Stored ledgers are validated on every write; reaching this means data was changed behind
    // the service's back (or a tax setting change slipped through), which is our fault.
    if (error instanceof ParcelError) throw new DomainError("INTERNAL", `The stored ledger is inconsistent: ${error.message}`);
    throw error;
  }
}
