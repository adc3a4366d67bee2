import type { Resolvers } from "../../../generated/graphql/resolvers";

export const clientResolvers: Resolvers = {};
