import type { Resolvers } from "../../../generated/graphql/resolvers";
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "./api-keys.service";

export const apiKeyResolvers: Resolvers = {
  Query: {
    apiKeys: (_parent, _args, ctx) => listApiKeys(ctx),
  },
  Mutation: {
    createApiKey: (_parent, args, ctx) => createApiKey(ctx, args.input),
    revokeApiKey: (_parent, args, ctx) => revokeApiKey(ctx, args.id),
    rotateApiKey: (_parent, args, ctx) => rotateApiKey(ctx, args.id),
  },
};
