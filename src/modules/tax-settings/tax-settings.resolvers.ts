import type { ResolversParentTypes, Resolvers } from "../../../generated/graphql/resolvers";
import { findTaxSettings, listTaxSettings, updateTaxSettings, type TaxSettingsView } from "./tax-settings.service";

/**
 * codegen.ts maps no service view onto TaxSettings, so the generated type is the SDL's own shape
 * (string ids). What flows at run time is the service's view, whose integer ids graphql-js writes
 * as IDs. This stands in for the mapper.
 */
type TaxSettingsParent = ResolversParentTypes["TaxSettings"];
function asTaxSettings(settings: TaxSettingsView): TaxSettingsParent;
function asTaxSettings(settings: TaxSettingsView | null): TaxSettingsParent | null;
function asTaxSettings(settings: TaxSettingsView | null) {
  return settings as unknown as TaxSettingsParent | null;
}

export const taxSettingsResolvers: Resolvers = {
  Query: {
    taxSettings: async (_parent, _args, ctx) => (await listTaxSettings(ctx)).map((s) => asTaxSettings(s)),
    portfolioTaxSettings: async (_parent, args, ctx) => asTaxSettings(await findTaxSettings(ctx, args.portfolioId)),
  },
  Mutation: {
    updateTaxSettings: async (_parent, args, ctx) => asTaxSettings(await updateTaxSettings(ctx, args.portfolioId, args.input)),
  },
};
