import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { createTrade, deleteTrade, findTrade, updateTrade } from "./trades.service";

export const tradeResolvers: Resolvers = {
  Query: {
    trade: (_parent, args, ctx) => findTrade(ctx, args.id),
  },
  Mutation: {
    createTrade: (_parent, args, ctx) => createTrade(ctx, dropNulls(args.input)),
    updateTrade: (_parent, args, ctx) => updateTrade(ctx, args.id, dropNulls(args.input)),
    deleteTrade: (_parent, args, ctx) => deleteTrade(ctx, args.id),
  },
};
