/**
 * API keys over REST and GraphQL (README: Managing API keys): the `Transport` adapters and the
 * shapes both transports are normalised to. Importing it registers no hook: a suite hands its app
 * over, `apiKeysApi(t)`.
 */
import { gqlOutcome, restCall, type Outcome } from "../support/outcomes";
import type { TestApp } from "../support/app";

export interface ApiKey {
  id: number;
  name: string | null;
  kind: "Account" | "Client";
  clientId: number | null;
  createdAt: string;
  current: boolean;
}

export type NewApiKey = ApiKey & { key: string };

export interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<ApiKey[]>>;
  create(key: string, input: unknown): Promise<Outcome<NewApiKey>>;
  revoke(key: string, id: unknown): Promise<Outcome<boolean>>;
  rotate(key: string, id: unknown): Promise<Outcome<NewApiKey>>;
}

const FIELDS = "id name kind clientId createdAt current";

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
const fromGraphQL = <T extends ApiKey>(k: T): T => {
  expect(String(k.id)).toMatch(/^\d+$/);
  if (k.clientId !== null) expect(String(k.clientId)).toMatch(/^\d+$/);
  return { ...k, id: Number(k.id), clientId: k.clientId === null ? null : Number(k.clientId) };
};

/** The transports over the suite's app (read inside tests only). */
export function apiKeysApi(t: TestApp) {
  const rest: Transport = {
    name: "REST",
    list: async (k) => restCall(await t.http.get("/v1/api-keys").set("authorization", k), 200),
    create: async (k, input) =>
      restCall(
        await t.http
          .post("/v1/api-keys")
          .set("authorization", k)
          .send(input as object),
        201,
      ),
    revoke: async (k, id) => restCall(await t.http.delete(`/v1/api-keys/${id}`).set("authorization", k), 204),
    rotate: async (k, id) => restCall(await t.http.post(`/v1/api-keys/${id}/rotate`).set("authorization", k), 201),
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: async (k) =>
      gqlOutcome(await t.gql(k, `{ apiKeys { ${FIELDS} } }`), "apiKeys", (ks: ApiKey[]) => ks.map(fromGraphQL)),
    create: async (k, input) =>
      gqlOutcome(
        await t.gql(k, `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { key ${FIELDS} } }`, {
          input,
        }),
        "createApiKey",
        (n: NewApiKey) => fromGraphQL(n),
      ),
    revoke: async (k, id) =>
      gqlOutcome(await t.gql(k, `mutation ($id: ID!) { revokeApiKey(id: $id) }`, { id: String(id) }), "revokeApiKey"),
    rotate: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { rotateApiKey(id: $id) { key ${FIELDS} } }`, { id: String(id) }),
        "rotateApiKey",
        (n: NewApiKey) => fromGraphQL(n),
      ),
  };

  /**
   * The status a key answers on a plain read: 200 while it works, 401 once revoked. Tried at once:
   * the process that made a change knows it before it answers, without waiting for the notification.
   */
  const statusOf = async (k: string) => (await t.http.get("/v1/portfolios").set("authorization", k)).status;

  return { rest, graphql, statusOf };
}
