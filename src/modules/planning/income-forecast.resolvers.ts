import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { incomeForecast } from "./income-forecast.service";

export const incomeForecastResolvers: Resolvers = {
  Query: {
    incomeForecast: (_parent, a, ctx) =>
      incomeForecast(ctx, a.portfolioId, dropNulls({ from: a.from, months: a.months })),
  },
};
