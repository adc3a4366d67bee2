import type { Resolvers } from "../../../generated/graphql/resolvers";
import {
  assignClientPortfolios,
  createClient,
  createClientApiKey,
  deleteClient,
  findClient,
  listClients,
  revokeClientApiKeys,
  updateClient,
} from "./clients.service";

export const clientResolvers: Resolvers = {
  Query: {
    clients: (_parent, _args, ctx) => listClients(ctx),
    client: (_parent, args, ctx) => findClient(ctx, args.id),
  },
  Mutation: {
    createClient: (_parent, args, ctx) => createClient(ctx, args.input),
    updateClient: (_parent, args, ctx) => updateClient(ctx, args.id, args.input),
    deleteClient: (_parent, args, ctx) => deleteClient(ctx, args.id),
    assignClientPortfolios: (_parent, args, ctx) =>
      assignClientPortfolios(ctx, args.id, { portfolioIds: args.portfolioIds, permission: args.permission }),
    createClientApiKey: async (_parent, args, ctx) => (await createClientApiKey(ctx, args.id)).key,
    revokeClientApiKeys: (_parent, args, ctx) => revokeClientApiKeys(ctx, args.id),
  },
};
