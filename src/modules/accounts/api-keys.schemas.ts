import { z } from "zod";
import { text } from "../../lib/validation";

/** An account key acts as the account; a client login key acts as one client (docs/conventions.md §2.4). */
export const API_KEY_KINDS = ["Account", "Client"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const CreateApiKeyInput = z
  .strictObject({
    // One line: the keys CLI lists a key per line, its fields separated by tabs.
    name: text({ min: 1, max: 200 })
      .regex(/^[^\t\n\r]*$/, "must be one line, without tabs")
      .describe("What the key is for (a server, a script, a person), 1 to 200 characters; shown when keys are listed"),
  })
  .meta({ id: "CreateApiKeyInput" });
export type CreateApiKeyInput = z.output<typeof CreateApiKeyInput>;

const apiKeyFields = {
  id: z.number().int().describe("The key's id: what revoking or rotating it names"),
  name: z.string().nullable().describe("What the key is for; null for a key made without one"),
  kind: z.enum(API_KEY_KINDS).describe("Account: acts as the account; Client: a client's login key"),
  clientId: z.number().int().nullable().describe("The client a Client key acts as; null for an Account key"),
  createdAt: z.iso.datetime().describe("When the key was made (a rotated key: when it was rotated)"),
  current: z.boolean().describe("True for the key that made this request"),
};

export const ApiKeyResponse = z.object(apiKeyFields).meta({ id: "ApiKey" });

export const NewApiKeyResponse = z
  .object({
    key: z.string().describe("The key itself, shown only now: only its SHA-256 is stored"),
    ...apiKeyFields,
  })
  .meta({ id: "NewApiKey" });
