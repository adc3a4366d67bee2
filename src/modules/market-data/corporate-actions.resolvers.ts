import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { applyCorporateAction, dismissCorporateAction, listCorporateActions } from "./corporate-actions.service";

export const corporateActionResolvers: Resolvers = {
  Query: {
    corporateActions: (_parent, { portfolioId, ...query }, ctx) =>
      listCorporateActions(ctx, portfolioId, dropNulls(query)),
  },
  Mutation: {
    applyCorporateAction: (_parent, args, ctx) => applyCorporateAction(ctx, args.id),
    dismissCorporateAction: (_parent, args, ctx) => dismissCorporateAction(ctx, args.id),
  },
};
