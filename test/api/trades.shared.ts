/**
 * The shared part of the trades suites (test/api/trades-*.test.ts): importing this module starts the
 * app for the importing test file (beforeAll/afterAll) and resets the database before each test.
 */
import type { Test } from "supertest";
import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, PNG } from "../support/kit";
import {
  expectError,
  expectOk,
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
 * Trades (API.md §2 Trades and Holdings, DOMAIN.md §1–2): recording, reading, changing and
 * deleting trades, and what each does to its holding's units and cost base. Every rule runs over
 * REST (/v1) and over GraphQL (/graphql) on the same scenarios through the `Transport` adapters
 * below, which normalise trades and holdings so both transports are held to the same answers.
 * Scenario setup goes through REST; the operation under test through the transport under test.
 * The last section is the tenancy and permission table over every holdings, trades, import and
 * attachment route.
 */

export let t: TestApp;
export const { gqlCall, unchanged, accountIdOf, count } = withApp(() => t);
export let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

// ---------------------------------------------------------------------------------------------
// Trades and holdings as both transports show them: decimals as their exact digits, ids numbers.
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

export interface Holding {
  id: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  holdingType: string;
  quantity: string;
  costBase: string;
  marketValue: string | null;
  unrealisedGain: string | null;
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

export function toHolding(raw: Json, transport: TransportName): Holding {
  const dec = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  const opt = (v: unknown) => (v === null ? null : dec(v));
  return {
    id: id(raw.id),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol as string,
    exchange: raw.exchange as string,
    name: raw.name as string,
    currencyCode: raw.currencyCode as string,
    holdingType: raw.holdingType as string,
    quantity: dec(raw.quantity),
    costBase: dec(raw.costBase),
    marketValue: opt(raw.marketValue),
    unrealisedGain: opt(raw.unrealisedGain),
  };
}

export interface Transport {
  name: TransportName;
  createTrade(key: string, input: Json): Promise<Outcome<Trade>>;
  updateTrade(key: string, id: number, input: Json): Promise<Outcome<Trade>>;
  deleteTrade(key: string, id: number): Promise<Outcome<boolean>>;
  /** REST: 404 when absent; GraphQL: null. */
  getTrade(key: string, id: number): Promise<Outcome<Trade | null>>;
  getHolding(key: string, id: number): Promise<Outcome<Holding | null>>;
  /** A holding's trades, oldest first (REST /v1/holdings/{h}/trades, GraphQL holding { trades }). */
  holdingTrades(key: string, holdingId: number): Promise<Outcome<Trade[] | null>>;
  listHoldings(key: string, portfolioId: number): Promise<Outcome<Holding[] | null>>;
}

// REST ------------------------------------------------------------------------------------------

export const restTrade = (b: unknown) => toTrade(b as Json, "REST");
export const restHolding = (b: unknown) => toHolding(b as Json, "REST");

export const rest: Transport = {
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
    restCall(t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", k), (b) => (b as Json[]).map(restHolding)),
};

// GraphQL ---------------------------------------------------------------------------------------

export const TRADE = `fragment T on Trade {
  id holdingId portfolioId symbol exchange tradeType tradeDate quantity price brokerage value
  currencyCode exchangeRate sourceId notes acquisitionDate parcels { tradeId quantity } hasAttachment
}`;
export const HOLDING = `fragment H on Holding { id portfolioId symbol exchange name currencyCode holdingType quantity costBase marketValue unrealisedGain }`;

export const gqlTrade = (d: unknown) => toTrade(d as Json, "GraphQL");
export const gqlHolding = (d: unknown) => toHolding(d as Json, "GraphQL");
export const orNull =
  <T>(f: (d: unknown) => T) =>
  (d: unknown) =>
    d === null ? null : f(d);

export const graphql: Transport = {
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
      `query($id: ID!) { holding(id: $id) { ...H } } ${HOLDING}`,
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
      `query($id: ID!) { portfolio(id: $id) { holdings { ...H } } } ${HOLDING}`,
      { id: String(p) },
      "portfolio",
      (d) => (d === null ? null : ((d as Json).holdings as Json[]).map(gqlHolding)),
    ),
};

export const TRANSPORTS: Transport[] = [rest, graphql];

// Assertions ------------------------------------------------------------------------------------

// Setup helpers (REST) --------------------------------------------------------------------------

/** Records a trade over REST and answers it (the test fails on anything but 201). */
export async function trade(portfolioId: number, input: Json, k = key): Promise<Trade> {
  return toTrade(await newTrade(t, k, { portfolioId, ...input }), "REST");
}

export const buy = (
  portfolioId: number,
  symbol: string,
  quantity: number | string,
  price: number | string,
  tradeDate: string,
  extra: Json = {},
  k = key,
) => trade(portfolioId, { symbol, exchange: "ASX", tradeType: "Buy", quantity, price, tradeDate, ...extra }, k);

export async function restHoldingOf(holdingId: number, k = key): Promise<Json> {
  const res = await t.http.get(`/v1/holdings/${holdingId}`).set("authorization", k);
  expect(res.status).toBe(200);
  return res.body;
}

export async function fxRate(
  portfolioId: number,
  base: string,
  quote: string,
  date: string,
  rate: string,
): Promise<void> {
  await t.db.prisma.fxRate.create({
    data: { accountId: await accountIdOf(portfolioId), base, quote, date: new Date(`${date}T00:00:00Z`), rate },
  });
}

export const search = (k: string, q: string) =>
  t.http.get("/v1/securities/search").query({ q }).set("authorization", k);

// =============================================================================================

// =============================================================================================
// Tenancy and permissions over every route of holdings, trades, import and attachments.
// =============================================================================================

/** One portfolio's ids: a CBA holding with one buy that has an attachment. */
export interface Ids {
  portfolioId: number;
  holdingId: number;
  tradeId: number;
}

export interface World {
  owner: string;
  other: string;
  /** Read client key, assigned `readable`. */
  readKey: string;
  /** ReadWrite client key, assigned `writable`. */
  writeKey: string;
  readable: Ids;
  writable: Ids;
  /** A portfolio of the owner assigned to no client. */
  unassigned: Ids;
}

export async function seedPortfolio(k: string): Promise<Ids> {
  const portfolioId = await newPortfolio(t, k);
  const b = await buy(portfolioId, "CBA", 10, 100, "2024-01-10", {}, k);
  const up = await t.http
    .put(`/v1/trades/${b.id}/attachment`)
    .set("authorization", k)
    .attach("file", PNG, { filename: "note.png", contentType: "image/png" });
  expect(up.status).toBe(200);
  return { portfolioId, holdingId: b.holdingId, tradeId: b.id };
}

export async function world(): Promise<World> {
  const owner = key;
  const readable = await seedPortfolio(owner);
  const writable = await seedPortfolio(owner);
  const unassigned = await seedPortfolio(owner);
  return {
    owner,
    other: await t.newAccount(),
    readKey: await t.newClientKey(owner, "Read", [readable.portfolioId]),
    writeKey: await t.newClientKey(owner, "ReadWrite", [writable.portfolioId]),
    readable,
    writable,
    unassigned,
  };
}

export interface Route {
  name: string;
  write: boolean;
  /** Success status over REST (GraphQL: 200). */
  ok: number;
  call(k: string, ids: Ids): Promise<Outcome<unknown>>;
}

export const restRaw = (req: Test) => restCall(req, (b) => b);
/** A binary answer: its bytes on success, the problem+json outcome otherwise. */
export async function restFile(req: Test): Promise<Outcome<Buffer>> {
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on("data", (c: Buffer) => chunks.push(c));
    r.on("end", () => cb(null, Buffer.concat(chunks)));
  });
  const bytes = res.body as Buffer;
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(bytes.toString("utf8"));
    return {
      ok: false,
      transport: "REST",
      status: res.status,
      code: problem.code,
      errors: problem.errors,
      message: problem.detail,
      raw: bytes.toString("utf8"),
      res,
    };
  }
  return { ok: true, transport: "REST", status: res.status, value: bytes, data: bytes, raw: "", res };
}
export const tradeBody = (ids: Ids, extra: Json = {}) => ({
  portfolioId: ids.portfolioId,
  holdingId: ids.holdingId,
  tradeType: "Buy",
  tradeDate: "2024-02-01",
  quantity: 1,
  price: 101,
  ...extra,
});

