/**
 * The prices API over REST and GraphQL, for the test/api/prices-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = pricesApi(t)`.
 */
import type request from "supertest";
import type { TestApp } from "../support/app";
import { newCustomHolding, newPortfolio as kitPortfolio } from "../factories";
import { gqlOutcome as gqlAnswer, restCall, withApp, type Outcome } from "../support/outcomes";

/**
 * Custom investment prices, market prices and exchange rates (docs/rules.md §7–8, and the
 * bulk bodies of docs/conventions.md §7.4): every operation over REST and GraphQL on the same
 * scenarios; the text/csv bodies, which only REST has, beside them.
 */

export interface CustomPrice {
  id: number;
  holdingId: number;
  date: string;
  price: string;
}
export interface MarketPrice {
  symbol: string;
  exchange: string;
  date: string;
  close: string;
}
export interface FxRate {
  base: string;
  quote: string;
  date: string;
  rate: string;
}

export interface Transport {
  name: "REST" | "GraphQL";
  listCustom(k: string, holdingId: unknown): Promise<Outcome<CustomPrice[]>>;
  addCustom(k: string, holdingId: unknown, input: unknown): Promise<Outcome<CustomPrice>>;
  addCustomBulk(k: string, holdingId: unknown, rows: unknown[]): Promise<Outcome<CustomPrice[]>>;
  getCustom(k: string, id: unknown): Promise<Outcome<CustomPrice | null>>;
  updateCustom(k: string, id: unknown, input: unknown): Promise<Outcome<CustomPrice>>;
  deleteCustom(k: string, id: unknown): Promise<Outcome<boolean>>;
  upsertMarket(k: string, rows: unknown[]): Promise<Outcome<number>>;
  listMarket(k: string, query: Record<string, string>): Promise<Outcome<MarketPrice[]>>;
  upsertFx(k: string, rows: unknown[]): Promise<Outcome<number>>;
  listFx(k: string, query: Record<string, string>): Promise<Outcome<FxRate[]>>;
}

/** Both transports to one shape: integer ids, decimal strings. */
export function normalise(value: unknown, transport: "REST" | "GraphQL"): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, transport));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const f of ["id", "holdingId"])
    if (transport === "GraphQL" && typeof out[f] === "string") out[f] = Number(out[f]);
  for (const f of ["price", "close", "rate"])
    if (transport === "REST" && typeof out[f] === "number") out[f] = String(out[f]);
  return out;
}

/** The kit's REST and GraphQL outcomes, normalised to this suite's shape. */
export const restOutcome = <T>(
  res: request.Response,
  success: number,
  pick: (body: never) => unknown = (b) => b,
): Promise<Outcome<T>> =>
  restCall(res, success, success === 204 ? () => true as T : (b: never) => normalise(pick(b), "REST") as T);
export const gqlOutcome = <T>(res: request.Response, field: string): Outcome<T> =>
  gqlAnswer(res, field, (v: unknown) => normalise(v, "GraphQL") as T);
export const auth = (k: string) => ({ authorization: k });

export const PRICE = "id holdingId date price";

