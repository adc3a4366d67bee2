import type { QueryMarketPricesArgs, Resolvers } from "../../../generated/graphql/resolvers";
import { listFxRates, listMarketPrices, upsertFxRates, upsertMarketPrices } from "./imported-prices.service";
import {
  addCustomPrice,
  addCustomPrices,
  deleteCustomPrice,
  findCustomPrice,
  listCustomPrices,
  updateCustomPrice,
} from "./prices.service";

/** The filters both lists share (the dates and whose rows): GraphQL's null is a filter left out. */
const listFilters = (args: Pick<QueryMarketPricesArgs, "from" | "to" | "source">) => ({
  from: args.from ?? undefined,
  to: args.to ?? undefined,
  source: args.source ?? undefined,
});

export const priceResolvers: Resolvers = {
  Query: {
    customPrices: (_parent, args, ctx) => listCustomPrices(ctx, args.holdingId),
    customPrice: (_parent, args, ctx) => findCustomPrice(ctx, args.id),
    marketPrices: (_parent, args, ctx) =>
      listMarketPrices(ctx, { symbol: args.symbol, exchange: args.exchange, ...listFilters(args) }),
    fxRates: (_parent, args, ctx) => listFxRates(ctx, { base: args.base, quote: args.quote, ...listFilters(args) }),
  },
  Mutation: {
    addCustomPrice: (_parent, args, ctx) => addCustomPrice(ctx, args.holdingId, args.input),
    addCustomPrices: (_parent, args, ctx) => addCustomPrices(ctx, args.holdingId, args.input),
    updateCustomPrice: (_parent, args, ctx) => updateCustomPrice(ctx, args.id, args.input),
    deleteCustomPrice: (_parent, args, ctx) => deleteCustomPrice(ctx, args.id),
    upsertMarketPrices: (_parent, args, ctx) => upsertMarketPrices(ctx, args.input),
    upsertFxRates: async (_parent, args, ctx) => (await upsertFxRates(ctx, args.input)).upserted,
  },
};
