import type { Resolvers } from "../../../generated/graphql/resolvers";
import { marketDataStatus, refreshMarketData } from "./market-data.service";

export const marketDataResolvers: Resolvers = {
  Query: {
    marketDataStatus: (_parent, _args, ctx) => marketDataStatus(ctx),
  },
  Mutation: {
    refreshMarketData: (_parent, args, ctx) => refreshMarketData(ctx, args.input ?? {}),
  },
};
