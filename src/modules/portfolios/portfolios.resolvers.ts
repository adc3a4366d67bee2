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
  Portfolio: {
    allocationModels: (portfolio, _args, ctx) => ctx.loaders.allocationModelsByPortfolioId.load(portfolio.id),
    activeAllocationModel: async (portfolio, _args, ctx) =>
      (await ctx.loaders.allocationModelsByPortfolioId.load(portfolio.id)).find((m) => m.isActive) ?? null,
  },
};
