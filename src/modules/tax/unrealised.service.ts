import type { Context } from "../../context";
import { financialYearOf, today } from "../../lib/dates";
import { validationFailed } from "../../lib/domain-errors";
import { Decimal, ZERO } from "../../lib/money";
import {
  apportion,
  dailyValuation,
  discountEligibleFrom,
  discountPercentOf,
  isDiscountEligible,
  loadValuationRange,
  roundMoney,
  type ExactHolding,
} from "../ledger";
import { gainSplit, lossLedger, netCapitalGain, type CgtSummary } from "./cgt";
import type { ParcelGain } from "./disposal-rows";
import { loadTaxBook, readTaxPortfolio, taxReport, yearsOf, type TaxBook } from "./tax-book";
import { UnrealisedQuery } from "./tax.schemas";

/**
 * GET /v1/portfolios/{p}/reports/unrealised-capital-gains, GraphQL `unrealisedCapitalGainsReport`
 * (docs/reports.md §5.2): the CGT as if every open parcel were sold on `date` at that day's valuation
 * price (the price and FX rules of the daily engine), without brokerage. Losses carried into that
 * year count only when asked (`includeCarriedForward`).
 */
export type UnrealisedParcel = ParcelGain;

export interface UnrealisedHolding {
  holdingId: number;
  symbol: string;
  exchange: string;
  quantity: Decimal;
  marketValue: Decimal;
  costBase: Decimal;
  unrealisedGain: Decimal;
  shortTermGain: Decimal;
  longTermGain: Decimal;
  capitalLoss: Decimal;
  nextDiscountDate: string | null;
  parcels: UnrealisedParcel[];
}

export interface UnrealisedReport {
  portfolioId: number;
  date: string;
  financialYear: number;
  entityType: string;
  discountPercent: Decimal;
  summary: CgtSummary;
  holdings: UnrealisedHolding[];
  /** Holdings with open parcels and no price (or rate) on the day: nothing to sell them at, so out of the figures, but named. */
  unpricedHoldings: { holdingId: number; symbol: string; exchange: string; quantity: Decimal; costBase: Decimal }[];
}

export function unrealisedCapitalGainsReport(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<UnrealisedReport> {
  return taxReport(ctx, UnrealisedQuery, query, (request) => unrealisedReportOf(ctx, portfolioId, request));
}

async function unrealisedReportOf(
  ctx: Context,
  portfolioId: unknown,
  request: UnrealisedQuery,
): Promise<UnrealisedReport> {
  const date = request.date ?? today();
  if (date > today())
    throw validationFailed("The query is invalid: date is in the future.", [
      {
        path: "date",
        message: `must not be after today (${today()}): unrealised gains are valued at a day's closing price`,
      },
    ]);
  const { portfolio, book, range } = await readTaxPortfolio(ctx, portfolioId, async (portfolio) => {
    const [book, range] = await Promise.all([
      loadTaxBook(ctx, portfolio, date),
      loadValuationRange(ctx.db, portfolio, date, date),
    ]);
    return { portfolio, book, range };
  });
  const { holdings, unpricedHoldings } = unrealisedHoldingsOf(book, dailyValuation(range).exactOn(date).holdings, date);
  const financialYear = financialYearOf(date, portfolio.financialYearEnd);

  let carried = ZERO;
  if (request.includeCarriedForward) {
    const years = lossLedger(yearsOf(book), book.entered, book.discountRate, financialYear);
    const year = years[years.length - 1];
    carried = year.broughtForward.plus(year.entered);
  }
  return {
    portfolioId: portfolio.id,
    date,
    financialYear,
    entityType: portfolio.entityType,
    discountPercent: discountPercentOf(book.discountRate),
    summary: netCapitalGain({
      gains: holdings.flatMap((h) => h.parcels),
      trustGains: [],
      carriedForwardLossesAvailable: carried,
      discountRate: book.discountRate,
    }),
    holdings,
    unpricedHoldings,
  };
}

/**
 * Every open parcel of the book's holdings as if sold on `date` at that day's valuation price and
 * rate (`day`: the daily engine's exact figures of the date), per holding, and the holdings left
 * out for want of a price or a rate. Pure; the tax planner reads the same parcels.
 */
export function unrealisedHoldingsOf(
  book: Pick<TaxBook, "folds" | "holdings" | "discountRate">,
  day: readonly ExactHolding[],
  date: string,
): { holdings: UnrealisedHolding[]; unpricedHoldings: UnrealisedReport["unpricedHoldings"] } {
  const valued = new Map(day.map((h) => [h.id, h]));

  const holdings: UnrealisedHolding[] = [];
  const unpricedHoldings: UnrealisedReport["unpricedHoldings"] = [];
  for (const [holdingId, fold] of book.folds) {
    const open = fold.parcels.filter((p) => p.units.gt(0));
    if (open.length === 0) continue;
    const v = valued.get(holdingId);
    // Without a price on the day (none imported, no priced trade in its currency) a holding has
    // no market value to sell at: it is named apart rather than shown as a loss of its cost base.
    if (!v || v.price === null || v.rate === null) {
      const { symbol, exchange } = book.holdings.get(holdingId)!;
      unpricedHoldings.push({
        holdingId,
        symbol,
        exchange,
        quantity: fold.units,
        costBase: fold.costBaseInBaseCurrency,
      });
      continue;
    }
    const units = open.reduce((s, p) => s.plus(p.units), ZERO);
    const marketValue = roundMoney(units.times(v.price).times(v.rate));
    const proceeds = apportion(
      marketValue,
      open.map((p) => p.units),
      roundMoney,
    );
    const parcels = open.map((p, i) => ({
      acquisitionTradeId: p.tradeId ?? null,
      acquisitionDate: p.acquisitionDate,
      disposalDate: date,
      quantity: p.units,
      costBase: p.costBaseInBaseCurrency,
      proceeds: proceeds[i],
      capitalGain: proceeds[i].minus(p.costBaseInBaseCurrency),
      isDiscountable: book.discountRate.gt(0) && isDiscountEligible(p.acquisitionDate, date),
    }));
    const pending = open.map((p) => discountEligibleFrom(p.acquisitionDate)).filter((d) => d > date);
    const costBase = parcels.reduce((s, p) => s.plus(p.costBase), ZERO);
    const holding = book.holdings.get(holdingId)!;
    holdings.push({
      holdingId,
      symbol: holding.symbol,
      exchange: holding.exchange,
      quantity: units,
      marketValue,
      costBase,
      unrealisedGain: marketValue.minus(costBase),
      ...gainSplit(parcels),
      nextDiscountDate:
        pending.length > 0 && book.discountRate.gt(0) ? pending.reduce((m, d) => (d < m ? d : m)) : null,
      parcels,
    });
  }
  holdings.sort((a, b) => a.holdingId - b.holdingId);
  return { holdings, unpricedHoldings: unpricedHoldings.sort((a, b) => a.holdingId - b.holdingId) };
}
