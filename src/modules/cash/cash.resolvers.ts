import DataLoader from "dataloader";
import type { CashAccount, Resolvers } from "../../../generated/graphql/resolvers";
import type { Context } from "../../context";
import {
  cashAccountsByPortfolioIds,
  createCashAccount,
  createCashTransaction,
  deleteCashAccount,
  deleteCashTransaction,
  findCashAccount,
  findCashTransaction,
  listCashAccounts,
  listCashMovements,
  updateCashAccount,
  updateCashTransaction,
  type CashAccountView,
} from "./cash.service";

/**
 * A view has every field of CashAccount but `transactions`, which its own resolver below answers.
 * Without a codegen mapper for CashAccount (src/graphql/codegen.ts), the static type needs bridging.
 */
const account = (v: CashAccountView) => v as unknown as CashAccount;
const accounts = (v: CashAccountView[]) => v as unknown as CashAccount[];

/** Portfolio.cashAccounts in one batch per request (src/graphql/loaders.ts is another module's). */
const loaders = new WeakMap<Context, DataLoader<number, CashAccountView[]>>();
function cashAccountsLoader(ctx: Context): DataLoader<number, CashAccountView[]> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const byPortfolio = await cashAccountsByPortfolioIds(ctx, ids);
      return ids.map((id) => byPortfolio.get(id) ?? []);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

export const cashResolvers: Resolvers = {
  Query: {
    cashAccounts: async (_parent, args, ctx) => accounts(await listCashAccounts(ctx, args.portfolioId)),
    cashAccount: async (_parent, args, ctx) => {
      const found = await findCashAccount(ctx, args.id);
      return found && account(found);
    },
    cashTransaction: (_parent, args, ctx) => findCashTransaction(ctx, args.id),
  },
  Mutation: {
    createCashAccount: async (_parent, args, ctx) => account(await createCashAccount(ctx, args.input)),
    updateCashAccount: async (_parent, args, ctx) => account(await updateCashAccount(ctx, args.id, args.input)),
    deleteCashAccount: (_parent, args, ctx) => deleteCashAccount(ctx, args.id),
    createCashTransaction: (_parent, args, ctx) => createCashTransaction(ctx, args.input),
    updateCashTransaction: (_parent, args, ctx) => updateCashTransaction(ctx, args.id, args.input),
    deleteCashTransaction: (_parent, args, ctx) => deleteCashTransaction(ctx, args.id),
  },
  Portfolio: {
    cashAccounts: async (portfolio, _args, ctx) => accounts(await cashAccountsLoader(ctx).load(portfolio.id)),
  },
  CashAccount: {
    transactions: (parent, args, ctx) =>
      listCashMovements(ctx, parent.id, { limit: args.limit ?? undefined, offset: args.offset ?? undefined, from: args.from ?? undefined, to: args.to ?? undefined }),
  },
};
