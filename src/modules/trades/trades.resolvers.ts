import type { Resolvers } from "../../../generated/graphql/resolvers";
import { createTrade, deleteTrade, findTrade, updateTrade } from "./trades.service";

export const tradeResolvers: Resolvers = {
  Query: {
    trade: (_parent, args, ctx) => findTrade(ctx, args.id),
  },
  Mutation: {
    createTrade: (_parent, args, ctx) => createTrade(ctx, args.input),
    updateTrade: (_parent, args, ctx) => updateTrade(ctx, args.id, args.input),
    deleteTrade: (_parent, args, ctx) => deleteTrade(ctx, args.id),
  },
};
