import type { Resolvers } from "../../../generated/graphql/resolvers";
import {
  activateAllocationModel,
  deleteAllocationModel,
  findAllocationModel,
  activeModelOf,
  getActiveAllocationModel,
  listAllocationModels,
  saveAllocationModel,
} from "./allocation-models.service";

export const allocationModelResolvers: Resolvers = {
  Query: {
    allocationModels: (_parent, args, ctx) => listAllocationModels(ctx, args.portfolioId),
    activeAllocationModel: (_parent, args, ctx) => getActiveAllocationModel(ctx, args.portfolioId),
    allocationModel: (_parent, args, ctx) => findAllocationModel(ctx, args.publicId),
  },
  Mutation: {
    saveAllocationModel: async (_parent, args, ctx) =>
      (await saveAllocationModel(ctx, args.portfolioId, args.input)).model,
    deleteAllocationModel: (_parent, args, ctx) => deleteAllocationModel(ctx, args.publicId),
    activateAllocationModel: (_parent, args, ctx) => activateAllocationModel(ctx, args.publicId),
  },
  Portfolio: {
    allocationModels: (portfolio, _args, ctx) => ctx.loaders.allocationModelsByPortfolioId.load(portfolio.id),
    activeAllocationModel: async (portfolio, _args, ctx) =>
      activeModelOf(await ctx.loaders.allocationModelsByPortfolioId.load(portfolio.id)),
  },
};
