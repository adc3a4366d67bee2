import type { Resolvers } from "../../../generated/graphql/resolvers";
import { searchSecurities } from "./securities.service";

export const securityResolvers: Resolvers = {
  Query: {
    searchSecurities: (_parent, args, ctx) => searchSecurities(ctx, args),
  },
};
