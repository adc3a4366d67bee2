import { z } from "zod";
import { acceptingAnswerFields, crossField, idSchema, text } from "../../lib/validation";

const name = text({ min: 1, max: 200 });

/**
 * 1 to 200 labels, distinct ignoring case: an allocation model along `customGroup:{id}` buckets
 * holdings by these labels, and its bucket labels are unique ignoring case.
 */
const labels = z
  .array(text({ min: 1, max: 200 }))
  .min(1, "must hold at least 1 label")
  .max(200, "must hold at most 200 labels")
  .check(
    crossField((list, ctx, valid) => {
      const seen = new Map<string, number>();
      list.forEach((label, i) => {
        if (!valid(i) || typeof label !== "string") return;
        const key = label.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [i],
            message: `duplicates labels[${first}] (labels are unique in a group, ignoring case)`,
          });
        else seen.set(key, i);
      });
    }),
  );

export const CreateCustomGroupInput = z
  .strictObject({
    name: name.describe("Unique in the account"),
    labels,
  })
  .meta({ id: "CreateCustomGroupInput" });
export type CreateCustomGroupInput = z.output<typeof CreateCustomGroupInput>;

/** Fields absent stay as they are. New labels replace the old; a label still assigned must stay (422). */
export const UpdateCustomGroupInput = z
  .strictObject({
    name: name.optional().describe("Unique in the account"),
    labels: labels.optional(),
  })
  .meta({ id: "UpdateCustomGroupInput" });
export type UpdateCustomGroupInput = z.output<typeof UpdateCustomGroupInput>;

export const CustomGroupAssignmentInput = z
  .strictObject({
    holdingId: idSchema.describe("A holding of this account"),
    label: text({ min: 1, max: 200 }).describe("One of the group's labels"),
  })
  .meta({ id: "CustomGroupAssignmentInput" });

/** The whole set of a group's assignments: each holding at most once. */
export const SetCustomGroupAssignmentsInput = z
  .array(CustomGroupAssignmentInput)
  .max(10_000, "must hold at most 10000 assignments")
  .check(
    crossField((list, ctx, valid) => {
      const seen = new Map<number, number>();
      list.forEach((a, i) => {
        if (!valid(i, "holdingId") || typeof a?.holdingId !== "number") return;
        const first = seen.get(a.holdingId);
        if (first !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [i, "holdingId"],
            message: `duplicates [${first}].holdingId (a holding carries one label of a group)`,
          });
        else seen.set(a.holdingId, i);
      });
    }),
  )
  .meta({ id: "CustomGroupAssignmentsInput" });
export type SetCustomGroupAssignmentsInput = z.output<typeof SetCustomGroupAssignmentsInput>;

export const CustomGroupResponse = z
  .object({ id: z.number().int(), name: z.string(), labels: z.array(z.string()) })
  .meta({ id: "CustomGroup" });

export const CustomGroupAssignmentResponse = z
  .object({ holdingId: z.number().int(), label: z.string() })
  .meta({ id: "CustomGroupAssignment" });

/** The update body: UpdateCustomGroupInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateCustomGroupBody = acceptingAnswerFields(UpdateCustomGroupInput, CustomGroupResponse);
