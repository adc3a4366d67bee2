import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import {
  changeHoldingSymbol,
  createHolding,
  deleteHolding,
  findHolding,
  listSymbolChanges,
  updateHolding,
} from "./holdings.service";

export const holdingResolvers: Resolvers = {
  Query: {
    holding: (_parent, args, ctx) => findHolding(ctx, args.id),
    symbolChanges: (_parent, args, ctx) => listSymbolChanges(ctx, args.holdingId),
  },
  Mutation: {
    createHolding: (_parent, args, ctx) => createHolding(ctx, args.portfolioId, args.input),
    updateHolding: (_parent, args, ctx) => updateHolding(ctx, args.id, args.input),
    deleteHolding: (_parent, args, ctx) => deleteHolding(ctx, args.id),
    changeHoldingSymbol: (_parent, args, ctx) =>
      changeHoldingSymbol(ctx, args.id, { symbol: args.symbol, exchange: args.exchange }),
  },
  Portfolio: {
    holdings: (portfolio, args, ctx) =>
      ctx.loaders.holdingsByPortfolio.load({ id: portfolio.id, args: dropNulls(args) }),
  },
};
