import type { Resolvers } from "../../../generated/graphql/resolvers";
import { computeRebalance, getDriftOverview } from "./rebalancing.service";

export const rebalancingResolvers: Resolvers = {
  Query: {
    driftOverview: (_parent, args, ctx) => getDriftOverview(ctx, { clientId: args.clientId ?? undefined }),
  },
  Mutation: {
    computeRebalance: (_parent, args, ctx) => computeRebalance(ctx, args.portfolioId, args.input ?? {}),
  },
};
