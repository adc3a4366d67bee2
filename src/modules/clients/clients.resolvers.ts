import DataLoader from "dataloader";
import type { ResolversParentTypes, Resolvers } from "../../../generated/graphql/resolvers";
import type { Context } from "../../context";
import type { PortfolioView } from "../portfolios/portfolios.service";
import {
  assignClientPortfolios,
  createClient,
  createClientApiKey,
  deleteClient,
  findClient,
  listClients,
  portfoliosByClientIds,
  revokeClientApiKeys,
  updateClient,
  type ClientView,
} from "./clients.service";

/**
 * codegen.ts maps no service view onto Client, so the generated parent type is the SDL's own
 * shape (a string id, a portfolios list). What flows at run time is the service's ClientView:
 * graphql-js writes its integer id as an ID, and Client.portfolios loads the list. This stands in
 * for the mapper.
 */
type ClientParent = ResolversParentTypes["Client"];
function asClient(client: ClientView): ClientParent;
function asClient(client: ClientView | null): ClientParent | null;
function asClient(client: ClientView | null) {
  return client as unknown as ClientParent | null;
}

/** One loader per request (keyed on its context), batching Client.portfolios into one query. */
const portfolioLoaders = new WeakMap<Context, DataLoader<number, PortfolioView[]>>();
function portfoliosOfClient(ctx: Context): DataLoader<number, PortfolioView[]> {
  let loader = portfolioLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const byClient = await portfoliosByClientIds(ctx, ids);
      return ids.map((id) => byClient.get(id) ?? []);
    });
    portfolioLoaders.set(ctx, loader);
  }
  return loader;
}

export const clientResolvers: Resolvers = {
  Query: {
    clients: async (_parent, _args, ctx) => (await listClients(ctx)).map((c) => asClient(c)),
    client: async (_parent, args, ctx) => asClient(await findClient(ctx, args.id)),
  },
  Mutation: {
    createClient: async (_parent, args, ctx) => asClient(await createClient(ctx, args.input)),
    updateClient: async (_parent, args, ctx) => asClient(await updateClient(ctx, args.id, args.input)),
    deleteClient: (_parent, args, ctx) => deleteClient(ctx, args.id),
    assignClientPortfolios: (_parent, args, ctx) => assignClientPortfolios(ctx, args.id, { portfolioIds: args.portfolioIds, permission: args.permission }),
    createClientApiKey: async (_parent, args, ctx) => (await createClientApiKey(ctx, args.id)).key,
    revokeClientApiKeys: (_parent, args, ctx) => revokeClientApiKeys(ctx, args.id),
  },
  Client: {
    portfolios: (client, _args, ctx) => portfoliosOfClient(ctx).load(Number(client.id)),
  },
};
