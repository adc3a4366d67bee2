import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import {
  CreateCustomGroupInput,
  CustomGroupAssignmentResponse,
  CustomGroupResponse,
  SetCustomGroupAssignmentsInput,
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

const route = routeTable({ tag: "CustomGroups" });

export const customGroupRoutes: Endpoint[] = [
  route.get("/custom-groups", listCustomGroups, "List custom groups", { response: z.array(CustomGroupResponse) }),
  route.create("/custom-groups", createCustomGroup, "Create a custom group", {
    description: "The name is unique in the account (409 otherwise).",
    body: CreateCustomGroupInput,
    response: CustomGroupResponse,
  }),
  route.get("/custom-groups/:groupId", getCustomGroup, "Get a custom group", { response: CustomGroupResponse }),
  route.put("/custom-groups/:groupId", updateCustomGroup, "Update a custom group", {
    description:
      "Renames the group or replaces its labels. A label still assigned to a holding cannot be removed (422).",
    body: UpdateCustomGroupBody,
    response: CustomGroupResponse,
    errors: [422],
  }),
  route.delete("/custom-groups/:groupId", deleteCustomGroup, "Delete a custom group with its assignments"),
  route.get(
    "/custom-groups/:groupId/assignments",
    listCustomGroupAssignments,
    "List the labels the group gives holdings",
    { response: z.array(CustomGroupAssignmentResponse) },
  ),
  route.put(
    "/custom-groups/:groupId/assignments",
    setCustomGroupAssignments,
    "Replace the labels the group gives holdings",
    {
      description:
        "Each holding at most once, with one of the group's labels; holdings not listed lose their label. Every holding must be one of this account's (404 otherwise).",
      body: SetCustomGroupAssignmentsInput,
      response: z.array(CustomGroupAssignmentResponse),
    },
  ),
];
