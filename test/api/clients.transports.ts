/**
 * Clients over REST and GraphQL (docs/conventions.md §2.4): the `Transport` adapters, the shapes both
 * transports are normalised to and the bad inputs the clients.*.test.ts stories share. Importing it
 * registers no hook: a suite hands its app over, `clientsApi(t)`.
 */
import { gqlOutcome, restCall, withApp, type Outcome } from "../support/outcomes";
import type { TestApp } from "../support/app";

export interface Client {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  permission: "Read" | "ReadWrite";
}

export interface Portfolio {
  id: number;
  name: string;
  [field: string]: unknown;
}

export interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<Client[]>>;
  /** REST: 404 when absent; GraphQL: client(id) is null. */
  get(key: string, id: unknown): Promise<Outcome<Client | null>>;
  create(key: string, input: unknown): Promise<Outcome<Client>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Client>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  /** REST: GET /v1/clients/{id}/portfolios; GraphQL: client(id) { portfolios } (null when absent). */
  portfolios(key: string, id: unknown): Promise<Outcome<Portfolio[] | null>>;
  assign(
    key: string,
    id: unknown,
    body: { portfolioIds: unknown[]; permission?: string },
  ): Promise<Outcome<Portfolio[]>>;
  createKey(key: string, id: unknown): Promise<Outcome<string>>;
  revokeKeys(key: string, id: unknown): Promise<Outcome<boolean>>;
}

export const CLIENT_FIELDS = "id firstName lastName email permission";
export const PORTFOLIO_FIELDS = "id name dateCreated baseCurrencyCode taxResidency entityType financialYearEnd";

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
export const numericId = <T extends { id: unknown }>(v: T): T & { id: number } => {
  expect(String(v.id)).toMatch(/^\d+$/);
  return { ...v, id: Number(v.id) };
};

export const fromGraphQL = (c: Client | null) => (c ? numericId(c) : null);

/** A client created over the transport, which must succeed. */
export async function created(tr: Transport, k: string, input: Record<string, unknown>): Promise<Client> {
  const o = await tr.create(k, input);
  expect(o.code).toBeUndefined();
  return o.data!;
}

/** The transports over the suite's app (read inside tests only). */
export function clientsApi(t: TestApp) {
  const { count } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    list: async (k) => restCall(await t.http.get("/v1/clients").set("authorization", k), 200),
    get: async (k, id) => restCall(await t.http.get(`/v1/clients/${id}`).set("authorization", k), 200),
    create: async (k, input) =>
      restCall(
        await t.http
          .post("/v1/clients")
          .set("authorization", k)
          .send(input as object),
        201,
      ),
    update: async (k, id, input) =>
      restCall(
        await t.http
          .put(`/v1/clients/${id}`)
          .set("authorization", k)
          .send(input as object),
        200,
      ),
    remove: async (k, id) => restCall(await t.http.delete(`/v1/clients/${id}`).set("authorization", k), 204),
    portfolios: async (k, id) =>
      restCall(await t.http.get(`/v1/clients/${id}/portfolios`).set("authorization", k), 200),
    assign: async (k, id, body) =>
      restCall(await t.http.put(`/v1/clients/${id}/portfolios`).set("authorization", k).send(body), 200),
    createKey: async (k, id) => {
      const res = await t.http.post(`/v1/clients/${id}/api-keys`).set("authorization", k);
      if (res.status === 201) expect(Object.keys(res.body)).toEqual(["key"]);
      return restCall(res, 201, (b: { key: string }) => b.key);
    },
    revokeKeys: async (k, id) =>
      restCall(await t.http.delete(`/v1/clients/${id}/api-keys`).set("authorization", k), 204),
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: async (k) =>
      gqlOutcome(await t.gql(k, `{ clients { ${CLIENT_FIELDS} } }`), "clients", (cs: Client[]) =>
        cs.map((c) => fromGraphQL(c)!),
      ),
    get: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { client(id: $id) { ${CLIENT_FIELDS} } }`, { id: String(id) }),
        "client",
        fromGraphQL,
      ),
    create: async (k, input) =>
      gqlOutcome(
        await t.gql(k, `mutation ($input: CreateClientInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`, {
          input,
        }),
        "createClient",
        (c: Client) => fromGraphQL(c)!,
      ),
    update: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdateClientInput!) { updateClient(id: $id, input: $input) { ${CLIENT_FIELDS} } }`,
          { id: String(id), input },
        ),
        "updateClient",
        (c: Client) => fromGraphQL(c)!,
      ),
    remove: async (k, id) =>
      gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteClient(id: $id) }`, { id: String(id) }), "deleteClient"),
    portfolios: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { client(id: $id) { portfolios { ${PORTFOLIO_FIELDS} } } }`, {
          id: String(id),
        }),
        "client",
        (c: { portfolios: Portfolio[] } | null) => (c ? c.portfolios.map(numericId) : null),
      ),
    assign: async (k, id, body) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $ids: [ID!]!, $permission: Permission) { assignClientPortfolios(id: $id, portfolioIds: $ids, permission: $permission) { ${PORTFOLIO_FIELDS} } }`,
          {
            id: String(id),
            ids: body.portfolioIds.map(String),
            permission: body.permission,
          },
        ),
        "assignClientPortfolios",
        (ps: Portfolio[]) => ps.map(numericId),
      ),
    createKey: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { createClientApiKey(id: $id) }`, { id: String(id) }),
        "createClientApiKey",
      ),
    revokeKeys: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { revokeClientApiKeys(id: $id) }`, { id: String(id) }),
        "revokeClientApiKeys",
      ),
  };

  async function portfolioClient(id: number): Promise<number | null> {
    const [row] = await t.db.sql<{ client_id: number | null }>(`SELECT client_id FROM portfolio WHERE id = $1`, [id]);
    return row.client_id === null ? null : Number(row.client_id);
  }
  return { count, rest, graphql, portfolioClient };
}
