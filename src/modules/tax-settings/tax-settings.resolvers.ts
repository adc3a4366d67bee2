import type { Resolvers } from "../../../generated/graphql/resolvers";
import { findTaxSettings, listTaxSettings, updateTaxSettings } from "./tax-settings.service";

export const taxSettingsResolvers: Resolvers = {
  Query: {
    taxSettings: (_parent, _args, ctx) => listTaxSettings(ctx),
    portfolioTaxSettings: (_parent, args, ctx) => findTaxSettings(ctx, args.portfolioId),
  },
  Mutation: {
    updateTaxSettings: (_parent, args, ctx) => updateTaxSettings(ctx, args.portfolioId, args.input),
  },
};
