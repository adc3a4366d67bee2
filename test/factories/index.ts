import type { TestApp } from "../support/app";
import type { Json } from "../support/outcomes";

/**
 * Factories: one row of the ledger each, written over REST (never the transport under test) and
 * failing the test, with the response, when the write is refused. Named scenarios built from them
 * are in test/scenarios.
 */

/** POSTs `body` to `path` with the key and returns the body of the expected status (201 unless given). */
export async function postCreated<T = Json>(
  t: TestApp,
  key: string,
  path: string,
  body: unknown,
  status = 201,
): Promise<T> {
  const res = await t.http
    .post(path)
    .set("authorization", key)
    .send(body as object);
  if (res.status !== status)
    throw new Error(`setup POST ${path} failed: expected ${status}, got ${res.status} ${res.text}`);
  return res.body as T;
}

/** A portfolio of the key's account (name "Portfolio" unless `overrides` says otherwise); returns its id. */
export async function newPortfolio(t: TestApp, key: string, overrides: Json = {}): Promise<number> {
  return (await newPortfolioBody(t, key, overrides)).id;
}

/** newPortfolio, returning the whole REST portfolio rather than its id. */
export async function newPortfolioBody<T extends { id: number } = { id: number } & Json>(
  t: TestApp,
  key: string,
  overrides: Json = {},
): Promise<T> {
  const body = await postCreated<T>(t, key, "/v1/portfolios", { name: "Portfolio", ...overrides });
  expect(Number.isInteger(body.id)).toBe(true);
  return body;
}

/** A trade recorded over POST /v1/trades exactly as `body` says; returns the REST trade (id, holdingId, …). */
export async function newTrade<T extends { id: number; holdingId: number } = { id: number; holdingId: number } & Json>(
  t: TestApp,
  key: string,
  body: Json,
): Promise<T> {
  return postCreated<T>(t, key, "/v1/trades", body);
}

/** [date, quantity, price] of one side of a round trip. */
export type TradeAt = [tradeDate: string, quantity: number, price: number];

/** A buy and a later sell of an ASX security in the portfolio; returns both trades' ids and the holding's. */
export async function newRoundTrip(
  t: TestApp,
  key: string,
  portfolioId: number,
  symbol: string,
  buy: TradeAt,
  sell: TradeAt,
): Promise<{ buyId: number; sellId: number; holdingId: number }> {
  const side = (tradeType: string, [tradeDate, quantity, price]: TradeAt) =>
    newTrade(t, key, { portfolioId, symbol, exchange: "ASX", tradeType, tradeDate, quantity, price });
  const b = await side("Buy", buy);
  const s = await side("Sell", sell);
  return { buyId: b.id, sellId: s.id, holdingId: b.holdingId };
}

/** A custom investment (a holding without market prices) in the portfolio; returns its id. */
export async function newCustomHolding(
  t: TestApp,
  key: string,
  portfolioId: number,
  body: Json = { symbol: "HOUSE", name: "Beach house" },
): Promise<number> {
  return (await postCreated<{ id: number }>(t, key, `/v1/portfolios/${portfolioId}/holdings`, body)).id;
}
