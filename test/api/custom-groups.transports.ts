/**
 * Custom groups over REST and GraphQL (docs/conventions.md §2.4): the `Transport` adapters, the
 * shapes both transports are normalised to and the bad inputs the custom-groups.*.test.ts stories
 * share. Importing it registers no hook: a suite hands its app over, `customGroupsApi(t)`.
 */
import { newCustomHolding } from "../factories";
import { gqlOutcome, restCall, type Outcome } from "../support/outcomes";
import type { TestApp } from "../support/app";

export interface Group {
  id: number;
  name: string;
  labels: string[];
}

export interface Assignment {
  holdingId: number;
  label: string;
}

export interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<Group[]>>;
  /** REST: 404 when absent; GraphQL: customGroup(id) is null. */
  get(key: string, id: unknown): Promise<Outcome<Group | null>>;
  create(key: string, input: unknown): Promise<Outcome<Group>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Group>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  /** REST: GET …/assignments (404 when absent); GraphQL: customGroup(id) { assignments } (null when absent). */
  assignments(key: string, id: unknown): Promise<Outcome<Assignment[] | null>>;
  assign(key: string, id: unknown, assignments: unknown[]): Promise<Outcome<Assignment[]>>;
}

export const FIELDS = "id name labels";

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
export const group = (g: Group | null) => {
  if (!g) return null;
  expect(String(g.id)).toMatch(/^\d+$/);
  return { ...g, id: Number(g.id) };
};
export const assignment = (a: Assignment) => {
  expect(String(a.holdingId)).toMatch(/^\d+$/);
  return { ...a, holdingId: Number(a.holdingId) };
};
/** GraphQL's ID accepts strings and integers; malformed values go through as strings. */
export const gqlId = (v: unknown) => (typeof v === "number" ? String(v) : v);

export const STRATEGY = { name: "Strategy", labels: ["Core", "Satellite"] };

/** A group created over the transport, which must succeed. */
export async function created(tr: Transport, k: string, input: Record<string, unknown> = STRATEGY): Promise<Group> {
  const o = await tr.create(k, input);
  expect(o.code).toBeUndefined();
  return o.data!;
}

/** The transports and the setup over the suite's app (inside tests only). */
export function customGroupsApi(t: TestApp) {
  /** A custom investment named "<symbol> fund" in the portfolio, over REST; returns its id. */
  const newHolding = (k: string, portfolioId: number, symbol: string) =>
    newCustomHolding(t, k, portfolioId, { symbol, name: `${symbol} fund` });

  const rest: Transport = {
    name: "REST",
    list: async (k) => restCall(await t.http.get("/v1/custom-groups").set("authorization", k), 200),
    get: async (k, id) => restCall(await t.http.get(`/v1/custom-groups/${id}`).set("authorization", k), 200),
    create: async (k, input) =>
      restCall(
        await t.http
          .post("/v1/custom-groups")
          .set("authorization", k)
          .send(input as object),
        201,
      ),
    update: async (k, id, input) =>
      restCall(
        await t.http
          .put(`/v1/custom-groups/${id}`)
          .set("authorization", k)
          .send(input as object),
        200,
      ),
    remove: async (k, id) => restCall(await t.http.delete(`/v1/custom-groups/${id}`).set("authorization", k), 204),
    assignments: async (k, id) =>
      restCall(await t.http.get(`/v1/custom-groups/${id}/assignments`).set("authorization", k), 200),
    assign: async (k, id, list) =>
      restCall(await t.http.put(`/v1/custom-groups/${id}/assignments`).set("authorization", k).send(list), 200),
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: async (k) =>
      gqlOutcome(await t.gql(k, `{ customGroups { ${FIELDS} } }`), "customGroups", (gs: Group[]) =>
        gs.map((g) => group(g)!),
      ),
    get: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { ${FIELDS} } }`, { id: String(id) }),
        "customGroup",
        group,
      ),
    create: async (k, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($input: CreateCustomGroupInput!) { createCustomGroup(input: $input) { ${FIELDS} } }`,
          {
            input,
          },
        ),
        "createCustomGroup",
        (g: Group) => group(g)!,
      ),
    update: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdateCustomGroupInput!) { updateCustomGroup(id: $id, input: $input) { ${FIELDS} } }`,
          { id: String(id), input },
        ),
        "updateCustomGroup",
        (g: Group) => group(g)!,
      ),
    remove: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { deleteCustomGroup(id: $id) }`, { id: String(id) }),
        "deleteCustomGroup",
      ),
    assignments: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { customGroup(id: $id) { assignments { holdingId label } } }`, {
          id: String(id),
        }),
        "customGroup",
        (g: { assignments: Assignment[] } | null) => (g ? g.assignments.map(assignment) : null),
      ),
    assign: async (k, id, list) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $list: [CustomGroupAssignmentInput!]!) { setCustomGroupAssignments(id: $id, assignments: $list) { holdingId label } }`,
          {
            id: String(id),
            list: (list as Record<string, unknown>[]).map((a) => ({ ...a, holdingId: gqlId(a.holdingId) })),
          },
        ),
        "setCustomGroupAssignments",
        (as: Assignment[]) => as.map(assignment),
      ),
  };
  return { newHolding, rest, graphql };
}
