import DataLoader from "dataloader";
import type { Context } from "../context";
import { allocationModelsByPortfolioIds, type AllocationModelView } from "../modules/allocation-models/allocation-models.service";
import { cashAccountsByPortfolioIds, type CashAccountView } from "../modules/cash/cash.service";
import { portfoliosByClientIds } from "../modules/clients/clients.service";
import { assignmentsByGroupIds, type CustomGroupAssignmentView } from "../modules/custom-groups/custom-groups.service";
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
