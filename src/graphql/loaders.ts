import DataLoader from "dataloader";
import type { Context } from "../context";
import {
  allocationModelsByPortfolioIds,
  type AllocationModelText,
} from "../modules/allocation-models/allocation-models.service";
import {
  cashAccountsByPortfolioIds,
  cashMovementsByAccountIds,
  type CashAccountView,
  type CashMovementView,
} from "../modules/cash/cash.service";
import { portfoliosByClientIds } from "../modules/clients/clients.service";
import { assignmentsByGroupIds, type CustomGroupAssignmentView } from "../modules/custom-groups/custom-groups.service";
import { holdingsByPortfolioIds, type HoldingView } from "../modules/holdings/holdings.service";
import { incomeByHoldingIds, type IncomeView } from "../modules/income/income.service";
import type { PortfolioView } from "../modules/portfolios/portfolios.service";
import { tradesByHoldingIds, type TradeView } from "../modules/trades/trades.service";
import {
  transactionsByPortfolioIds,
  type PortfolioTransactionView,
} from "../modules/transactions/transactions.service";

/**
 * Per-request DataLoaders (built by withLoaders for each GraphQL request; REST never reads them). Each batches the relation fields of one tick
 * into a single service call, so a nested query costs a fixed number of SQL statements however
 * many parents it has.
 */
export function createLoaders(ctx: Context) {
  return {
    /** Live models of a portfolio, with their buckets (Portfolio.allocationModels, .activeAllocationModel). */
    allocationModelsByPortfolioId: listLoader<AllocationModelText>((ids) => allocationModelsByPortfolioIds(ctx, ids)),
    /** A portfolio's holdings valued on a date (Portfolio.holdings). */
    holdingsByPortfolio: loaderWithArgs<HoldingView>((ids, args) => holdingsByPortfolioIds(ctx, ids, args)),
    /** A page of a portfolio's transaction ledger (Portfolio.transactions). */
    transactionsByPortfolio: loaderWithArgs<PortfolioTransactionView>((ids, args) =>
      transactionsByPortfolioIds(ctx, ids, args),
    ),
    /** A page of a cash account's ledger with running balances (CashAccount.transactions). */
    movementsByCashAccount: loaderWithArgs<CashMovementView>((ids, args) => cashMovementsByAccountIds(ctx, ids, args)),
    /** Trades of a holding, oldest first (Holding.trades). */
    tradesByHoldingId: listLoader<TradeView>((ids) => tradesByHoldingIds(ctx, ids)),
    /** Income records of a holding by paid date (Holding.income). */
    incomeByHoldingId: listLoader<IncomeView>((ids) => incomeByHoldingIds(ctx, ids)),
    /** A portfolio's cash accounts with their balances (Portfolio.cashAccounts). */
    cashAccountsByPortfolioId: listLoader<CashAccountView>((ids) => cashAccountsByPortfolioIds(ctx, ids)),
    /** A client's portfolios (Client.portfolios). */
    portfoliosByClientId: listLoader<PortfolioView>((ids) => portfoliosByClientIds(ctx, ids)),
    /** A custom group's holding assignments (CustomGroup.assignments). */
    assignmentsByGroupId: listLoader<CustomGroupAssignmentView>((ids) => assignmentsByGroupIds(ctx, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/**
 * Parents a batch hands its service at most: a service reads them with lists of one bind
 * parameter each (Prisma's `in`), and a statement takes at most 32,767. A larger tick (the
 * holdings of two portfolios of 20,000 each) makes several batches.
 */
const MAX_BATCH = 10_000;

/** A DataLoader for a relation field without arguments: the parent's id to its list (empty when the service has none). */
export function listLoader<V>(load: (ids: readonly number[]) => Promise<Map<number, V[]>>) {
  return new DataLoader<number, V[]>(
    async (ids) => {
      const byId = await load(ids);
      return ids.map((id) => byId.get(id) ?? []);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** A relation field with arguments: the parent's id and the field's arguments (their JSON is their identity). */
export interface KeyWithArgs {
  id: number;
  args: Record<string, unknown>;
}

/**
 * A DataLoader for a relation field that takes arguments (a date, a page): keys with the same
 * arguments go to the service together, so `portfolios { holdings(date: …) }` over a thousand
 * portfolios costs the statements of one; aliases with other arguments make one batch each.
 */
function loaderWithArgs<V>(load: (ids: number[], args: Record<string, unknown>) => Promise<Map<number, V[]>>) {
  const argsKey = (k: KeyWithArgs) => JSON.stringify(k.args, Object.keys(k.args).sort());
  return new DataLoader<KeyWithArgs, V[], string>(
    async (keys) => {
      const groups = new Map<string, KeyWithArgs[]>();
      for (const k of keys) {
        const group = groups.get(argsKey(k));
        if (group) group.push(k);
        else groups.set(argsKey(k), [k]);
      }
      const answers = new Map<string, Map<number, V[]> | Error>();
      await Promise.all(
        [...groups].map(async ([args, group]) => {
          try {
            answers.set(args, await load([...new Set(group.map((k) => k.id))], group[0].args));
          } catch (error) {
            answers.set(args, error as Error);
          }
        }),
      );
      return keys.map((k) => {
        const answer = answers.get(argsKey(k))!;
        return answer instanceof Error ? answer : (answer.get(k.id) ?? []);
      });
    },
    { cacheKeyFn: (k) => `${k.id}|${argsKey(k)}`, maxBatchSize: MAX_BATCH },
  );
}

/** What GraphQL resolvers receive: the request's Context and its DataLoaders. */
export type GraphQLContext = Context & { loaders: Loaders };

/** The GraphQL request's context: its Context with a new set of DataLoaders, so batching never crosses requests or tenants. */
export function withLoaders(ctx: Context): GraphQLContext {
  const graphql = ctx as GraphQLContext;
  graphql.loaders = createLoaders(ctx);
  return graphql;
}
