/**
 * The holdings API over REST and GraphQL, for the test/api/holdings-*.test.ts suites: the `Transport` adapters,
 * the securities search answer (the holding's shape is in ../factories/holding-answers.ts), and the
 * setup functions. Importing it registers no hook: a suite calls useTestApp and hands its app over,
 * `const { … } = holdingsApi(t, () => key)`.
 */
import type { TestApp } from "../support/app";
import { newTrade } from "../factories";
import { HOLDING, toHolding, type Holding } from "../factories/holding-answers";
import { utcDate } from "../support/kit";
import { restCall, withApp, type Json, type Outcome, type TransportName } from "../support/outcomes";

/**
 * Holdings (docs/rules.md §1, valued as §7 says) and the securities search
 * the holdings are created from. Listing and valuation (custom price, else market price, else the
 * last trade price, on or before the date), editing, deleting, custom investments and ticker
 * changes run over REST and GraphQL on the same scenarios through the `Transport` adapters below.
 * Trades are set up over REST; prices and FX rates are written straight to their tables (their
 * own API is another module's). The last test proves `portfolio { holdings { trades } } }` costs
 * a fixed number of SQL statements however many holdings and trades there are.
 */

export interface Security {
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  securityType: string;
}

export const restHolding = (b: unknown) => toHolding(b as Json, "REST");
export const gqlHolding = (d: unknown) => toHolding(d as Json, "GraphQL");

export interface ListQuery {
  includeClosed?: boolean;
  date?: string;
}

export interface Transport {
  name: TransportName;
  /** REST GET /v1/portfolios/{p}/holdings; GraphQL portfolio(id) { holdings } (null for a hidden portfolio). */
  list(key: string, portfolioId: number, query?: ListQuery): Promise<Outcome<Holding[] | null>>;
  get(key: string, id: number): Promise<Outcome<Holding | null>>;
  create(key: string, portfolioId: number, input: Json): Promise<Outcome<Holding>>;
  update(key: string, id: number, input: Json): Promise<Outcome<Holding>>;
  remove(key: string, id: number): Promise<Outcome<boolean>>;
  changeSymbol(key: string, id: number, symbol: string, exchange: string): Promise<Outcome<Holding>>;
  search(key: string, args: { q: string; exchange?: string; limit?: number }): Promise<Outcome<Security[]>>;
}

/**
 * Both transports and the setup over the suite's app (read inside tests only); `key()` is the
 * account the setup writes for unless another key is given.
 */
