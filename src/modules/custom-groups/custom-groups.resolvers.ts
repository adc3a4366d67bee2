import DataLoader from "dataloader";
import type { ResolversParentTypes, Resolvers } from "../../../generated/graphql/resolvers";
import type { Context } from "../../context";
import {
  assignmentsByGroupIds,
  createCustomGroup,
  deleteCustomGroup,
  findCustomGroup,
  listCustomGroups,
  setCustomGroupAssignments,
  updateCustomGroup,
  type CustomGroupAssignmentView,
  type CustomGroupView,
} from "./custom-groups.service";

/**
 * codegen.ts maps no service view onto CustomGroup, so the generated types are the SDL's own
 * shape (string ids, an assignments list). What flows at run time is the service's view:
 * graphql-js writes integer ids as IDs, and CustomGroup.assignments loads the list. These stand in
 * for the mappers.
 */
type GroupParent = ResolversParentTypes["CustomGroup"];
type AssignmentParent = ResolversParentTypes["CustomGroupAssignment"];
function asGroup(group: CustomGroupView): GroupParent;
function asGroup(group: CustomGroupView | null): GroupParent | null;
function asGroup(group: CustomGroupView | null) {
  return group as unknown as GroupParent | null;
}
const asAssignments = (assignments: CustomGroupAssignmentView[]) => assignments as unknown as AssignmentParent[];

/** One loader per request (keyed on its context), batching CustomGroup.assignments into one query. */
const assignmentLoaders = new WeakMap<Context, DataLoader<number, CustomGroupAssignmentView[]>>();
function assignmentsOfGroup(ctx: Context): DataLoader<number, CustomGroupAssignmentView[]> {
  let loader = assignmentLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const byGroup = await assignmentsByGroupIds(ctx, ids);
      return ids.map((id) => byGroup.get(id) ?? []);
    });
    assignmentLoaders.set(ctx, loader);
  }
  return loader;
}

export const customGroupResolvers: Resolvers = {
  Query: {
    customGroups: async (_parent, _args, ctx) => (await listCustomGroups(ctx)).map((g) => asGroup(g)),
    customGroup: async (_parent, args, ctx) => asGroup(await findCustomGroup(ctx, args.id)),
  },
  Mutation: {
    createCustomGroup: async (_parent, args, ctx) => asGroup(await createCustomGroup(ctx, args.input)),
    updateCustomGroup: async (_parent, args, ctx) => asGroup(await updateCustomGroup(ctx, args.id, args.input)),
    deleteCustomGroup: (_parent, args, ctx) => deleteCustomGroup(ctx, args.id),
    setCustomGroupAssignments: async (_parent, args, ctx) => asAssignments(await setCustomGroupAssignments(ctx, args.id, args.assignments)),
  },
  CustomGroup: {
    assignments: async (group, _args, ctx) => asAssignments(await assignmentsOfGroup(ctx).load(Number(group.id))),
  },
};
