/**
 * The portfolios API over REST and GraphQL, for the test/api/portfolios-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = portfoliosApi(t)`.
 */
import type request from "supertest";
import type { TestApp } from "../support/app";
import { gqlOutcome, restCall, withApp, type Outcome } from "../support/outcomes";

/**
 * Portfolios (docs/conventions.md §4.4–4.5, §9 GraphQL): every rule is exercised over
 * REST and over GraphQL on the same scenarios, through one small transport interface, so the two
 * adapters are proven to share the service's behaviour. Transport-specific details (status codes,
 * problem+json, GraphQL nullability) are checked beside them.
 */

export interface Portfolio {
  id: number;
  name: string;
  dateCreated: string;
  baseCurrencyCode: string;
  taxResidency: string;
  entityType: string;
  financialYearEnd: string;
}

export interface Transport {
  name: "REST" | "GraphQL";
  create(key: string, input: unknown): Promise<Outcome<Portfolio>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Portfolio>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  list(key: string): Promise<Outcome<Portfolio[]>>;
  /** REST: GET /v1/portfolios/{id} (404 when absent); GraphQL: portfolio(id) (null when absent). */
  get(key: string, id: unknown): Promise<Outcome<Portfolio | null>>;
}

export const FIELDS = "id name dateCreated baseCurrencyCode taxResidency entityType financialYearEnd";
export const PORTFOLIO_KEYS = [
  "baseCurrencyCode",
  "dateCreated",
  "entityType",
  "financialYearEnd",
  "id",
  "name",
  "taxResidency",
];

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
export const fromGraphQL = (p: (Omit<Portfolio, "id"> & { id: string }) | null): Portfolio | null => {
  if (!p) return null;
  expect(p.id).toMatch(/^\d+$/);
  return { ...p, id: Number(p.id) };
};

export async function created(tr: Transport, k: string, input: Record<string, unknown>): Promise<Portfolio> {
  const o = await tr.create(k, input);
  expect(o.code).toBeUndefined();
  return o.data!;
}

/** Field values that the service must reject, with the path it must name. */
export const BAD_FIELDS: [string, Record<string, unknown>, string][] = [
  ["an empty name", { name: "" }, "name"],
  ["a blank name", { name: "   " }, "name"],
  ["a 201-character name", { name: "x".repeat(201) }, "name"],
  // PostgreSQL text cannot hold U+0000: it must be refused as input, not fail in the database (500).
  ["a name with a NUL character", { name: "a\u0000b" }, "name"],
  ['baseCurrencyCode "aud" (lower case)', { baseCurrencyCode: "aud" }, "baseCurrencyCode"],
  ['baseCurrencyCode "XYZ" (not ISO 4217)', { baseCurrencyCode: "XYZ" }, "baseCurrencyCode"],
  ['baseCurrencyCode "AUDD"', { baseCurrencyCode: "AUDD" }, "baseCurrencyCode"],
  ['taxResidency "XX" (not ISO 3166)', { taxResidency: "XX" }, "taxResidency"],
  ['taxResidency "aus"', { taxResidency: "aus" }, "taxResidency"],
  ['financialYearEnd "13-01"', { financialYearEnd: "13-01" }, "financialYearEnd"],
  ['financialYearEnd "02-30"', { financialYearEnd: "02-30" }, "financialYearEnd"],
  ['financialYearEnd "6/30"', { financialYearEnd: "6/30" }, "financialYearEnd"],
];

/** Both transports and the row count over the suite's app (read inside tests only). */
export function portfoliosApi(t: TestApp) {
  const { count } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    create: async (k, input) =>
      restCall(
        await t.http
          .post("/v1/portfolios")
          .set("authorization", k)
          .send(input as object),
        201,
      ),
    update: async (k, id, input) =>
      restCall(
        await t.http
          .put(`/v1/portfolios/${id}`)
          .set("authorization", k)
          .send(input as object),
        200,
      ),
    remove: async (k, id) => restCall(await t.http.delete(`/v1/portfolios/${id}`).set("authorization", k), 204),
    list: async (k) => restCall(await t.http.get("/v1/portfolios").set("authorization", k), 200),
    get: async (k, id) => restCall(await t.http.get(`/v1/portfolios/${id}`).set("authorization", k), 200),
  };

  const graphql: Transport = {
    name: "GraphQL",
    create: async (k, input) =>
      gqlOutcome(
        await t.gql(k, `mutation ($input: CreatePortfolioInput!) { createPortfolio(input: $input) { ${FIELDS} } }`, {
          input,
        }),
        "createPortfolio",
        (p: never) => fromGraphQL(p)!,
      ),
    update: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdatePortfolioInput!) { updatePortfolio(id: $id, input: $input) { ${FIELDS} } }`,
          { id: String(id), input },
        ),
        "updatePortfolio",
        (p: never) => fromGraphQL(p)!,
      ),
    remove: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { deletePortfolio(id: $id) }`, { id: String(id) }),
        "deletePortfolio",
      ),
    list: async (k) =>
      gqlOutcome(
        await t.gql(k, `{ portfolios { ${FIELDS} } }`),
        "portfolios",
        (ps: (Omit<Portfolio, "id"> & { id: string })[]) => ps.map((p) => fromGraphQL(p)!),
      ),
    get: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { portfolio(id: $id) { ${FIELDS} } }`, { id: String(id) }),
        "portfolio",
        fromGraphQL,
      ),
  };

  async function restGet(k: string, id: number): Promise<request.Response> {
    return t.http.get(`/v1/portfolios/${id}`).set("authorization", k);
  }
  return { count, rest, graphql, restGet };
}
