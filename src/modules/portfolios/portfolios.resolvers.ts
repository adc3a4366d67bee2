import type { Resolvers } from "../../../generated/graphql/resolvers";
import { createPortfolio, deletePortfolio, findPortfolio, listPortfolios, updatePortfolio } from "./portfolios.service";

export const portfolioResolvers: Resolvers = {
  Query: {
    portfolios: (_parent, _args, ctx) => listPortfolios(ctx),
    portfolio: (_parent, args, ctx) => findPortfolio(ctx, args.id),
  },
  Mutation: {
    createPortfolio: (_parent, args, ctx) => createPortfolio(ctx, args.input),
    updatePortfolio: (_parent, args, ctx) => updatePortfolio(ctx, args.id, args.input),
    deletePortfolio: (_parent, args, ctx) => deletePortfolio(ctx, args.id),
  },
  Client: {
    portfolios: (client, _args, ctx) => ctx.loaders.portfoliosByClientId.load(client.id),
  },
};
