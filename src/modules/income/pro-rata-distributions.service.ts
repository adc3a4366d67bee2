import type { Context } from "../../context";
import { financialYearRange, toDate } from "../../lib/dates";
import { businessRule } from "../../lib/domain-errors";
import { parseInput } from "../../lib/validation";
import { holdingForTrade, holdingWithPortfolio } from "../holdings/holdings.service";
import { ledgerWrite } from "../ledger/unit-of-work";
import { assertCanWrite } from "../ledger/portfolio-access";
import { componentsText, INCOME_SELECT, toIncomeView, type IncomeView } from "./income-view";
import { ProRataInput } from "./income.schemas";
import { spreadProRata } from "./pro-rata";

/**
 * PUT /v1/holdings/{h}/pro-rata-distributions: spreads the year's AMIT statement totals over the
 * holding's distributions with an ex-dividend date in that financial year, by gross amount; the
 * parts add up exactly to the totals. Returns the updated records.
 */
export async function updateProRataDistributions(
  ctx: Context,
  holdingId: unknown,
  input: unknown,
): Promise<IncomeView[]> {
  const data = parseInput(ProRataInput, input, "The statement");
  assertCanWrite(ctx);
  const holding = await holdingWithPortfolio(ctx, holdingId);
  // The amounts spread over are read under the ledger's locks: an income edit commits first or waits.
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const { from, to } = financialYearRange(data.financialYear, portfolio.financialYearEnd);
    const rows = await tx.income.findMany({
      where: { holdingId: holding.id, exDividendDate: { gte: toDate(from), lte: toDate(to) } },
      select: INCOME_SELECT,
      orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
    });
    const distributions = rows.map((r) => ({ id: r.id, grossAmount: toIncomeView(r).grossAmount }));
    if (distributions.every((d) => d.grossAmount.isZero())) {
      throw businessRule(
        `Holding ${holding.id} has no distribution with an amount and an ex-dividend date in FY${data.financialYear} (${from} to ${to}).`,
      );
    }
    const parts = spreadProRata(distributions, data.components);
    for (const [id, components] of parts) {
      await tx.income.update({
        where: { id },
        data: {
          isTrustIncome: true,
          components: componentsText(components),
        },
      });
    }
    const updated = await tx.income.findMany({
      where: { id: { in: distributions.map((d) => d.id) } },
      select: INCOME_SELECT,
      orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
    });
    return updated.map(toIncomeView);
  });
}
