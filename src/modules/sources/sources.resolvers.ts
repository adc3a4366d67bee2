import type { Resolvers } from "../../../generated/graphql/resolvers";
import { listSources } from "./sources.service";

export const sourceResolvers: Resolvers = {
  Query: {
    sources: (_parent, _args, ctx) => listSources(ctx),
  },
};