export function holdingsApi(t: TestApp, key: () => string) {
  const { gqlCall, unchanged, accountIdOf, count } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    list: (k, p, query = {}) =>
      restCall(
        t.http
          .get(`/v1/portfolios/${p}/holdings`)
          .query(Object.fromEntries(Object.entries(query).map(([n, v]) => [n, String(v)])))
          .set("authorization", k),
        (b) => (b as Json[]).map(restHolding),
      ),
    get: (k, id) => restCall(t.http.get(`/v1/holdings/${id}`).set("authorization", k), restHolding),
    create: (k, p, input) =>
      restCall(t.http.post(`/v1/portfolios/${p}/holdings`).set("authorization", k).send(input), restHolding),
    update: (k, id, input) =>
      restCall(t.http.put(`/v1/holdings/${id}`).set("authorization", k).send(input), restHolding),
    remove: (k, id) => restCall(t.http.delete(`/v1/holdings/${id}`).set("authorization", k), () => true),
    changeSymbol: (k, id, symbol, exchange) =>
      restCall(t.http.put(`/v1/holdings/${id}/symbol`).set("authorization", k).send({ symbol, exchange }), restHolding),
    search: (k, args) =>
      restCall(
        t.http
          .get("/v1/securities/search")
          .query(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)))
          .set("authorization", k),
        (b) => b as Security[],
      ),
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: (k, p, query = {}) =>
      gqlCall(
        k,
        `query($id: ID!, $includeClosed: Boolean, $date: Date) { portfolio(id: $id) { holdings(includeClosed: $includeClosed, date: $date) { ...H } } } ${HOLDING}`,
        { id: String(p), ...query },
        "portfolio",
        (d) => (d === null ? null : ((d as Json).holdings as Json[]).map(gqlHolding)),
      ),
    get: (k, id) =>
      gqlCall(k, `query($id: ID!) { holding(id: $id) { ...H } } ${HOLDING}`, { id: String(id) }, "holding", (d) =>
        d === null ? null : gqlHolding(d),
      ),
    create: (k, p, input) =>
      gqlCall(
        k,
        `mutation($p: ID!, $input: CreateHoldingInput!) { createHolding(portfolioId: $p, input: $input) { ...H } } ${HOLDING}`,
        { p: String(p), input },
        "createHolding",
        gqlHolding,
      ),
    update: (k, id, input) =>
      gqlCall(
        k,
        `mutation($id: ID!, $input: UpdateHoldingInput!) { updateHolding(id: $id, input: $input) { ...H } } ${HOLDING}`,
        { id: String(id), input },
        "updateHolding",
        gqlHolding,
      ),
    remove: (k, id) =>
      gqlCall(
        k,
        `mutation($id: ID!) { deleteHolding(id: $id) }`,
        { id: String(id) },
        "deleteHolding",
        (d) => d as boolean,
      ),
    changeSymbol: (k, id, symbol, exchange) =>
      gqlCall(
        k,
        `mutation($id: ID!, $symbol: String!, $exchange: String!) { changeHoldingSymbol(id: $id, symbol: $symbol, exchange: $exchange) { ...H } } ${HOLDING}`,
        { id: String(id), symbol, exchange },
        "changeHoldingSymbol",
        gqlHolding,
      ),
    search: (k, args) =>
      gqlCall(
        k,
        `query($q: String!, $exchange: String, $limit: Int) { searchSecurities(q: $q, exchange: $exchange, limit: $limit) { symbol exchange name currencyCode securityType } }`,
        args,
        "searchSecurities",
        (d) => d as Security[],
      ),
  };

  const TRANSPORTS: Transport[] = [rest, graphql];

  // Setup (REST) ----------------------------------------------------------------------------------

  async function trade(portfolioId: number, input: Json, k = key()): Promise<{ id: number; holdingId: number }> {
    return newTrade(t, k, { portfolioId, ...input });
  }

  const buy = (
    p: number,
    symbol: string,
    quantity: number | string,
    price: number | string,
    tradeDate: string,
    extra: Json = {},
    k = key(),
  ) => trade(p, { symbol, exchange: "ASX", tradeType: "Buy", quantity, price, tradeDate, ...extra }, k);
  const sell = (
    p: number,
    symbol: string,
    quantity: number | string,
    price: number | string,
    tradeDate: string,
    k = key(),
  ) => trade(p, { symbol, exchange: "ASX", tradeType: "Sell", quantity, price, tradeDate }, k);

  async function marketPrice(
    portfolioId: number,
    symbol: string,
    exchange: string,
    date: string,
    close: string,
  ): Promise<void> {
    await t.db.prisma.marketPrice.create({
      data: { accountId: await accountIdOf(portfolioId), symbol, exchange, date: utcDate(date), close },
    });
  }

  async function customPrice(holdingId: number, date: string, price: string): Promise<void> {
    await t.db.prisma.customPrice.create({ data: { holdingId, date: utcDate(date), price } });
  }

  async function fxRate(portfolioId: number, base: string, quote: string, date: string, rate: string): Promise<void> {
    await t.db.prisma.fxRate.create({
      data: { accountId: await accountIdOf(portfolioId), base, quote, date: utcDate(date), rate },
    });
  }
  return {
    gqlCall,
    unchanged,
    accountIdOf,
    count,
    rest,
    graphql,
    TRANSPORTS,
    trade,
    buy,
    sell,
    marketPrice,
    customPrice,
    fxRate,
  };
}
