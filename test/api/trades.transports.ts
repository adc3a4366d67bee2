/**
 * The trades API over REST and GraphQL, for the test/api/trades-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = tradesApi(t, () => key)`.
 */
import type { TestApp } from "../support/app";
import { newTrade } from "../factories";
import { HOLDING_SUMMARY, toHoldingSummary, type HoldingSummary } from "../factories/holding-answers";
import {
  gqlDecimal,
  gqlId,
  restCall,
  restDecimal,
  restId,
  withApp,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";

/**
 * Trades (docs/rules.md §1–3): recording, reading, changing and
 * deleting trades, and what each does to its holding's units and cost base. Every rule runs over
 * REST (/v1) and over GraphQL (/graphql) on the same scenarios through the `Transport` adapters
 * below, which normalise trades and holdings so both transports are held to the same answers.
 * Scenario setup goes through REST; the operation under test through the transport under test.
 * The tenancy and permission table over every route is in ./trades.routes.ts.
 */

// ---------------------------------------------------------------------------------------------
// Trades as both transports show them: decimals as their exact digits, ids numbers (holdings:
// ../factories/holding-answers.ts).
// ---------------------------------------------------------------------------------------------

export interface Trade {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  tradeType: string;
  tradeDate: string;
  quantity: string;
  price: string;
  brokerage: string;
  value: string;
  currencyCode: string;
  exchangeRate: string;
  sourceId: string | null;
  notes: string;
  acquisitionDate: string | null;
  parcels: { tradeId: number; quantity: string }[];
  hasAttachment: boolean;
}

export function toTrade(raw: Json, transport: TransportName): Trade {
  const dec = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  return {
    id: id(raw.id),
    holdingId: id(raw.holdingId),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol as string,
    exchange: raw.exchange as string,
    tradeType: raw.tradeType as string,
    tradeDate: raw.tradeDate as string,
    quantity: dec(raw.quantity),
    price: dec(raw.price),
    brokerage: dec(raw.brokerage),
    value: dec(raw.value),
    currencyCode: raw.currencyCode as string,
    exchangeRate: dec(raw.exchangeRate),
    sourceId: raw.sourceId as string | null,
    notes: raw.notes as string,
    acquisitionDate: raw.acquisitionDate as string | null,
    parcels: (raw.parcels as Json[]).map((p) => ({ tradeId: id(p.tradeId), quantity: dec(p.quantity) })),
    hasAttachment: raw.hasAttachment as boolean,
  };
}

export interface Transport {
  name: TransportName;
  createTrade(key: string, input: Json): Promise<Outcome<Trade>>;
  updateTrade(key: string, id: number, input: Json): Promise<Outcome<Trade>>;
  deleteTrade(key: string, id: number): Promise<Outcome<boolean>>;
  /** REST: 404 when absent; GraphQL: null. */
  getTrade(key: string, id: number): Promise<Outcome<Trade | null>>;
  getHolding(key: string, id: number): Promise<Outcome<HoldingSummary | null>>;
  /** A holding's trades, oldest first (REST /v1/holdings/{h}/trades, GraphQL holding { trades }). */
  holdingTrades(key: string, holdingId: number): Promise<Outcome<Trade[] | null>>;
  listHoldings(key: string, portfolioId: number): Promise<Outcome<HoldingSummary[] | null>>;
}

// REST ------------------------------------------------------------------------------------------

export const restTrade = (b: unknown) => toTrade(b as Json, "REST");
export const restHolding = (b: unknown) => toHoldingSummary(b as Json, "REST");

// GraphQL ---------------------------------------------------------------------------------------

export const TRADE = `fragment T on Trade {
  id holdingId portfolioId symbol exchange tradeType tradeDate quantity price brokerage value
  currencyCode exchangeRate sourceId notes acquisitionDate parcels { tradeId quantity } hasAttachment
}`;

export const gqlTrade = (d: unknown) => toTrade(d as Json, "GraphQL");
export const gqlHolding = (d: unknown) => toHoldingSummary(d as Json, "GraphQL");
export const orNull =
  <T>(f: (d: unknown) => T) =>
  (d: unknown) =>
    d === null ? null : f(d);

/**
 * Both transports and the setup over the suite's app (read inside tests only); `key()` is the
 * account the setup writes for unless another key is given.
 */
export function tradesApi(t: TestApp, key: () => string) {
  const { gqlCall, unchanged, accountIdOf, count } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    createTrade: (k, input) => restCall(t.http.post("/v1/trades").set("authorization", k).send(input), restTrade),
    updateTrade: (k, id, input) =>
      restCall(t.http.put(`/v1/trades/${id}`).set("authorization", k).send(input), restTrade),
    deleteTrade: (k, id) => restCall(t.http.delete(`/v1/trades/${id}`).set("authorization", k), () => true),
    getTrade: (k, id) => restCall(t.http.get(`/v1/trades/${id}`).set("authorization", k), restTrade),
    getHolding: (k, id) => restCall(t.http.get(`/v1/holdings/${id}`).set("authorization", k), restHolding),
    holdingTrades: (k, id) =>
      restCall(t.http.get(`/v1/holdings/${id}/trades`).set("authorization", k), (b) => (b as Json[]).map(restTrade)),
    listHoldings: (k, p) =>
      restCall(t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", k), (b) =>
        (b as Json[]).map(restHolding),
      ),
  };

  const graphql: Transport = {
    name: "GraphQL",
    createTrade: (k, input) =>
      gqlCall(
        k,
        `mutation($input: TradeInput!) { createTrade(input: $input) { ...T } } ${TRADE}`,
        { input },
        "createTrade",
        gqlTrade,
      ),
    updateTrade: (k, id, input) =>
      gqlCall(
        k,
        `mutation($id: ID!, $input: TradeInput!) { updateTrade(id: $id, input: $input) { ...T } } ${TRADE}`,
        { id: String(id), input },
        "updateTrade",
        gqlTrade,
      ),
    deleteTrade: (k, id) =>
      gqlCall(k, `mutation($id: ID!) { deleteTrade(id: $id) }`, { id: String(id) }, "deleteTrade", (d) => d as boolean),
    getTrade: (k, id) =>
      gqlCall(k, `query($id: ID!) { trade(id: $id) { ...T } } ${TRADE}`, { id: String(id) }, "trade", orNull(gqlTrade)),
    getHolding: (k, id) =>
      gqlCall(
        k,
        `query($id: ID!) { holding(id: $id) { ...H } } ${HOLDING_SUMMARY}`,
        { id: String(id) },
        "holding",
        orNull(gqlHolding),
      ),
    holdingTrades: (k, id) =>
      gqlCall(
        k,
        `query($id: ID!) { holding(id: $id) { trades { ...T } } } ${TRADE}`,
        { id: String(id) },
        "holding",
        (d) => (d === null ? null : ((d as Json).trades as Json[]).map(gqlTrade)),
      ),
    listHoldings: (k, p) =>
      gqlCall(
        k,
        `query($id: ID!) { portfolio(id: $id) { holdings { ...H } } } ${HOLDING_SUMMARY}`,
        { id: String(p) },
        "portfolio",
        (d) => (d === null ? null : ((d as Json).holdings as Json[]).map(gqlHolding)),
      ),
  };

  const TRANSPORTS: Transport[] = [rest, graphql];

  // Setup (REST) ----------------------------------------------------------------------------------

  /** Records a trade over REST and answers it (the test fails on anything but 201). */
  async function trade(portfolioId: number, input: Json, k = key()): Promise<Trade> {
    return toTrade(await newTrade(t, k, { portfolioId, ...input }), "REST");
  }

  const buy = (
    portfolioId: number,
    symbol: string,
    quantity: number | string,
    price: number | string,
    tradeDate: string,
    extra: Json = {},
    k = key(),
  ) => trade(portfolioId, { symbol, exchange: "ASX", tradeType: "Buy", quantity, price, tradeDate, ...extra }, k);

  async function restHoldingOf(holdingId: number, k = key()): Promise<Json> {
    const res = await t.http.get(`/v1/holdings/${holdingId}`).set("authorization", k);
    expect(res.status).toBe(200);
    return res.body;
  }

  async function fxRate(portfolioId: number, base: string, quote: string, date: string, rate: string): Promise<void> {
    await t.db.prisma.fxRate.create({
      data: { accountId: await accountIdOf(portfolioId), base, quote, date: new Date(`${date}T00:00:00Z`), rate },
    });
  }

  const search = (k: string, q: string) => t.http.get("/v1/securities/search").query({ q }).set("authorization", k);

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
    restHoldingOf,
    fxRate,
    search,
  };
}
