import { createHash } from "node:crypto";
import type { Prisma } from "../../../../generated/prisma/client";
import { DomainError } from "../../../lib/domain-errors";
import type { Decimal } from "../../../lib/money";
import { DatedSeries } from "../dated-series";
import { FxTable } from "../fx";
import { foldHolding, loadLedgers, type Ledger, type PortfolioTaxInfo } from "../load";
import { customPrices, fxRates, marketPrices, securityKey, tradeRates } from "../market-data";
import { ParcelError } from "../parcel-selection";
import { HoldingPrices, isPriceTrade } from "../prices";
import { valuePosition, type Position } from "./position";

/**
 * Holdings valued on one date (point in time): the ledger fold for units and cost base, the one
 * price rule and the one FX rule over the market-data loader's window `from = to`, in a fixed
 * number of statements whatever the number of holdings. The holdings list and a holding's view
 * read this.
 */
export interface PortfolioToValue extends PortfolioTaxInfo {
  accountId: number;
  baseCurrencyCode: string;
}

export interface HoldingToValue {
  id: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  currencyCode: string;
}

/** Far enough ahead that "no date" values the whole ledger at the latest prices. */
const LATEST = "9999-12-31";

/**
 * Each holding's position (by holding id). With a date, the position and prices are those of
 * that date; without one, the whole ledger (trades dated later than today's UTC date included:
 * it is already tomorrow in Sydney) at the latest prices. Portfolios of one account.
 */
export async function valueHoldingsOn(
  db: Prisma.TransactionClient,
  portfolios: PortfolioToValue[],
  holdings: HoldingToValue[],
  date?: string,
): Promise<Map<number, Position>> {
  if (holdings.length === 0) return new Map();
  const accountIds = [...new Set(portfolios.map((p) => p.accountId))];
  if (accountIds.length !== 1) throw new Error("valueHoldingsOn: portfolios of one account only");
  const day = date ?? LATEST;
  const window = { from: day, to: day };
  const ids = holdings.map((h) => h.id);
  const [ledgers, market, custom, fx, rates] = await Promise.all([
    loadLedgers(db, portfolios, ids, date),
    marketPrices(db, accountIds[0], holdings, window),
    customPrices(db, ids, window),
    fxRates(db, accountIds[0], window),
    tradeRates(
      db,
      portfolios.map((p) => p.id),
      window,
    ),
  ]);
  const none = DatedSeries.sorted<string>([], []);
  const out = new Map<number, Position>();
  for (const portfolio of portfolios) {
    const own = holdings.filter((h) => h.portfolioId === portfolio.id);
    if (own.length === 0) continue;
    const table = new FxTable(fx, { base: portfolio.baseCurrencyCode, rates: rates.get(portfolio.id)! });
    const positions = positionsOf(ledgers.get(portfolio.id)!, own);
    for (const h of own) {
      const held = positions.get(h.id)!;
      const prices = new HoldingPrices({
        currencyCode: h.currencyCode,
        custom: custom.get(h.id) ?? none,
        market: market.get(securityKey(h)) ?? none,
        trades: held.lastTrade ? [held.lastTrade] : [],
      });
      out.set(
        h.id,
        valuePosition({
          quantity: held.units,
          costBaseInBaseCurrency: held.costBaseInBaseCurrency,
          price: prices.priceOn(day),
          rate: table.rateOn(h.currencyCode, portfolio.baseCurrencyCode, day),
        }),
      );
    }
  }
  return out;
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

function positionsOf(ledger: Ledger, holdings: HoldingToValue[]): Map<number, HeldPosition> {
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
    const currencyCode = t.currencyCode ?? "";
    if (!isPriceTrade({ tradeType: t.tradeType, price: t.price, currencyCode }, currencyOf.get(t.holdingId) ?? ""))
      continue;
    // Trades come in ledger order (date, then entry): the last one seen is the last trade.
    last.set(t.holdingId, { date: t.tradeDate, seq: t.id, tradeType: t.tradeType, price: t.price, currencyCode });
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
