import { createHash } from "node:crypto";
import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";
import { newPortfolioBody } from "../support/kit";
import {
  expectAbsent,
  expectError,
  expectInvalid,
  gqlOutcome,
  restCall,
  withApp,
  type Outcome,
} from "../support/outcomes";

/**
 * Clients (API.md §2 Clients, §1 tenancy): every operation over REST and over GraphQL on the same
 * scenarios, through one small transport interface. Clients are the adviser's: a client login key
 * is refused every operation here (FORBIDDEN); another account's clients answer NOT_FOUND.
 */

let t: TestApp;
const { count } = withApp(() => t);
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

interface Client {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  permission: "Read" | "ReadWrite";
}

interface Portfolio {
  id: number;
  name: string;
  [field: string]: unknown;
}

interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<Client[]>>;
  /** REST: 404 when absent; GraphQL: client(id) is null. */
  get(key: string, id: unknown): Promise<Outcome<Client | null>>;
  create(key: string, input: unknown): Promise<Outcome<Client>>;
  update(key: string, id: unknown, input: unknown): Promise<Outcome<Client>>;
  remove(key: string, id: unknown): Promise<Outcome<boolean>>;
  /** REST: GET /v1/clients/{id}/portfolios; GraphQL: client(id) { portfolios } (null when absent). */
  portfolios(key: string, id: unknown): Promise<Outcome<Portfolio[] | null>>;
  assign(
    key: string,
    id: unknown,
    body: { portfolioIds: unknown[]; permission?: string },
  ): Promise<Outcome<Portfolio[]>>;
  createKey(key: string, id: unknown): Promise<Outcome<string>>;
  revokeKeys(key: string, id: unknown): Promise<Outcome<boolean>>;
}

const CLIENT_FIELDS = "id firstName lastName email permission";
const PORTFOLIO_FIELDS = "id name dateCreated baseCurrencyCode taxResidency entityType financialYearEnd";

/** GraphQL ids are strings on the wire; the REST numbers are the same ids. */
const numericId = <T extends { id: unknown }>(v: T): T & { id: number } => {
  expect(String(v.id)).toMatch(/^\d+$/);
  return { ...v, id: Number(v.id) };
};
const fromGraphQL = (c: Client | null) => (c ? numericId(c) : null);

const rest: Transport = {
  name: "REST",
  list: async (k) => restCall(await t.http.get("/v1/clients").set("authorization", k), 200),
  get: async (k, id) => restCall(await t.http.get(`/v1/clients/${id}`).set("authorization", k), 200),
  create: async (k, input) =>
    restCall(
      await t.http
        .post("/v1/clients")
        .set("authorization", k)
        .send(input as object),
      201,
    ),
  update: async (k, id, input) =>
    restCall(
      await t.http
        .put(`/v1/clients/${id}`)
        .set("authorization", k)
        .send(input as object),
      200,
    ),
  remove: async (k, id) => restCall(await t.http.delete(`/v1/clients/${id}`).set("authorization", k), 204),
  portfolios: async (k, id) => restCall(await t.http.get(`/v1/clients/${id}/portfolios`).set("authorization", k), 200),
  assign: async (k, id, body) =>
    restCall(await t.http.put(`/v1/clients/${id}/portfolios`).set("authorization", k).send(body), 200),
  createKey: async (k, id) => {
    const res = await t.http.post(`/v1/clients/${id}/api-keys`).set("authorization", k);
    if (res.status === 201) expect(Object.keys(res.body)).toEqual(["key"]);
    return restCall(res, 201, (b: { key: string }) => b.key);
  },
  revokeKeys: async (k, id) => restCall(await t.http.delete(`/v1/clients/${id}/api-keys`).set("authorization", k), 204),
};

