import type { Resolvers } from "../../../generated/graphql/resolvers";
import {
  createCustomGroup,
  deleteCustomGroup,
  findCustomGroup,
  listCustomGroups,
  setCustomGroupAssignments,
  updateCustomGroup,
} from "./custom-groups.service";

export const customGroupResolvers: Resolvers = {
  Query: {
    customGroups: (_parent, _args, ctx) => listCustomGroups(ctx),
    customGroup: (_parent, args, ctx) => findCustomGroup(ctx, args.id),
  },
  Mutation: {
    createCustomGroup: (_parent, args, ctx) => createCustomGroup(ctx, args.input),
    updateCustomGroup: (_parent, args, ctx) => updateCustomGroup(ctx, args.id, args.input),
    deleteCustomGroup: (_parent, args, ctx) => deleteCustomGroup(ctx, args.id),
    setCustomGroupAssignments: (_parent, args, ctx) => setCustomGroupAssignments(ctx, args.id, args.assignments),
  },
  CustomGroup: {
    assignments: (group, _args, ctx) => ctx.loaders.assignmentsByGroupId.load(group.id),
  },
};
