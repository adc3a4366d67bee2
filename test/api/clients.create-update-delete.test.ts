import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolioBody } from "../factories";
import { expectAbsent, expectError, expectInvalid } from "../support/outcomes";
import { type Portfolio, created, clientsApi } from "./clients.transports";

/**
 * Creating, reading, updating and deleting clients; both transports read the same client.
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

const { count, rest, graphql, portfolioClient } = clientsApi(t);

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
      const c = await created(tr, key, {
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
      const a = await created(tr, key, { firstName: "A", lastName: "One" });
      const b = await created(tr, key, { firstName: "B", lastName: "Two" });
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
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva", email: "ana@example.com" });
      const renamed = await tr.update(key, c.id, { lastName: "Souza", permission: "ReadWrite" });
      expect(renamed.data).toEqual({ ...c, lastName: "Souza", permission: "ReadWrite" });
      const cleared = await tr.update(key, c.id, { email: null });
      expect(cleared.data).toEqual({ ...c, lastName: "Souza", permission: "ReadWrite", email: null });
      expect((await rest.get(key, c.id)).data).toEqual(cleared.data);
      // An empty change changes nothing.
      expect((await tr.update(key, c.id, {})).data).toEqual(cleared.data);
    });

    it.each(BAD_FIELDS)("rejects %s, writing nothing", async (_label, fields, path) => {
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
      const keep = await created(tr, key, { firstName: "Bo", lastName: "Lee" });
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
      // Refused at once: the process that deleted the client knows before it answers.
      expect((await t.http.get("/v1/portfolios").set("authorization", login)).status).toBe(401);
    });

    it("answers NOT_FOUND for a missing client and rejects a malformed id, deleting nothing", async () => {
      await created(tr, key, { firstName: "Ana", lastName: "Silva" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.remove(key, 999999), "NOT_FOUND", 404);
      expectInvalid(await tr.remove(key, "abc"), "clientId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  it("reads the same client on both transports", async () => {
    const c = await created(tr, key, {
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
