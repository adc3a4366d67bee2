import DataLoader from "dataloader";
import type { Context } from "../context";
import { allocationModelsByPortfolioIds, type AllocationModelView } from "../modules/allocation-models/allocation-models.service";
import { cashAccountsByPortfolioIds, type CashAccountView } from "../modules/cash/cash.service";
import { portfoliosByClientIds } from "../modules/clients/clients.service";
import { assignmentsByGroupIds, type CustomGroupAssignmentView } from "../modules/custom-groups/custom-groups.service";
import { holdingsByPortfolioIds, type HoldingView } from "../modules/holdings/holdings.service";
import { incomeByHoldingIds, type IncomeView } from "../modules/income/income.service";
import type { PortfolioView } from "../modules/portfolios/portfolios.service";
import { tradesByHoldingIds, type TradeView } from "../modules/trades/trades.service";

/**
 * Per-request DataLoaders (built in buildContext). Each batches the relation fields of one tick
 * into a single service call, so a nested query costs a fixed number of SQL statements however
 * many parents it has.
 */
export function createLoaders(ctx: Context) {
  return {
    /** Live models of a portfolio, with their buckets (Portfolio.allocationModels, .activeAllocationModel). */
    allocationModelsByPortfolioId: new DataLoader<number, AllocationModelView[]>(async (ids) => {
      const byPortfolio = await allocationModelsByPortfolioIds(ctx, ids);
      return ids.map((id) => byPortfolio.get(id) ?? []);
    }),
    /**
     * A portfolio's holdings valued on a date (Portfolio.holdings). Keys with the same arguments
     * are valued together: one ledger load and one set of price queries for all their portfolios.
     */
    holdingsByPortfolio: new DataLoader<HoldingsKey, HoldingView[], string>(
      async (keys) => {
        const groups = new Map<string, HoldingsKey[]>();
        for (const k of keys) groups.set(argsOf(k), [...(groups.get(argsOf(k)) ?? []), k]);
        const answers = new Map<string, HoldingView[] | Error>();
        await Promise.all(
          [...groups.values()].map(async (group) => {
            const { includeClosed, date } = group[0];
            try {
              const byPortfolio = await holdingsByPortfolioIds(ctx, group.map((k) => k.portfolioId), { includeClosed, date });
              for (const k of group) answers.set(holdingsKey(k), byPortfolio.get(k.portfolioId) ?? []);
            } catch (error) {
              for (const k of group) answers.set(holdingsKey(k), error as Error);
            }
          }),
        );
        return keys.map((k) => answers.get(holdingsKey(k))!);
      },
      { cacheKeyFn: holdingsKey },
    ),
    /** Trades of a holding, oldest first (Holding.trades). */
    tradesByHoldingId: new DataLoader<number, TradeView[]>(async (ids) => {
      const byHolding = await tradesByHoldingIds(ctx, ids);
      return ids.map((id) => byHolding.get(id) ?? []);
    }),
    /** Income records of a holding by paid date (Holding.income). */
    incomeByHoldingId: new DataLoader<number, IncomeView[]>(async (ids) => {
      const byHolding = await incomeByHoldingIds(ctx, ids);
      return ids.map((id) => byHolding.get(id) ?? []);
    }),
    /** A portfolio's cash accounts with their balances (Portfolio.cashAccounts). */
    cashAccountsByPortfolioId: new DataLoader<number, CashAccountView[]>(async (ids) => {
      const byPortfolio = await cashAccountsByPortfolioIds(ctx, ids);
      return ids.map((id) => byPortfolio.get(id) ?? []);
    }),
    /** A client's portfolios (Client.portfolios). */
    portfoliosByClientId: new DataLoader<number, PortfolioView[]>(async (ids) => {
      const byClient = await portfoliosByClientIds(ctx, ids);
      return ids.map((id) => byClient.get(id) ?? []);
    }),
    /** A custom group's holding assignments (CustomGroup.assignments). */
    assignmentsByGroupId: new DataLoader<number, CustomGroupAssignmentView[]>(async (ids) => {
      const byGroup = await assignmentsByGroupIds(ctx, ids);
      return ids.map((id) => byGroup.get(id) ?? []);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

interface HoldingsKey {
  portfolioId: number;
  includeClosed: boolean;
  date?: string;
}
const argsOf = (k: HoldingsKey) => `${k.includeClosed}|${k.date ?? ""}`;
const holdingsKey = (k: HoldingsKey) => `${k.portfolioId}|${argsOf(k)}`;
