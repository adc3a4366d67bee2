import type { Context } from "../../context";
import { DomainError } from "../../lib/domain-errors";
import { inSlices } from "../../lib/slices";
import { parseInput } from "../../lib/validation";
import { customGroupIdOf } from "../allocation-models/allocation-models.schemas";
import { PORTFOLIO_LEDGER_SELECT } from "../ledger/portfolio-access";
import { scopedPortfolio } from "../ledger/portfolio-access";
import { PerformanceQuery } from "./analytics.schemas";
import { portfolioSeries } from "../ledger/valuation/series-cache";
import { heavyWork } from "../../lib/heavy-work";
import { assertWithinLimits } from "./limits";
import { firstEventDate, resolvePeriod } from "./period";
import { performanceSteps } from "./performance-steps";
import type { PerformanceReport } from "./performance.views";

/**
 * GET /v1/portfolios/{p}/performance, GraphQL `performance` and `Portfolio.performance`
 * (docs/reports.md §2): how the portfolio did over a period by every method of docs/rules.md
 * §11, where the return came from, per holding and per group. Money figures are exact (the daily
 * engine's Decimal figures on the period's two ends and each flow at its day's rate); rates are
 * Float64.
 *
 * The portfolio's totalReturn components are the sums of its holdings' and its cash accounts'
 * (interest to dividends, a foreign balance's rate moves to currency), so they add up to
 * EMV − BMV − external flows: a synced trade's cash leaving the account is the holding's flow in,
 * and the two cancel.
 */

export * from "./performance.views";
export { performanceSteps } from "./performance-steps";
export { portfolioTotals, returnMethods } from "./returns";

export async function getPerformance(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<PerformanceReport> {
  const request = parseInput(PerformanceQuery, query ?? {}, "The query");
  assertWithinLimits(ctx, request, false);
  return heavyWork(ctx, () => performance(ctx, portfolioId, request));
}

async function performance(ctx: Context, portfolioId: unknown, request: PerformanceQuery): Promise<PerformanceReport> {
  const portfolio = await scopedPortfolio(ctx, portfolioId, undefined, { ...PORTFOLIO_LEDGER_SELECT, name: true });
  const period = resolvePeriod(request, await firstEventDate(ctx, { portfolioId: portfolio.id }));
  assertWithinLimits(ctx, period, false);
  const labels = await customLabels(ctx, portfolio.id, request.groupBy);
  const { range, engine } = await portfolioSeries(ctx, portfolio, period.start, period.to);
  return {
    portfolioId: portfolio.id,
    portfolioName: portfolio.name,
    baseCurrencyCode: portfolio.baseCurrencyCode,
    from: period.from,
    to: period.to,
    generatedDate: new Date(),
    ...(await inSlices(
      performanceSteps(range, engine, { ...period, start: range.from }, { ...request, labels }),
      ctx.signal,
    )),
  };
}

/** The labels of the custom group a `customGroup:{id}` groupBy names, by holding (404 when the account has no such group). */
async function customLabels(ctx: Context, portfolioId: number, groupBy: string): Promise<Map<number, string>> {
  const groupId = customGroupIdOf(groupBy);
  if (groupId === undefined) return new Map();
  const group = await ctx.db.customGroup.findFirst({
    where: { id: groupId, accountId: ctx.account.id },
    select: { assignments: { where: { holding: { portfolioId } }, select: { holdingId: true, label: true } } },
  });
  if (!group)
    throw new DomainError("NOT_FOUND", `Custom group ${groupId} was not found.`, [
      { path: "groupBy", message: `names custom group ${groupId}, which this account does not have` },
    ]);
  return new Map(group.assignments.map((a) => [a.holdingId, a.label]));
}