const graphql: Transport = {
  name: "GraphQL",
  list: async (k) =>
    gqlOutcome(await t.gql(k, `{ clients { ${CLIENT_FIELDS} } }`), "clients", (cs: Client[]) =>
      cs.map((c) => fromGraphQL(c)!),
    ),
  get: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `query ($id: ID!) { client(id: $id) { ${CLIENT_FIELDS} } }`, { id: String(id) }),
      "client",
      fromGraphQL,
    ),
  create: async (k, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($input: CreateClientInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`, {
        input,
      }),
      "createClient",
      (c: Client) => fromGraphQL(c)!,
    ),
  update: async (k, id, input) =>
    gqlOutcome(
      await t.gql(
        k,
        `mutation ($id: ID!, $input: UpdateClientInput!) { updateClient(id: $id, input: $input) { ${CLIENT_FIELDS} } }`,
        { id: String(id), input },
      ),
      "updateClient",
      (c: Client) => fromGraphQL(c)!,
    ),
  remove: async (k, id) =>
    gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteClient(id: $id) }`, { id: String(id) }), "deleteClient"),
  portfolios: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `query ($id: ID!) { client(id: $id) { portfolios { ${PORTFOLIO_FIELDS} } } }`, { id: String(id) }),
      "client",
      (c: { portfolios: Portfolio[] } | null) => (c ? c.portfolios.map(numericId) : null),
    ),
  assign: async (k, id, body) =>
    gqlOutcome(
      await t.gql(
        k,
        `mutation ($id: ID!, $ids: [ID!]!, $permission: Permission) { assignClientPortfolios(id: $id, portfolioIds: $ids, permission: $permission) { ${PORTFOLIO_FIELDS} } }`,
        {
          id: String(id),
          ids: body.portfolioIds.map(String),
          permission: body.permission,
        },
      ),
      "assignClientPortfolios",
      (ps: Portfolio[]) => ps.map(numericId),
    ),
  createKey: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!) { createClientApiKey(id: $id) }`, { id: String(id) }),
      "createClientApiKey",
    ),
  revokeKeys: async (k, id) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!) { revokeClientApiKeys(id: $id) }`, { id: String(id) }),
      "revokeClientApiKeys",
    ),
};

async function portfolioClient(id: number): Promise<number | null> {
  const [row] = await t.db.sql<{ client_id: number | null }>(`SELECT client_id FROM portfolio WHERE id = $1`, [id]);
  return row.client_id === null ? null : Number(row.client_id);
}

const BAD_FIELDS: [string, Record<string, unknown>, string][] = [
  ["an empty firstName", { firstName: "" }, "firstName"],
  ["a blank lastName", { lastName: "   " }, "lastName"],
  ["a 101-character firstName", { firstName: "x".repeat(101) }, "firstName"],
  ["a lastName with a NUL character", { lastName: "a\u0000b" }, "lastName"],
  ['email "not-an-email"', { email: "not-an-email" }, "email"],
  ['email "ana@"', { email: "ana@" }, "email"],
  ["a 255-character email", { email: "a".repeat(243) + "@example.com" }, "email"],
];