/** Both transports and the setup over the suite's app (read inside tests only). */
export function pricesApi(t: TestApp) {
  const { count } = withApp(() => t);

  /** A portfolio named "Prices" unless given, over REST. */
  const newPortfolio = (k: string, body: Record<string, unknown> = {}) =>
    kitPortfolio(t, k, { name: "Prices", ...body });
  /** A custom investment ("HOUSE", in a new portfolio unless one is given), over REST. */
  async function newHolding(k: string, portfolioId?: number): Promise<{ holdingId: number; portfolioId: number }> {
    const p = portfolioId ?? (await newPortfolio(k));
    return { holdingId: await newCustomHolding(t, k, p, { symbol: "HOUSE", name: "Beach house" }), portfolioId: p };
  }

  const rest: Transport = {
    name: "REST",
    listCustom: async (k, h) => restOutcome(await t.http.get(`/v1/holdings/${h}/prices`).set(auth(k)), 200),
    addCustom: async (k, h, input) =>
      restOutcome(
        await t.http
          .post(`/v1/holdings/${h}/prices`)
          .set(auth(k))
          .send(input as object),
        201,
      ),
    addCustomBulk: async (k, h, rows) =>
      restOutcome(await t.http.post(`/v1/holdings/${h}/prices/bulk`).set(auth(k)).send(rows), 201),
    getCustom: async (k, id) => restOutcome(await t.http.get(`/v1/prices/${id}`).set(auth(k)), 200),
    updateCustom: async (k, id, input) =>
      restOutcome(
        await t.http
          .put(`/v1/prices/${id}`)
          .set(auth(k))
          .send(input as object),
        200,
      ),
    deleteCustom: async (k, id) => restOutcome(await t.http.delete(`/v1/prices/${id}`).set(auth(k)), 204),
    upsertMarket: async (k, rows) =>
      restOutcome(
        await t.http.post("/v1/market-prices/bulk").set(auth(k)).send(rows),
        200,
        (b: { upserted: number }) => b.upserted,
      ),
    listMarket: async (k, q) => restOutcome(await t.http.get("/v1/market-prices").query(q).set(auth(k)), 200),
    upsertFx: async (k, rows) =>
      restOutcome(
        await t.http.post("/v1/fx-rates/bulk").set(auth(k)).send(rows),
        200,
        (b: { upserted: number }) => b.upserted,
      ),
    listFx: async (k, q) => restOutcome(await t.http.get("/v1/fx-rates").query(q).set(auth(k)), 200),
  };
  const graphql: Transport = {
    name: "GraphQL",
    listCustom: async (k, h) =>
      gqlOutcome(
        await t.gql(k, `query ($h: ID!) { customPrices(holdingId: $h) { ${PRICE} } }`, { h: String(h) }),
        "customPrices",
      ),
    addCustom: async (k, h, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($h: ID!, $input: CustomPriceInput!) { addCustomPrice(holdingId: $h, input: $input) { ${PRICE} } }`,
          { h: String(h), input },
        ),
        "addCustomPrice",
      ),
    addCustomBulk: async (k, h, rows) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($h: ID!, $input: [CustomPriceInput!]!) { addCustomPrices(holdingId: $h, input: $input) { ${PRICE} } }`,
          { h: String(h), input: rows },
        ),
        "addCustomPrices",
      ),
    getCustom: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { customPrice(id: $id) { ${PRICE} } }`, { id: String(id) }),
        "customPrice",
      ),
    updateCustom: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdateCustomPriceInput!) { updateCustomPrice(id: $id, input: $input) { ${PRICE} } }`,
          { id: String(id), input },
        ),
        "updateCustomPrice",
      ),
    deleteCustom: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { deleteCustomPrice(id: $id) }`, { id: String(id) }),
        "deleteCustomPrice",
      ),
    upsertMarket: async (k, rows) =>
      gqlAnswer(
        await t.gql(k, `mutation ($input: [MarketPriceInput!]!) { upsertMarketPrices(input: $input) { upserted } }`, {
          input: rows,
        }),
        "upsertMarketPrices",
        (b) => (b as { upserted: number }).upserted,
      ),
    listMarket: async (k, q) =>
      gqlOutcome(
        await t.gql(
          k,
          `query ($symbol: String!, $exchange: String!, $from: Date, $to: Date) { marketPrices(symbol: $symbol, exchange: $exchange, from: $from, to: $to) { symbol exchange date close source } }`,
          q,
        ),
        "marketPrices",
      ),
    upsertFx: async (k, rows) =>
      gqlOutcome(
        await t.gql(k, `mutation ($input: [FxRateInput!]!) { upsertFxRates(input: $input) }`, { input: rows }),
        "upsertFxRates",
      ),
    listFx: async (k, q) =>
      gqlOutcome(
        await t.gql(
          k,
          `query ($base: String!, $quote: String!, $from: Date, $to: Date) { fxRates(base: $base, quote: $quote, from: $from, to: $to) { base quote date rate source } }`,
          q,
        ),
        "fxRates",
      ),
  };
  return { count, newPortfolio, newHolding, rest, graphql };
}
