import { z } from "zod";
import { acceptingAnswerFields, crossField, idSchema, text, looseEnum } from "../../lib/validation";

export const PERMISSIONS = ["Read", "ReadWrite"] as const;
export const permission = looseEnum(PERMISSIONS);
export type Permission = z.infer<typeof permission>;

const name = text({ min: 1, max: 100 });
/** RFC 5321 caps a forward path at 254 characters; the column is VARCHAR(254). */
const email = z.email("must be an email address, such as ana@example.com").max(254, "must be at most 254 characters");

export const CreateClientInput = z
  .strictObject({
    firstName: name,
    lastName: name,
    email: email.nullish(),
    permission: permission.default("Read").describe("What the client's login keys may do with its portfolios"),
  })
  .meta({ id: "CreateClientInput" });
export type CreateClientInput = z.output<typeof CreateClientInput>;

/** Fields absent stay as they are; `email: null` removes the address. */
export const UpdateClientInput = z
  .strictObject({
    firstName: name.optional(),
    lastName: name.optional(),
    email: email.nullish(),
    permission: permission.optional(),
  })
  .meta({ id: "UpdateClientInput" });
export type UpdateClientInput = z.output<typeof UpdateClientInput>;

export const AssignClientPortfoliosInput = z
  .strictObject({
    portfolioIds: z
      .array(idSchema)
      .max(10_000, "must hold at most 10000 ids")
      .describe("Every portfolio the client is to have; those it has and are not listed are unassigned"),
    permission: permission.nullish().describe("The client's new permission; absent leaves it as it is"),
  })
  .check(
    crossField((input, ctx, valid) => {
      if (!Array.isArray(input.portfolioIds)) return;
      const seen = new Map<number, number>();
      input.portfolioIds.forEach((id, i) => {
        if (!valid("portfolioIds", i)) return;
        const first = seen.get(id);
        if (first !== undefined)
          ctx.addIssue({ code: "custom", path: ["portfolioIds", i], message: `duplicates portfolioIds[${first}]` });
        else seen.set(id, i);
      });
    }),
  )
  .meta({ id: "AssignClientPortfoliosInput" });
export type AssignClientPortfoliosInput = z.output<typeof AssignClientPortfoliosInput>;

export const ClientResponse = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    permission,
  })
  .meta({ id: "Client" });

export const ClientApiKeyResponse = z
  .object({ key: z.string().describe("The login key, shown only now: only its SHA-256 is stored") })
  .meta({ id: "ClientApiKey" });

/** The update body: UpdateClientInput, plus the read-only fields of a GET answer, accepted and ignored. */
export const UpdateClientBody = acceptingAnswerFields(UpdateClientInput, ClientResponse);
