import { createHash } from "node:crypto";
import type { Prisma } from "../../../generated/prisma/client";
import { fromDate, toDate } from "../../lib/dates";
import { DomainError } from "../../lib/errors";
import type { Decimal } from "../../lib/money";
import {
  foldHolding,
  FxTable,
  HoldingPrices,
  loadLedgers,
  isPriceTrade,
  ParcelError,
  valuePosition,
  type Ledger,
  type PortfolioTaxInfo,
  type PriceSource,
} from "../ledger";

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

export const PORTFOLIO_TAX_SELECT = {
  id: true,
  baseCurrencyCode: true,
  financialYearEnd: true,
  defaultMethod: true,
  entityType: true,
  accountId: true,
} as const;
export type PortfolioForLedger = PortfolioTaxInfo & { baseCurrencyCode: string; accountId: number };

/**
 * Values holdings in a fixed number of statements whatever their number. With a date, the
 * position and prices are those of that date; without one, the whole ledger (trades dated
 * later than today's UTC date included: it is already tomorrow in Sydney) at the latest prices.
 */
export async function valueHoldings(
  db: Prisma.TransactionClient,
  portfolio: PortfolioForLedger,
  holdings: HoldingRow[],
  date?: string,
): Promise<HoldingView[]> {
  return valuePortfolioHoldings(db, [portfolio], holdings, date);
}

/** valueHoldings over the holdings of several portfolios of one account, in the same statements. */
export async function valuePortfolioHoldings(
  db: Prisma.TransactionClient,
  portfolios: PortfolioForLedger[],
  holdings: HoldingRow[],
  date?: string,
): Promise<HoldingView[]> {
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
    // The rule's fallback: the last trade in each foreign currency, of any holding of the portfolio
    // (base-currency trades need no rate, and skipping them spares sorting the whole ledger).
    db.$queryRaw<{ portfolio_id: number; currency_code: string; trade_date: Date; exchange_rate: Decimal }[]>`
      SELECT DISTINCT ON (t.portfolio_id, t.currency_code) t.portfolio_id, t.currency_code, t.trade_date, t.exchange_rate
      FROM trade t JOIN portfolio p ON p.id = t.portfolio_id
      WHERE t.portfolio_id = ANY(${portfolioIds}::int[]) AND t.trade_date <= ${asOf} AND t.currency_code <> p.base_currency_code
      ORDER BY t.portfolio_id, t.currency_code, t.trade_date DESC, t.id DESC`,
  ]);
  const marketBy = new Map(
    market.map((m) => [`${m.symbol}|${m.exchange}`, { date: fromDate(m.date), price: m.close }]),
  );
  const customBy = new Map(custom.map((c) => [c.holding_id, { date: fromDate(c.date), price: c.price }]));
  const fxRows = fx.map((r) => ({ base: r.base, quote: r.quote, date: fromDate(r.date), rate: r.rate }));
  const tables = new Map(
    portfolios.map((p) => [
      p.id,
      new FxTable(fxRows, {
        base: p.baseCurrencyCode,
        rates: tradeRates
          .filter((t) => t.portfolio_id === p.id)
          .map((t) => ({ currencyCode: t.currency_code, date: fromDate(t.trade_date), exchangeRate: t.exchange_rate })),
      }),
    ]),
  );
  const portfolioBy = new Map(portfolios.map((p) => [p.id, p]));
  const positions = new Map<number, Map<number, HeldPosition>>();
  for (const p of portfolios)
    positions.set(
      p.id,
      positionsOf(
        ledgers.get(p.id)!,
        holdings.filter((h) => h.portfolioId === p.id),
      ),
    );

  return holdings.map((h) => {
    const portfolio = portfolioBy.get(h.portfolioId)!;
    const held = positions.get(portfolio.id)!.get(h.id)!;
    const custom = customBy.get(h.id);
    const market = marketBy.get(`${h.symbol}|${h.exchange}`);
    const prices = new HoldingPrices({
      currencyCode: h.currencyCode,
      custom: custom ? [custom] : [],
      market: market ? [market] : [],
      trades: held.lastTrade ? [held.lastTrade] : [],
    });
    const position = valuePosition({
      quantity: held.units,
      costBaseInBaseCurrency: held.costBaseInBaseCurrency,
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

/** What valuation needs of a holding's fold: its position, and its last trade priced in its own currency. */
interface HeldPosition {
  units: Decimal;
  costBaseInBaseCurrency: Decimal;
  lastTrade?: { date: string; seq: number; tradeType: string; price: Decimal.Value; currencyCode: string };
}

/**
 * Positions by ledger fingerprint, per process: the fingerprint is the ledger's own rows as this
 * request read them, so a hit is never stale, whichever process wrote since (a write changes the
 * rows, hence the fingerprint). Repeated reads of a large unchanged ledger skip the parse and the
 * fold. Keyed by a SHA-256 of the fingerprint; bounded, the least recently used entries go first.
 */
const MEMO_ENTRIES = 32;
const memo = new Map<string, Map<number, HeldPosition>>();

function positionsOf(ledger: Ledger, holdings: HoldingRow[]): Map<number, HeldPosition> {
  const key =
    ledger.fingerprint === undefined
      ? undefined
      : createHash("sha256")
          .update(holdings.map((h) => `${h.id}:${h.currencyCode}`).join(","))
          .update("\u0000")
          .update(ledger.fingerprint)
          .digest("base64");
  const known = key === undefined ? undefined : memo.get(key);
  if (known) {
    memo.delete(key!);
    memo.set(key!, known);
    return known;
  }
  const last = new Map<number, HeldPosition["lastTrade"]>();
  const currencyOf = new Map(holdings.map((h) => [h.id, h.currencyCode]));
  for (const t of ledger.trades) {
    if (
      !isPriceTrade(
        { tradeType: t.tradeType, price: t.price, currencyCode: t.currencyCode ?? "" },
        currencyOf.get(t.holdingId) ?? "",
      )
    )
      continue;
    // Trades come in ledger order (date, then entry): the last one seen is the last trade.
    last.set(t.holdingId, {
      date: t.tradeDate,
      seq: t.id,
      tradeType: t.tradeType,
      price: t.price,
      currencyCode: t.currencyCode ?? "",
    });
  }
  const positions = new Map(
    holdings.map((h) => {
      const fold = foldOrExplain(() => foldHolding(ledger, h.id));
      return [
        h.id,
        { units: fold.units, costBaseInBaseCurrency: fold.costBaseInBaseCurrency, lastTrade: last.get(h.id) },
      ];
    }),
  );
  if (key !== undefined) {
    memo.set(key, positions);
    if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  }
  return positions;
}

function foldOrExplain<T>(fold: () => T): T {
  try {
    return fold();
  } catch (error) {
    // Stored ledgers are validated on every write; reaching this means data was changed behind
    // the service's back (or a tax setting change slipped through), which is our fault.
    if (error instanceof ParcelError)
      throw new DomainError("INTERNAL", `The stored ledger is inconsistent: ${error.message}`);
    throw error;
  }
}
