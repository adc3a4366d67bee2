import type { Resolvers } from "../../../generated/graphql/resolvers";
import { computeRebalance } from "./rebalancing.service";

export const rebalancingResolvers: Resolvers = {
  Mutation: {
    computeRebalance: (_parent, args, ctx) => computeRebalance(ctx, args.portfolioId, args.input ?? {}),
  },
};
