import type { Resolvers } from "../../../generated/graphql/resolvers";
import { findPortfolioTaxSettings, listTaxSettings, updateTaxSettings } from "./tax-settings.service";

export const taxSettingsResolvers: Resolvers = {
  Query: {
    taxSettings: (_parent, _args, ctx) => listTaxSettings(ctx),
    portfolioTaxSettings: (_parent, args, ctx) => findPortfolioTaxSettings(ctx, args.portfolioId),
  },
  Mutation: {
    updateTaxSettings: (_parent, args, ctx) => updateTaxSettings(ctx, args.portfolioId, args.input),
  },
};
