import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { ApiKeyResponse, CreateApiKeyInput, NewApiKeyResponse } from "./api-keys.schemas";
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "./api-keys.service";

/** Keys are the account's to manage: a client login key answers 403. */
const route = routeTable({ tag: "API keys", errors: [403] });

export const apiKeyRoutes: Endpoint[] = [
  route.get("/api-keys", listApiKeys, "List the account's API keys", {
    description:
      "Every key of the account, its clients' login keys included, oldest first, without the keys themselves (only their SHA-256 is stored). `current` marks the key that made the request.",
    response: z.array(ApiKeyResponse),
  }),
  route.post("/api-keys", createApiKey, "Create an API key", {
    description: "A new key that acts as the account. The key is shown only in this answer.",
    body: CreateApiKeyInput,
    response: NewApiKeyResponse,
    status: 201,
    secretAnswer: true,
  }),
  route.delete("/api-keys/:keyId", revokeApiKey, "Revoke an API key", {
    description:
      "The key answers 401 from its next request on. The account's last account key cannot be revoked (409): create another first, or rotate it.",
  }),
  route.post("/api-keys/:keyId/rotate", rotateApiKey, "Rotate an API key", {
    description:
      "Replaces the key with a new one of the same name, kind and client, in one transaction: the old key answers 401 from then on. The new key has a new id and is shown only in this answer.",
    response: NewApiKeyResponse,
    status: 201,
    secretAnswer: true,
  }),
];
