import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { getBenchmark } from "./benchmark.service";
import { getPerformance } from "./performance.service";
import { getHoldingTimeseries, getPortfolioTimeseries } from "./timeseries.service";

export const analyticsResolvers: Resolvers = {
  Query: {
    performance: (_parent, a, ctx) =>
      getPerformance(
        ctx,
        a.portfolioId,
        dropNulls({
          from: a.from,
          to: a.to,
          groupBy: a.groupBy,
          showLocalCurrency: a.showLocalCurrency,
          includeClosed: a.includeClosed,
          annualise: a.annualise,
        }),
      ),
    benchmark: (_parent, a, ctx) =>
      getBenchmark(
        ctx,
        a.portfolioId,
        dropNulls({
          symbol: a.symbol,
          exchange: a.exchange,
          benchmarkPortfolioId: a.benchmarkPortfolioId,
          from: a.from,
          to: a.to,
          interval: a.interval,
        }),
      ),
    portfolioTimeseries: (_parent, a, ctx) =>
      getPortfolioTimeseries(ctx, a.portfolioId, dropNulls({ from: a.from, to: a.to, interval: a.interval })),
    holdingTimeseries: (_parent, a, ctx) =>
      getHoldingTimeseries(ctx, a.holdingId, dropNulls({ from: a.from, to: a.to, interval: a.interval })),
  },
  Portfolio: {
    performance: (portfolio, a, ctx) => getPerformance(ctx, portfolio.id, dropNulls({ from: a.from, to: a.to })),
  },
};
