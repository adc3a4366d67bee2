import type request from "supertest";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolioBody } from "../factories";
import { type Portfolio, clientsApi } from "./clients.transports";

/**
 * What one transport alone answers: GraphQL's statement count and nulls, REST's bad ids, missing
 * fields and OpenAPI document.
 *
 * Clients (docs/conventions.md §2.3–2.4): every operation over REST and over GraphQL on the same
 * scenarios, through one small transport interface. Clients are the adviser's: a client login key
 * is refused every operation here (FORBIDDEN); another account's clients answer NOT_FOUND.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest } = clientsApi(t);

describe("GraphQL specifics", () => {
  it("clients { portfolios } costs the same few statements for 1 client as for 10", async () => {
    const seed = async (k: string, clients: number) => {
      for (let i = 0; i < clients; i++) {
        const c = (await rest.create(k, { firstName: "C", lastName: String(i) })).data!;
        const ps = [
          await newPortfolioBody<Portfolio>(t, k, { name: `P${i}a` }),
          await newPortfolioBody<Portfolio>(t, k, { name: `P${i}b` }),
        ];
        await rest.assign(k, c.id, { portfolioIds: ps.map((p) => p.id) });
      }
    };
    const small = await t.newAccount();
    await seed(small, 1);
    await seed(key, 10);
    const statements = async (k: string) => {
      const before = t.db.statementCount;
      const res = await t.gql(k, `{ clients { id portfolios { id name } } }`);
      expect(res.body.errors).toBeUndefined();
      return { n: t.db.statementCount - before, clients: res.body.data.clients as { portfolios: unknown[] }[] };
    };
    const one = await statements(small);
    const many = await statements(key);
    expect(many.clients).toHaveLength(10);
    for (const c of many.clients) expect(c.portfolios).toHaveLength(2);
    // clients + one batch of portfolios (the key's lookup is cached: both keys were used before)
    expect(many.n).toBe(2);
    expect(one.n).toBe(many.n);
  });

  it("client(id) is null for another account's client; its mutations answer NOT_FOUND", async () => {
    const other = await t.newAccount();
    const mine = (await rest.create(key, { firstName: "Ana", lastName: "Silva" })).data!;
    const res = await t.gql(other, `query ($id: ID!) { client(id: $id) { id } }`, { id: String(mine.id) });
    expect(res.body).toEqual({ data: { client: null } });
    const del = await t.gql(other, `mutation ($id: ID!) { deleteClient(id: $id) }`, { id: String(mine.id) });
    expect(del.body.data).toBeNull();
    expect(del.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

describe("REST specifics", () => {
  it("bad ids on every client path: abc → 400 naming clientId, 999999 → 404", async () => {
    const before = await ledgerSnapshot(t.db);
    const calls: [string, string, object?][] = [
      ["get", "/v1/clients/{id}"],
      ["put", "/v1/clients/{id}", { firstName: "X" }],
      ["delete", "/v1/clients/{id}"],
      ["get", "/v1/clients/{id}/portfolios"],
      ["put", "/v1/clients/{id}/portfolios", { portfolioIds: [] }],
      ["post", "/v1/clients/{id}/api-keys"],
      ["delete", "/v1/clients/{id}/api-keys"],
    ];
    for (const [method, path, body] of calls) {
      for (const [id, status] of [
        ["abc", 400],
        ["999999", 404],
      ] as const) {
        const req = (t.http as unknown as Record<string, (p: string) => request.Test>)
          [method](path.replace("{id}", id))
          .set("authorization", key);
        const res = await (body ? req.send(body) : req);
        expect({ method, path, id, status: res.status }).toEqual({ method, path, id, status });
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        if (status === 400) expect(res.body.errors).toEqual([{ path: "clientId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("PUT portfolios without portfolioIds is 400 naming it", async () => {
    const c = (await rest.create(key, { firstName: "Ana", lastName: "Silva" })).data!;
    const res = await t.http
      .put(`/v1/clients/${c.id}/portfolios`)
      .set("authorization", key)
      .send({ permission: "Read" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "portfolioIds", message: expect.any(String) }]);
  });

  it("the OpenAPI document lists every client operation", async () => {
    const doc = (await t.http.get("/v1/openapi.json")).body;
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        "listClients",
        "createClient",
        "getClient",
        "updateClient",
        "deleteClient",
        "listClientPortfolios",
        "assignClientPortfolios",
        "createClientApiKey",
        "revokeClientApiKeys",
      ]),
    );
    expect(doc.components.schemas.Client).toBeDefined();
  });
});
