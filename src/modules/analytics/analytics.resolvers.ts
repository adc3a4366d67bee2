import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { getHoldingTimeseries, getPortfolioTimeseries } from "./timeseries.service";

export const analyticsResolvers: Resolvers = {
  Query: {
    portfolioTimeseries: (_parent, a, ctx) => getPortfolioTimeseries(ctx, a.portfolioId, dropNulls({ from: a.from, to: a.to, interval: a.interval })),
    holdingTimeseries: (_parent, a, ctx) => getHoldingTimeseries(ctx, a.holdingId, dropNulls({ from: a.from, to: a.to, interval: a.interval })),
  },
};
