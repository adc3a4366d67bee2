import { createHash } from "node:crypto";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolioBody } from "../factories";
import { expectAbsent, expectError, expectInvalid } from "../support/outcomes";
import { type Portfolio, created, clientsApi } from "./clients.transports";

/**
 * A client's portfolios (assigned, moved, refused) and its login keys (made, limited to its
 * portfolios and its permission, revoked).
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

describe.each([rest, graphql])("clients over $name", (tr) => {
  describe("portfolio assignment", () => {
    it("replaces the client's portfolios and sets its permission; answers them by id", async () => {
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
      const a = await created(tr, key, { firstName: "A", lastName: "One" });
      const b = await created(tr, key, { firstName: "B", lastName: "Two" });
      const p = await newPortfolioBody<Portfolio>(t, key, { name: "Shared" });
      await tr.assign(key, a.id, { portfolioIds: [p.id] });
      expect((await tr.assign(key, b.id, { portfolioIds: [p.id] })).data).toEqual([p]);
      expect((await tr.portfolios(key, a.id)).data).toEqual([]);
      expect((await tr.portfolios(key, b.id)).data).toEqual([p]);
    });

    it("answers NOT_FOUND naming a portfolio that is missing or another account's, assigning nothing", async () => {
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
      const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
      // At once: the process that made the change knows it before it answers.
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
});