describe.each([rest, graphql])("clients over $name", (tr) => {
  async function created(k: string, input: Record<string, unknown>): Promise<Client> {
    const o = await tr.create(k, input);
    expect(o.code).toBeUndefined();
    return o.data!;
  }

  describe("create and read", () => {
    it("answers the new client with permission Read and no email by default; it is then listed and readable", async () => {
      const o = await tr.create(key, { firstName: "Ana", lastName: "Silva" });
      expect(o.code).toBeUndefined();
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(["email", "firstName", "id", "lastName", "permission"]);
      }
      expect(o.data).toEqual({
        id: expect.any(Number),
        firstName: "Ana",
        lastName: "Silva",
        email: null,
        permission: "Read",
      });
      expect((await tr.get(key, o.data!.id)).data).toEqual(o.data);
      expect((await tr.list(key)).data).toEqual([o.data]);
      expect(await count("client")).toBe(1);
    });

    it("keeps every field given, trimming names", async () => {
      const c = await created(key, {
        firstName: "  Bo ",
        lastName: "Lee",
        email: "bo.lee@example.com",
        permission: "ReadWrite",
      });
      expect(c).toMatchObject({
        firstName: "Bo",
        lastName: "Lee",
        email: "bo.lee@example.com",
        permission: "ReadWrite",
      });
      expect((await rest.get(key, c.id)).data).toEqual(c);
    });

    it("lists clients by id", async () => {
      const a = await created(key, { firstName: "A", lastName: "One" });
      const b = await created(key, { firstName: "B", lastName: "Two" });
      expect((await tr.list(key)).data).toEqual([a, b]);
    });

    it.each(BAD_FIELDS)(
      "rejects %s with VALIDATION_FAILED naming the field, writing nothing",
      async (_label, fields, path) => {
        const before = await ledgerSnapshot(t.db);
        expectInvalid(await tr.create(key, { firstName: "Ana", lastName: "Silva", ...fields }), path);
        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );

    it('rejects permission "Admin", writing nothing', async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { firstName: "Ana", lastName: "Silva", permission: "Admin" });
      // GraphQL: Permission is an enum, so the schema refuses it before the service.
      if (tr.name === "REST") expectInvalid(o, "permission");
      else expect(o.code).toBe("BAD_USER_INPUT");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers a missing client as absent and rejects a malformed id", async () => {
      expectAbsent(await tr.get(key, 999999));
      expectInvalid(await tr.get(key, "abc"), "clientId");
      expectInvalid(await tr.get(key, "0"), "clientId");
    });
  });

  describe("update", () => {
    it("changes the fields given and keeps the others; email null removes the address", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva", email: "ana@example.com" });
      const renamed = await tr.update(key, c.id, { lastName: "Souza", permission: "ReadWrite" });
      expect(renamed.data).toEqual({ ...c, lastName: "Souza", permission: "ReadWrite" });
      const cleared = await tr.update(key, c.id, { email: null });
      expect(cleared.data).toEqual({ ...c, lastName: "Souza", permission: "ReadWrite", email: null });
      expect((await rest.get(key, c.id)).data).toEqual(cleared.data);
      // An empty change changes nothing.
      expect((await tr.update(key, c.id, {})).data).toEqual(cleared.data);
    });

    it.each(BAD_FIELDS)("rejects %s, writing nothing", async (_label, fields, path) => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const before = await ledgerSnapshot(t.db);
      expectInvalid(await tr.update(key, c.id, fields), path);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for a missing client and rejects a malformed id", async () => {
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(key, 999999, { firstName: "X" }), "NOT_FOUND", 404);
      expectInvalid(await tr.update(key, "abc", { firstName: "X" }), "clientId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("delete", () => {
    it("removes the client and its login keys, and unassigns its portfolios without deleting them", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const keep = await created(key, { firstName: "Bo", lastName: "Lee" });
      const p = await newPortfolioBody<Portfolio>(t, key, { name: "Hers" });
      const q = await newPortfolioBody<Portfolio>(t, key, { name: "His" });
      expect((await tr.assign(key, c.id, { portfolioIds: [p.id] })).code).toBeUndefined();
      expect((await tr.assign(key, keep.id, { portfolioIds: [q.id] })).code).toBeUndefined();
      const login = (await tr.createKey(key, c.id)).data!;
      await t.http.get("/v1/portfolios").set("authorization", login).expect(200);

      const o = await tr.remove(key, c.id);
      expect(o.code).toBeUndefined();
      expect(o.data).toBe(true);

      expectAbsent(await tr.get(key, c.id));
      expectError(await tr.remove(key, c.id), "NOT_FOUND", 404);
      expect((await tr.list(key)).data).toEqual([keep]);
      expect(await count("portfolio")).toBe(2);
      expect(await portfolioClient(p.id)).toBeNull();
      expect(await portfolioClient(q.id)).toBe(keep.id);
      expect((await t.http.get("/v1/portfolios").set("authorization", login)).status).toBe(401);
    });

    it("answers NOT_FOUND for a missing client and rejects a malformed id, deleting nothing", async () => {
      await created(key, { firstName: "Ana", lastName: "Silva" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.remove(key, 999999), "NOT_FOUND", 404);
      expectInvalid(await tr.remove(key, "abc"), "clientId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("portfolio assignment", () => {
    it("replaces the client's portfolios and sets its permission; answers them by id", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const [p1, p2, p3] = [
        await newPortfolioBody<Portfolio>(t, key, { name: "P1" }),
        await newPortfolioBody<Portfolio>(t, key, { name: "P2" }),
        await newPortfolioBody<Portfolio>(t, key, { name: "P3" }),
      ];
      expect((await tr.portfolios(key, c.id)).data).toEqual([]);

      const first = await tr.assign(key, c.id, { portfolioIds: [p2.id, p1.id], permission: "ReadWrite" });
      expect(first.code).toBeUndefined();
      expect(first.data).toEqual([p1, p2]);
      expect((await tr.get(key, c.id)).data!.permission).toBe("ReadWrite");
      expect((await tr.portfolios(key, c.id)).data).toEqual([p1, p2]);

      // Not listed any more: unassigned. Permission absent: unchanged.
      const second = await tr.assign(key, c.id, { portfolioIds: [p3.id, p2.id] });
      expect(second.data).toEqual([p2, p3]);
      expect(await portfolioClient(p1.id)).toBeNull();
      expect((await tr.get(key, c.id)).data!.permission).toBe("ReadWrite");

      // An empty list clears the assignment.
      expect((await tr.assign(key, c.id, { portfolioIds: [], permission: "Read" })).data).toEqual([]);
      expect((await tr.get(key, c.id)).data!.permission).toBe("Read");
      for (const p of [p1, p2, p3]) expect(await portfolioClient(p.id)).toBeNull();
      expect(await count("portfolio")).toBe(3);
    });

    it("moves a portfolio assigned to another client", async () => {
      const a = await created(key, { firstName: "A", lastName: "One" });
      const b = await created(key, { firstName: "B", lastName: "Two" });
      const p = await newPortfolioBody<Portfolio>(t, key, { name: "Shared" });
      await tr.assign(key, a.id, { portfolioIds: [p.id] });
      expect((await tr.assign(key, b.id, { portfolioIds: [p.id] })).data).toEqual([p]);
      expect((await tr.portfolios(key, a.id)).data).toEqual([]);
      expect((await tr.portfolios(key, b.id)).data).toEqual([p]);
    });

    it("answers NOT_FOUND naming a portfolio that is missing or another account's, assigning nothing", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const mine = await newPortfolioBody<Portfolio>(t, key, { name: "Mine" });
      const theirs = await newPortfolioBody<Portfolio>(t, await t.newAccount(), { name: "Theirs" });
      await tr.assign(key, c.id, { portfolioIds: [mine.id] });
      const before = await ledgerSnapshot(t.db);
      for (const missing of [999999, theirs.id]) {
        const o = await tr.assign(key, c.id, { portfolioIds: [mine.id, missing], permission: "ReadWrite" });
        expectError(o, "NOT_FOUND", 404);
        expect(o.res.body.detail ?? o.res.body.errors[0].message).toContain(`Portfolio ${missing}`);
      }
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("rejects duplicate and malformed ids with their paths, assigning nothing", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const p = await newPortfolioBody<Portfolio>(t, key, { name: "P" });
      const before = await ledgerSnapshot(t.db);
      expectInvalid(await tr.assign(key, c.id, { portfolioIds: [p.id, p.id] }), "portfolioIds[1]");
      expectInvalid(await tr.assign(key, c.id, { portfolioIds: ["abc"] }), "portfolioIds[0]");
      if (tr.name === "REST")
        expectInvalid(await tr.assign(key, c.id, { portfolioIds: [p.id], permission: "Admin" }), "permission");
      expectError(await tr.assign(key, 999999, { portfolioIds: [p.id] }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("GET of a missing client's portfolios is absent", async () => {
      expectAbsent(await tr.portfolios(key, 999999));
    });
  });

  describe("login keys", () => {
    it("a key made for the client sees only its portfolios; with Read it cannot change them; revoked it answers 401", async () => {
      const c = await created(key, { firstName: "Ana", lastName: "Silva" });
      const [p1, p2] = [
        await newPortfolioBody<Portfolio>(t, key, { name: "Hers" }),
        await newPortfolioBody<Portfolio>(t, key, { name: "Not hers" }),
      ];
      await tr.assign(key, c.id, { portfolioIds: [p1.id] });

      const o = await tr.createKey(key, c.id);
      expect(o.code).toBeUndefined();
      if (tr.name === "REST") expect(o.status).toBe(201);
      const login = o.data!;
      expect(login).toMatch(/^pfk_[A-Za-z0-9_-]{43}$/);
      // Only its hash is stored.
      const keys = await t.db.sql<{ key_hash: string; client_id: number }>(
        `SELECT key_hash, client_id FROM api_key WHERE client_id IS NOT NULL`,
      );
      expect(keys.map((k) => ({ ...k, client_id: Number(k.client_id) }))).toEqual([
        { key_hash: createHash("sha256").update(login).digest("hex"), client_id: c.id },
      ]);

      const seen = await t.http.get("/v1/portfolios").set("authorization", login);
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual([p1]);
      expect((await t.http.get(`/v1/portfolios/${p2.id}`).set("authorization", login)).status).toBe(404);
      const put = await t.http.put(`/v1/portfolios/${p1.id}`).set("authorization", login).send({ name: "Renamed" });
      expect(put.status).toBe(403);
      expect(put.body.code).toBe("FORBIDDEN");

      // ReadWrite takes effect for keys already made.
      await tr.assign(key, c.id, { portfolioIds: [p1.id], permission: "ReadWrite" });
      expect(
        (await t.http.put(`/v1/portfolios/${p1.id}`).set("authorization", login).send({ name: "Renamed" })).status,
      ).toBe(200);

      const second = (await tr.createKey(key, c.id)).data!;
      expect(second).not.toBe(login);
      const revoked = await tr.revokeKeys(key, c.id);
      expect(revoked.code).toBeUndefined();
      expect(revoked.data).toBe(true);
      for (const k of [login, second]) {
        const res = await t.http.get("/v1/portfolios").set("authorization", k);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe("UNAUTHENTICATED");
      }
      // The account's own key is untouched.
      expect((await t.http.get("/v1/portfolios").set("authorization", key)).status).toBe(200);
      expect(await count("portfolio")).toBe(2);
    });

    it("answers NOT_FOUND for a missing client, making and revoking nothing", async () => {
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.createKey(key, 999999), "NOT_FOUND", 404);
      expectError(await tr.revokeKeys(key, 999999), "NOT_FOUND", 404);
      expectInvalid(await tr.createKey(key, "abc"), "clientId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("tenant isolation", () => {
    it("hides another account's client exactly like a missing one, on every operation, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await created(key, { firstName: "Ana", lastName: "Silva" });
      const otherPortfolio = await newPortfolioBody<Portfolio>(t, other, { name: "Theirs" });
      const before = await ledgerSnapshot(t.db);

      expect((await tr.list(other)).data).toEqual([]);
      expectAbsent(await tr.get(other, mine.id));
      expectAbsent(await tr.portfolios(other, mine.id));
      expectError(await tr.update(other, mine.id, { firstName: "Hijacked" }), "NOT_FOUND", 404);
      expectError(await tr.assign(other, mine.id, { portfolioIds: [otherPortfolio.id] }), "NOT_FOUND", 404);
      expectError(await tr.createKey(other, mine.id), "NOT_FOUND", 404);
      expectError(await tr.revokeKeys(other, mine.id), "NOT_FOUND", 404);
      expectError(await tr.remove(other, mine.id), "NOT_FOUND", 404);

      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await tr.get(key, mine.id)).data).toEqual(mine);
    });
  });

  describe("client login keys", () => {
    it.each(["Read", "ReadWrite"] as const)(
      "a client key with %s is refused every client operation (FORBIDDEN), changing nothing",
      async (permission) => {
        const p = await newPortfolioBody<Portfolio>(t, key, { name: "Hers" });
        const c = await created(key, { firstName: "Ana", lastName: "Silva" });
        const login = await t.newClientKey(key, permission, [p.id]);
        const before = await ledgerSnapshot(t.db);

        expectError(await tr.list(login), "FORBIDDEN", 403);
        expectError(await tr.get(login, c.id), "FORBIDDEN", 403);
        expectError(await tr.create(login, { firstName: "New", lastName: "Client" }), "FORBIDDEN", 403);
        expectError(await tr.update(login, c.id, { firstName: "X" }), "FORBIDDEN", 403);
        expectError(await tr.portfolios(login, c.id), "FORBIDDEN", 403);
        expectError(await tr.assign(login, c.id, { portfolioIds: [p.id], permission: "ReadWrite" }), "FORBIDDEN", 403);
        expectError(await tr.createKey(login, c.id), "FORBIDDEN", 403);
        expectError(await tr.revokeKeys(login, c.id), "FORBIDDEN", 403);
        expectError(await tr.remove(login, c.id), "FORBIDDEN", 403);

        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );
  });

  it("reads the same client on both transports", async () => {
    const c = await created(key, {
      firstName: "Ana",
      lastName: "Silva",
      email: "ana@example.com",
      permission: "ReadWrite",
    });
    const p = await newPortfolioBody<Portfolio>(t, key, { name: "Hers" });
    await tr.assign(key, c.id, { portfolioIds: [p.id] });
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, c.id)).data).toEqual(c);
      expect((await reader.list(key)).data).toEqual([c]);
      expect((await reader.portfolios(key, c.id)).data).toEqual([p]);
    }
  });
});

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
    // key lookup + clients + one batch of portfolios
    expect(many.n).toBe(3);
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
