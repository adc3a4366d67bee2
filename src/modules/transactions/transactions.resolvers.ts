import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";

export const transactionResolvers: Resolvers = {
  Portfolio: {
    transactions: (portfolio, args, ctx) =>
      ctx.loaders.transactionsByPortfolio.load({ id: portfolio.id, args: dropNulls(args) }),
  },
};
