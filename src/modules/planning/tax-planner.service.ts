import type { Context } from "../../context";
import { financialYearInput, financialYearOf, financialYearRange, today } from "../../lib/dates";
import { validationFailed } from "../../lib/domain-errors";
import type { Decimal } from "../../lib/money";
import { dailyValuation, loadValuationRange, type ExactHolding } from "../ledger";
import { discountPercentOf } from "../ledger/discount";
import { lossLedger, type CgtSummary } from "../tax/cgt";
import { loadTaxBook, readTaxPortfolio, taxReport, yearsOf, type TaxBook } from "../tax/tax-book";
import { unrealisedHoldingsOf } from "../tax/unrealised.service";
import { taxPlan, type TaxPlan } from "./tax-planner";
import { TaxPlannerQuery } from "./tax-planner.schemas";

/**
 * GET /v1/portfolios/{p}/tax-planner, GraphQL `taxPlanner` (docs/reports.md §6.1): the year's
 * capital gains realised up to `asOf`, and what selling each losing parcel on `asOf`, or waiting for
 * each gaining parcel's discount, would change. Read as of one moment, like the tax reports; writes
 * nothing.
 */
export interface TaxPlannerResult extends TaxPlan {
  portfolioId: number;
  financialYear: number;
  asOf: string;
  endOfYear: string;
  entityType: string;
  discountPercent: Decimal;
  marginalTaxRate: Decimal | null;
  realisedToDate: CgtSummary;
}

export function taxPlanner(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<TaxPlannerResult> {
  return taxReport(ctx, TaxPlannerQuery, query, async (request) => {
    const { portfolio, book, range, year } = await readTaxPortfolio(ctx, portfolioId, async (portfolio) => {
      const year = plannerYear(request, portfolio.financialYearEnd, "The query");
      const [book, range] = await Promise.all([
        loadTaxBook(ctx, portfolio, year.asOf),
        loadValuationRange(ctx.db, portfolio, year.asOf, year.asOf),
      ]);
      return { portfolio, book, range, year };
    });
    const marginalTaxRate = request.marginalTaxRate ?? null;
    const plan = planOf(
      book,
      dailyValuation(range).exactOn(year.asOf).holdings,
      year.financialYear,
      year.asOf,
      marginalTaxRate,
    );
    return {
      portfolioId: portfolio.id,
      financialYear: year.financialYear,
      asOf: year.asOf,
      endOfYear: year.to,
      entityType: portfolio.entityType,
      discountPercent: discountPercentOf(book.discountRate),
      marginalTaxRate,
      ...plan,
    };
  });
}

/**
 * The planning date (default today, UTC) and its financial year (default the year of that date, by
 * the portfolio's year end), with the year's first and last day: a date outside the year is a 400.
 */
export function plannerYear(
  request: { financialYear?: number; asOf?: string },
  yearEnd: string,
  what: string,
): { asOf: string; financialYear: number; from: string; to: string } {
  const asOf = request.asOf ?? today();
  const financialYear = request.financialYear ?? financialYearOf(asOf, yearEnd);
  // A year taken from asOf has the bounds of a year asked for (1986 to 2200).
  const year = financialYearInput.safeParse(financialYear);
  if (!year.success)
    throw validationFailed(`${what} is invalid: asOf ${asOf} falls in financial year ${financialYear}.`, [
      { path: "asOf", message: `falls in financial year ${financialYear}, which ${year.error.issues[0].message}` },
    ]);
  const { from, to } = financialYearRange(financialYear, yearEnd);
  if (asOf < from || asOf > to)
    throw validationFailed(`${what} is invalid: asOf ${asOf} is outside financial year ${financialYear}.`, [
      {
        path: "asOf",
        message: `must lie in financial year ${financialYear} (${from} to ${to})${request.asOf ? "" : "; it defaults to today"}`,
      },
    ]);
  return { asOf, financialYear, from, to };
}

/** Trade types by which a holding acquires units: a repurchase for the wash-sale rule. */
const ACQUIRING = new Set(["Buy", "DrpAllotment", "TransferIn", "OpeningBalance"]);

/**
 * The plan of one portfolio from its tax book up to `asOf` and the daily engine's figures of `asOf`:
 * the capital gains report's summary of the year's events to date, the unrealised report's parcels.
 */
export function planOf(
  book: TaxBook,
  day: readonly ExactHolding[],
  financialYear: number,
  asOf: string,
  marginalTaxRate: Decimal | null,
): TaxPlan {
  const years = yearsOf(book);
  const ledgerYears = lossLedger(years, book.entered, book.discountRate, financialYear);
  const { holdings, unpricedHoldings } = unrealisedHoldingsOf(book, day, asOf);
  const acquisitions = new Map<number, string[]>();
  for (const [holdingId, events] of book.ledger.eventsByHolding)
    acquisitions.set(
      holdingId,
      events.filter((e) => ACQUIRING.has(e.type)).map((e) => e.date),
    );
  return taxPlan({
    asOf,
    discountRate: book.discountRate,
    year: {
      gains: years.get(financialYear)?.gains ?? [],
      trustGains: years.get(financialYear)?.trustGains ?? [],
      carriedForwardLossesAvailable: ledgerYears[ledgerYears.length - 1].summary.carriedForwardLossesAvailable,
    },
    parcels: holdings.flatMap((h) =>
      h.parcels.map((p) => ({
        holdingId: h.holdingId,
        symbol: h.symbol,
        exchange: h.exchange,
        acquisitionTradeId: p.acquisitionTradeId,
        acquisitionDate: p.acquisitionDate,
        quantity: p.quantity,
        costBase: p.costBase,
        marketValue: p.proceeds,
      })),
    ),
    unpriced: unpricedHoldings,
    acquisitions,
    marginalTaxRate,
  });
}
