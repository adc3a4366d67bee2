import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolioBody } from "../factories";
import { expectAbsent, expectError } from "../support/outcomes";
import { type Client, type Portfolio, created, clientsApi } from "./clients.transports";

/**
 * Who may manage clients: another account's client is hidden like a missing one, and a client login
 * key is refused every client operation.
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

const { rest, graphql } = clientsApi(t);

describe.each([rest, graphql])("clients over $name", (tr) => {
  describe("tenant isolation", () => {
    it("hides another account's client exactly like a missing one, on every operation, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
        const c = await created(tr, key, { firstName: "Ana", lastName: "Silva" });
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
});
