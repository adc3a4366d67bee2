/**
 * The tenancy and permission table of the trades suites (trades-tenancy.test.ts): every holdings,
 * trades, import and attachment route over REST and GraphQL, and the world it runs in (an owner's
 * portfolios assigned to a Read and a ReadWrite client, and another account). Importing it
 * registers no hook: the suite hands its app over, `const { … } = tradeRoutes(t, () => key)`.
 */
import type { Test } from "supertest";
import type { TestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { PNG } from "../support/kit";
import { expectError, expectOk, restCall, withApp, type Json, type Outcome } from "../support/outcomes";

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

/** Another account's (or an unassigned portfolio's) ids: REST 404, GraphQL reads null, mutations NOT_FOUND. */
export function expectHidden(route: Route, o: Outcome<unknown>): void {
  if (o.transport === "GraphQL" && !route.write) expect(expectOk(o)).toBeNull();
  else expectError(o, "NOT_FOUND");
}

/** The world and the route table over the suite's app; `key()` is the owner's key (read inside tests only). */
export function tradeRoutes(t: TestApp, key: () => string) {
  const { gqlCall } = withApp(() => t);

  async function seedPortfolio(k: string): Promise<Ids> {
    const portfolioId = await newPortfolio(t, k);
    const b = await newTrade(t, k, {
      portfolioId,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      quantity: 10,
      price: 100,
      tradeDate: "2024-01-10",
    });
    const up = await t.http
      .put(`/v1/trades/${b.id}/attachment`)
      .set("authorization", k)
      .attach("file", PNG, { filename: "note.png", contentType: "image/png" });
    expect(up.status).toBe(200);
    return { portfolioId, holdingId: b.holdingId, tradeId: b.id };
  }

  async function world(): Promise<World> {
    const owner = key();
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

  const REST_ROUTES: Route[] = [
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

  const gqlRaw =
    (field: string, query: string, variables: (i: Ids) => Json): Route["call"] =>
    (k, i) =>
      gqlCall(k, query, variables(i), field, (d) => d);

  const GRAPHQL_ROUTES: Route[] = [
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
  return { seedPortfolio, world, REST_ROUTES, GRAPHQL_ROUTES };
}