export const REST_ROUTES: Route[] = [
  {
    name: "GET /v1/portfolios/{p}/holdings",
    write: false,
    ok: 200,
    call: (k, i) => restRaw(t.http.get(`/v1/portfolios/${i.portfolioId}/holdings`).set("authorization", k)),
  },
  {
    name: "POST /v1/portfolios/{p}/holdings",
    write: true,
    ok: 201,
    call: (k, i) =>
      restRaw(
        t.http
          .post(`/v1/portfolios/${i.portfolioId}/holdings`)
          .set("authorization", k)
          .send({ symbol: "MYFUND", name: "My fund" }),
      ),
  },
  {
    name: "GET /v1/holdings/{h}",
    write: false,
    ok: 200,
    call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}`).set("authorization", k)),
  },
  {
    name: "PUT /v1/holdings/{h}",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(t.http.put(`/v1/holdings/${i.holdingId}`).set("authorization", k).send({ notes: "changed" })),
  },
  {
    name: "DELETE /v1/holdings/{h}",
    write: true,
    ok: 204,
    call: (k, i) => restRaw(t.http.delete(`/v1/holdings/${i.holdingId}`).set("authorization", k)),
  },
  {
    name: "PUT /v1/holdings/{h}/symbol",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(
        t.http
          .put(`/v1/holdings/${i.holdingId}/symbol`)
          .set("authorization", k)
          .send({ symbol: "CBAX", exchange: "ASX" }),
      ),
  },
  {
    name: "GET /v1/holdings/{h}/symbol-changes",
    write: false,
    ok: 200,
    call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}/symbol-changes`).set("authorization", k)),
  },
  {
    name: "GET /v1/holdings/{h}/trades",
    write: false,
    ok: 200,
    call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}/trades`).set("authorization", k)),
  },
  {
    name: "POST /v1/trades (holdingId)",
    write: true,
    ok: 201,
    call: (k, i) => restRaw(t.http.post("/v1/trades").set("authorization", k).send(tradeBody(i))),
  },
  {
    name: "POST /v1/trades (symbol)",
    write: true,
    ok: 201,
    call: (k, i) =>
      restRaw(
        t.http
          .post("/v1/trades")
          .set("authorization", k)
          .send(tradeBody(i, { holdingId: undefined, symbol: "NAB", exchange: "ASX" })),
      ),
  },
  {
    name: "GET /v1/trades/{t}",
    write: false,
    ok: 200,
    call: (k, i) => restRaw(t.http.get(`/v1/trades/${i.tradeId}`).set("authorization", k)),
  },
  {
    name: "PUT /v1/trades/{t}",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(
        t.http
          .put(`/v1/trades/${i.tradeId}`)
          .set("authorization", k)
          .send(tradeBody(i, { tradeDate: "2024-01-10" })),
      ),
  },
  {
    name: "DELETE /v1/trades/{t}",
    write: true,
    ok: 204,
    call: (k, i) => restRaw(t.http.delete(`/v1/trades/${i.tradeId}`).set("authorization", k)),
  },
  {
    name: "POST /v1/portfolios/{p}/trades/import",
    write: true,
    ok: 201,
    call: (k, i) =>
      restRaw(
        t.http
          .post(`/v1/portfolios/${i.portfolioId}/trades/import`)
          .set("authorization", k)
          .send([
            { symbol: "WBC", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 30 },
          ]),
      ),
  },
  {
    name: "POST /v1/portfolios/{p}/trades/import?dryRun=true",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(
        t.http
          .post(`/v1/portfolios/${i.portfolioId}/trades/import?dryRun=true`)
          .set("authorization", k)
          .send([
            { symbol: "WBC", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 30 },
          ]),
      ),
  },
  {
    name: "PUT /v1/trades/{t}/attachment",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(
        t.http
          .put(`/v1/trades/${i.tradeId}/attachment`)
          .set("authorization", k)
          .attach("file", PNG, { filename: "new.png", contentType: "image/png" }),
      ),
  },
  {
    name: "GET /v1/trades/{t}/attachment",
    write: false,
    ok: 200,
    call: (k, i) => restFile(t.http.get(`/v1/trades/${i.tradeId}/attachment`).set("authorization", k)),
  },
  {
    name: "DELETE /v1/trades/{t}/attachment",
    write: true,
    ok: 204,
    call: (k, i) => restRaw(t.http.delete(`/v1/trades/${i.tradeId}/attachment`).set("authorization", k)),
  },
];

export const gqlRaw =
  (field: string, query: string, variables: (i: Ids) => Json): Route["call"] =>
  (k, i) =>
    gqlCall(k, query, variables(i), field, (d) => d);

export const GRAPHQL_ROUTES: Route[] = [
  {
    name: "portfolio { holdings }",
    write: false,
    ok: 200,
    call: gqlRaw("portfolio", `query($id: ID!) { portfolio(id: $id) { holdings { id trades { id } } } }`, (i) => ({
      id: String(i.portfolioId),
    })),
  },
  {
    name: "holding(id)",
    write: false,
    ok: 200,
    call: gqlRaw("holding", `query($id: ID!) { holding(id: $id) { id quantity trades { id } } }`, (i) => ({
      id: String(i.holdingId),
    })),
  },
  {
    name: "trade(id)",
    write: false,
    ok: 200,
    call: gqlRaw("trade", `query($id: ID!) { trade(id: $id) { id hasAttachment } }`, (i) => ({
      id: String(i.tradeId),
    })),
  },
  {
    name: "createTrade",
    write: true,
    ok: 200,
    call: gqlRaw("createTrade", `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, (i) => ({
      input: tradeBody(i),
    })),
  },
  {
    name: "updateTrade",
    write: true,
    ok: 200,
    call: gqlRaw(
      "updateTrade",
      `mutation($id: ID!, $input: TradeInput!) { updateTrade(id: $id, input: $input) { id } }`,
      (i) => ({ id: String(i.tradeId), input: tradeBody(i, { tradeDate: "2024-01-10" }) }),
    ),
  },
  {
    name: "deleteTrade",
    write: true,
    ok: 200,
    call: gqlRaw("deleteTrade", `mutation($id: ID!) { deleteTrade(id: $id) }`, (i) => ({ id: String(i.tradeId) })),
  },
  {
    name: "createHolding",
    write: true,
    ok: 200,
    call: gqlRaw(
      "createHolding",
      `mutation($p: ID!) { createHolding(portfolioId: $p, input: { symbol: "MYFUND", name: "My fund" }) { id } }`,
      (i) => ({ p: String(i.portfolioId) }),
    ),
  },
  {
    name: "updateHolding",
    write: true,
    ok: 200,
    call: gqlRaw(
      "updateHolding",
      `mutation($id: ID!) { updateHolding(id: $id, input: { notes: "changed" }) { id } }`,
      (i) => ({ id: String(i.holdingId) }),
    ),
  },
  {
    name: "deleteHolding",
    write: true,
    ok: 200,
    call: gqlRaw("deleteHolding", `mutation($id: ID!) { deleteHolding(id: $id) }`, (i) => ({
      id: String(i.holdingId),
    })),
  },
  {
    name: "changeHoldingSymbol",
    write: true,
    ok: 200,
    call: gqlRaw(
      "changeHoldingSymbol",
      `mutation($id: ID!) { changeHoldingSymbol(id: $id, symbol: "CBAX", exchange: "ASX") { id symbol } }`,
      (i) => ({ id: String(i.holdingId) }),
    ),
  },
];

/** Another account's (or an unassigned portfolio's) ids: REST 404, GraphQL reads null, mutations NOT_FOUND. */
export function expectHidden(route: Route, o: Outcome<unknown>): void {
  if (o.transport === "GraphQL" && !route.write) expect(expectOk(o)).toBeNull();
  else expectError(o, "NOT_FOUND");
}
