import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import {
  createCashAccount,
  createCashTransaction,
  deleteCashAccount,
  deleteCashTransaction,
  findCashAccount,
  findCashTransaction,
  listCashAccounts,
  updateCashAccount,
  updateCashTransaction,
} from "./cash.service";

export const cashResolvers: Resolvers = {
  Query: {
    cashAccounts: (_parent, args, ctx) => listCashAccounts(ctx, args.portfolioId),
    cashAccount: (_parent, args, ctx) => findCashAccount(ctx, args.id),
    cashTransaction: (_parent, args, ctx) => findCashTransaction(ctx, args.id),
  },
  Mutation: {
    createCashAccount: (_parent, args, ctx) => createCashAccount(ctx, args.input),
    updateCashAccount: (_parent, args, ctx) => updateCashAccount(ctx, args.id, args.input),
    deleteCashAccount: (_parent, args, ctx) => deleteCashAccount(ctx, args.id),
    createCashTransaction: (_parent, args, ctx) => createCashTransaction(ctx, args.input),
    updateCashTransaction: (_parent, args, ctx) => updateCashTransaction(ctx, args.id, args.input),
    deleteCashTransaction: (_parent, args, ctx) => deleteCashTransaction(ctx, args.id),
  },
  Portfolio: {
    cashAccounts: (portfolio, _args, ctx) => ctx.loaders.cashAccountsByPortfolioId.load(portfolio.id),
  },
  CashAccount: {
    transactions: (parent, args, ctx) =>
      ctx.loaders.movementsByCashAccount.load({ id: parent.id, args: dropNulls(args) }),
  },
};
