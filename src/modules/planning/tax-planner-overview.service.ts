import type { Context } from "../../context";
import { financialYearOf } from "../../lib/dates";
import { heavyWork } from "../../lib/heavy-work";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { atOneMoment, dailyValuation, loadValuationRanges } from "../ledger";
import { bookWhere } from "../ledger/portfolio-access";
import { loadTaxBooks, taxPortfolios } from "../tax/tax-book";
import { TaxPlannerOverviewQuery } from "./tax-planner.schemas";
import { planOf, plannerYear } from "./tax-planner.service";

export interface TaxPlannerOverviewRow {
  portfolioId: number;
  name: string;
  entityType: string;
  realisedNetCapitalGain: Decimal;
  unrealisedLosses: Decimal;
  largestHarvestReduction: Decimal;
}

/** The Australian income year the overview's dates are checked against (each portfolio's figures use its own). */
const AU_YEAR_END = "06-30";

/**
 * GET /v1/tax-planner, GraphQL `taxPlannerOverview` (docs/reports.md §6.1): an adviser's book, one
 * row per portfolio the key sees that the tax reports take (AUD base, AU residency), each exactly as
 * its own `taxPlanner` of the same `asOf` reports it, largest realised net capital gain first. A
 * fixed number of statements whatever the number of portfolios: one tax book load and one
 * valuation load for all of them, read as of one moment.
 */
export function taxPlannerOverview(ctx: Context, query: unknown = {}): Promise<TaxPlannerOverviewRow[]> {
  return heavyWork(ctx, () => overviewNow(ctx, query));
}

async function overviewNow(ctx: Context, query: unknown): Promise<TaxPlannerOverviewRow[]> {
  const request = parseInput(TaxPlannerOverviewQuery, query ?? {}, "The query");
  const { asOf } = plannerYear(request, AU_YEAR_END, "The query");
  const ids = (
    await ctx.db.portfolio.findMany({
      where: { ...(await bookWhere(ctx, request.clientId)), baseCurrencyCode: "AUD", taxResidency: "AU" },
      select: { id: true },
      orderBy: { id: "asc" },
    })
  ).map((p) => p.id);
  if (ids.length === 0) return [];
  const { portfolios, books, ranges } = (
    await atOneMoment(ctx.db, { portfolioIds: ids, accountId: ctx.account.id }, async () => {
      // Read again inside the moment: their tax settings (entity type, methods) go with their ledgers.
      const portfolios = await taxPortfolios(ctx, ids);
      const [books, ranges] = await Promise.all([
        loadTaxBooks(ctx, portfolios, asOf),
        loadValuationRanges(ctx.db, portfolios, asOf, asOf),
      ]);
      return { portfolios, books, ranges };
    })
  ).value;
  const rows = portfolios.map((p) => {
    const plan = planOf(
      books.get(p.id)!,
      dailyValuation(ranges.get(p.id)!).exactOn(asOf).holdings,
      // Its own income year holding asOf (30 June's is the one checked above; a portfolio with
      // another year end gets the year its own taxPlanner of asOf would report).
      financialYearOf(asOf, p.financialYearEnd),
      asOf,
      null,
    );
    return {
      portfolioId: p.id,
      name: p.name,
      entityType: p.entityType,
      realisedNetCapitalGain: plan.realisedToDate.netCapitalGain,
      unrealisedLosses: plan.unrealised.losses,
      largestHarvestReduction: plan.harvest[0]?.netCapitalGainReduction ?? new Decimal(0),
    };
  });
  return rows.sort(
    (a, b) => b.realisedNetCapitalGain.comparedTo(a.realisedNetCapitalGain) || a.portfolioId - b.portfolioId,
  );
}
