/**
 * Tax settings over REST and GraphQL (docs/reports.md §5): the `Transport` adapters, the shape
 * both transports are normalised to, and the setup the tax-settings.*.test.ts stories share.
 * Importing it registers no hook: a suite hands its app over, `taxSettingsApi(t)`.
 */
import { newTrade } from "../factories";
import { gqlOutcome, restCall, type Outcome } from "../support/outcomes";
import type { TestApp } from "../support/app";

export interface TaxSettings {
  portfolioId: number;
  entityType: string;
  defaultMethod: string;
  yearMethods: { financialYear: number; method: string }[];
  holdingOverrides: { holdingId: number; financialYear: number; method: string }[];
  /** Amounts as decimal strings on both transports, for comparison. */
  carriedForwardLosses: { financialYear: number; amount: string }[];
}

export interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<TaxSettings[]>>;
  /** REST: 404 when absent; GraphQL: portfolioTaxSettings is null. */
  get(key: string, portfolioId: unknown): Promise<Outcome<TaxSettings | null>>;
  update(key: string, portfolioId: unknown, input: unknown): Promise<Outcome<TaxSettings>>;
}

export const FIELDS = `portfolioId entityType defaultMethod yearMethods { financialYear method }
  holdingOverrides { holdingId financialYear method } carriedForwardLosses { financialYear amount }`;

export type Wire = Omit<TaxSettings, "portfolioId" | "holdingOverrides" | "carriedForwardLosses"> & {
  portfolioId: number | string;
  holdingOverrides: { holdingId: number | string; financialYear: number; method: string }[];
  carriedForwardLosses: { financialYear: number; amount: number | string }[];
};

/** REST numbers and GraphQL strings (ids, Decimal) read as one shape. */
export function normalise(s: Wire | null): TaxSettings | null {
  if (!s) return null;
  expect(String(s.portfolioId)).toMatch(/^\d+$/);
  return {
    ...s,
    portfolioId: Number(s.portfolioId),
    holdingOverrides: s.holdingOverrides.map((o) => ({ ...o, holdingId: Number(o.holdingId) })),
    carriedForwardLosses: s.carriedForwardLosses.map((l) => ({ ...l, amount: String(l.amount) })),
  };
}

/** GraphQL's ID takes strings; Int and Decimal take what they are given. */
export function toGraphQLInput(input: Record<string, unknown>): Record<string, unknown> {
  const overrides = input.holdingOverrides as Record<string, unknown>[] | undefined;
  if (!Array.isArray(overrides)) return input;
  return {
    ...input,
    holdingOverrides: overrides.map((o) => ({
      ...o,
      holdingId: typeof o.holdingId === "number" ? String(o.holdingId) : o.holdingId,
    })),
  };
}

export const defaults = (portfolioId: number): TaxSettings => ({
  portfolioId,
  entityType: "Individual",
  defaultMethod: "FIFO",
  yearMethods: [],
  holdingOverrides: [],
  carriedForwardLosses: [],
});

/** The transports and the setup over the suite's app (inside tests only). */
export function taxSettingsApi(t: TestApp) {
  /** A trade over REST: 10 CBA on the ASX at $1 unless `body` says otherwise. */
  const trade = (k: string, body: Record<string, unknown>) =>
    newTrade(t, k, { symbol: "CBA", exchange: "ASX", quantity: 10, price: 1, ...body });

  const rest: Transport = {
    name: "REST",
    list: async (k) =>
      restCall(await t.http.get("/v1/tax-settings").set("authorization", k), 200, (ss: Wire[]) =>
        ss.map((s) => normalise(s)!),
      ),
    get: async (k, p) =>
      restCall(await t.http.get(`/v1/portfolios/${p}/tax-settings`).set("authorization", k), 200, (s: Wire) =>
        normalise(s),
      ),
    update: async (k, p, input) =>
      restCall(
        await t.http
          .put(`/v1/portfolios/${p}/tax-settings`)
          .set("authorization", k)
          .send(input as object),
        200,
        (s: Wire) => normalise(s)!,
      ),
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: async (k) =>
      gqlOutcome(await t.gql(k, `{ taxSettings { ${FIELDS} } }`), "taxSettings", (ss: Wire[]) =>
        ss.map((s) => normalise(s)!),
      ),
    get: async (k, p) =>
      gqlOutcome(
        await t.gql(k, `query ($p: ID!) { portfolioTaxSettings(portfolioId: $p) { ${FIELDS} } }`, { p: String(p) }),
        "portfolioTaxSettings",
        (s: Wire | null) => normalise(s),
      ),
    update: async (k, p, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($p: ID!, $input: TaxSettingsInput!) { updateTaxSettings(portfolioId: $p, input: $input) { ${FIELDS} } }`,
          {
            p: String(p),
            input: toGraphQLInput(input as Record<string, unknown>),
          },
        ),
        "updateTaxSettings",
        (s: Wire) => normalise(s)!,
      ),
  };
  return { trade, rest, graphql };
}
