import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { listPortfolioTransactions } from "./transactions.service";

export const transactionResolvers: Resolvers = {
  Portfolio: {
    transactions: (portfolio, args, ctx) => listPortfolioTransactions(ctx, portfolio.id, dropNulls(args)),
  },
};
