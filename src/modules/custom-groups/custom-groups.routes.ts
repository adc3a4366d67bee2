import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import {
  CreateCustomGroupInput,
  CustomGroupAssignmentResponse,
  CustomGroupResponse,
  SetCustomGroupAssignmentsInput,
  UpdateCustomGroupInput,
  UpdateCustomGroupBody,
} from "./custom-groups.schemas";
import {
  createCustomGroup,
  deleteCustomGroup,
  getCustomGroup,
  listCustomGroupAssignments,
  listCustomGroups,
  setCustomGroupAssignments,
  updateCustomGroup,
} from "./custom-groups.service";

const tag = "CustomGroups";

export const customGroupRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/custom-groups",
    operationId: "listCustomGroups",
    tag,
    summary: "List custom groups",
    response: z.array(CustomGroupResponse),
    handler: (ctx) => listCustomGroups(ctx),
  },
  {
    method: "post",
    path: "/custom-groups",
    operationId: "createCustomGroup",
    tag,
    summary: "Create a custom group",
    description: "The name is unique in the account (409 otherwise).",
    body: CreateCustomGroupInput,
    response: CustomGroupResponse,
    status: 201,
    location: (c) => `/custom-groups/${c.id}`,
    errors: [403, 409],
    handler: (ctx, req) => createCustomGroup(ctx, req.body),
  },
  {
    method: "get",
    path: "/custom-groups/:groupId",
    operationId: "getCustomGroup",
    tag,
    summary: "Get a custom group",
    response: CustomGroupResponse,
    handler: (ctx, req) => getCustomGroup(ctx, req.params.groupId),
  },
  {
    method: "put",
    path: "/custom-groups/:groupId",
    operationId: "updateCustomGroup",
    tag,
    summary: "Update a custom group",
    description:
      "Renames the group or replaces its labels. A label still assigned to a holding cannot be removed (422).",
    body: UpdateCustomGroupBody,
    response: CustomGroupResponse,
    errors: [403, 409, 422],
    handler: (ctx, req) => updateCustomGroup(ctx, req.params.groupId, req.body),
  },
  {
    method: "delete",
    path: "/custom-groups/:groupId",
    operationId: "deleteCustomGroup",
    tag,
    summary: "Delete a custom group with its assignments",
    status: 204,
    errors: [403],
    handler: (ctx, req) => deleteCustomGroup(ctx, req.params.groupId),
  },
  {
    method: "get",
    path: "/custom-groups/:groupId/assignments",
    operationId: "listCustomGroupAssignments",
    tag,
    summary: "List the labels the group gives holdings",
    response: z.array(CustomGroupAssignmentResponse),
    handler: (ctx, req) => listCustomGroupAssignments(ctx, req.params.groupId),
  },
  {
    method: "put",
    path: "/custom-groups/:groupId/assignments",
    operationId: "setCustomGroupAssignments",
    tag,
    summary: "Replace the labels the group gives holdings",
    description:
      "Each holding at most once, with one of the group's labels; holdings not listed lose their label. Every holding must be one of this account's (404 otherwise).",
    body: SetCustomGroupAssignmentsInput,
    response: z.array(CustomGroupAssignmentResponse),
    errors: [403],
    handler: (ctx, req) => setCustomGroupAssignments(ctx, req.params.groupId, req.body),
  },
];
