import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectInvalid, expectInvalidOrBadUserInput, expectOk } from "../support/outcomes";
import { auth, cashApi } from "./cash.transports";

/**
 * Cash accounts (docs/rules.md §9.2): create, list, get, update, delete.
 * (Split from cash.test.ts by story; the transports and setup functions are in ./cash.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { newPortfolio, rest, graphql, newAccount, newTx } = cashApi(t);

describe.each([rest, graphql])("cash accounts over $name", (tr) => {
  describe("accounts", () => {
    it("creates an account with the documented defaults and a zero balance", async () => {
      const portfolioId = await newPortfolio(key);
      const o = await tr.createAccount(key, {
        portfolioId: tr.name === "REST" ? portfolioId : String(portfolioId),
        name: "  Everyday  ",
        currencyCode: "AUD",
      });
      const a = expectOk(o);
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res!.body).sort()).toEqual([
          "balance",
          "currencyCode",
          "id",
          "institution",
          "name",
          "portfolioId",
          "settlementDays",
          "syncIncome",
          "syncTrades",
        ]);
      }
      expect(a).toEqual({
        id: expect.any(Number),
        portfolioId,
        name: "Everyday",
        currencyCode: "AUD",
        institution: null,
        syncTrades: false,
        syncIncome: false,
        settlementDays: 2,
        balance: "0",
      });
      expect(expectOk(await tr.getAccount(key, a.id))).toEqual(a);
      expect(expectOk(await rest.getAccount(key, a.id))).toEqual(a);
    });

    it("keeps every field given and lists the portfolio's accounts by id, with balances", async () => {
      const portfolioId = await newPortfolio(key);
      const other = await newPortfolio(key, { name: "Other" });
      const a = expectOk(
        await tr.createAccount(key, {
          portfolioId,
          name: "USD",
          currencyCode: "USD",
          institution: "Interactive Brokers",
          syncTrades: true,
          syncIncome: true,
          settlementDays: 0,
        }),
      );
      expect(a).toMatchObject({
        currencyCode: "USD",
        institution: "Interactive Brokers",
        syncTrades: true,
        syncIncome: true,
        settlementDays: 0,
        balance: "0",
      });
      const b = expectOk(
        await tr.createAccount(key, { portfolioId, name: "AUD", currencyCode: "AUD", settlementDays: 10 }),
      );
      await newAccount(key, other);
      await newTx(key, b.id, "Deposit", "2024-05-01", "1234.5678");
      expect(expectOk(await tr.listAccounts(key, portfolioId))).toEqual([a, { ...b, balance: "1234.5678" }]);
      expect(expectOk(await tr.listAccounts(key, await newPortfolio(key, { name: "Empty" })))).toEqual([]);
    });

    const BAD_ACCOUNTS: [string, Record<string, unknown>, string, boolean][] = [
      ["an empty name", { name: "  " }, "name", false],
      ["a 201-character name", { name: "x".repeat(201) }, "name", false],
      ["a name with a NUL character", { name: "a\u0000b" }, "name", false],
      ['currencyCode "aud"', { currencyCode: "aud" }, "currencyCode", false],
      ['currencyCode "XYZ"', { currencyCode: "XYZ" }, "currencyCode", false],
      ["a 201-character institution", { institution: "i".repeat(201) }, "institution", false],
      ["settlementDays 11", { settlementDays: 11 }, "settlementDays", false],
      ["settlementDays -1", { settlementDays: -1 }, "settlementDays", false],
      ["settlementDays 1.5", { settlementDays: 1.5 }, "settlementDays", true],
      ['syncTrades "yes"', { syncTrades: "yes" }, "syncTrades", true],
      ['portfolioId "abc"', { portfolioId: "abc" }, "portfolioId", false],
    ];

    it.each(BAD_ACCOUNTS)("rejects %s on create, writing nothing", async (_label, fields, path, graphqlTyped) => {
      const portfolioId = await newPortfolio(key);
      const before = await ledgerSnapshot(t.db);
      (graphqlTyped ? expectInvalidOrBadUserInput : expectInvalid)(
        await tr.createAccount(key, { portfolioId, name: "Valid", currencyCode: "AUD", ...fields }),
        path,
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it.each(BAD_ACCOUNTS.filter(([, f]) => !("portfolioId" in f)))(
      "rejects %s on update, writing nothing",
      async (_label, fields, path, graphqlTyped) => {
        const a = await newAccount(key, await newPortfolio(key));
        const before = await ledgerSnapshot(t.db);
        (graphqlTyped ? expectInvalidOrBadUserInput : expectInvalid)(await tr.updateAccount(key, a.id, fields), path);
        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );

    it("updates the fields given and leaves the others; null clears the institution", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { institution: "CommSec" });
      const renamed = expectOk(
        await tr.updateAccount(key, a.id, { name: "Renamed", settlementDays: 3, syncIncome: true }),
      );
      expect(renamed).toEqual({ ...a, name: "Renamed", settlementDays: 3, syncIncome: true });
      expect(expectOk(await tr.updateAccount(key, a.id, { institution: null }))).toEqual({
        ...renamed,
        institution: null,
      });
      expect(expectOk(await tr.updateAccount(key, a.id, { portfolioId }))).toEqual({ ...renamed, institution: null });
      // Without cash transactions the currency may still change.
      expect(expectOk(await tr.updateAccount(key, a.id, { currencyCode: "NZD" })).currencyCode).toBe("NZD");
    });

    it("refuses to move an account to another portfolio, or to change its currency once it has transactions (422)", async () => {
      const portfolioId = await newPortfolio(key);
      const other = await newPortfolio(key, { name: "Other" });
      const a = await newAccount(key, portfolioId);
      await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.updateAccount(key, a.id, { portfolioId: other, name: "Moved" }), "BUSINESS_RULE", 422);
      expectError(await tr.updateAccount(key, a.id, { currencyCode: "USD" }), "BUSINESS_RULE", 422);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("deletes an account with its transactions; afterwards it is gone", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      const keep = await newAccount(key, portfolioId, { name: "Kept" });
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const kept = await newTx(key, keep.id, "Deposit", "2024-01-02", 20);
      expect(expectOk(await tr.deleteAccount(key, a.id))).toBe(true);
      expectAbsent(await tr.getAccount(key, a.id));
      expectAbsent(await tr.getTx(key, tx.id));
      expect(expectOk(await tr.getTx(key, kept.id))).toEqual(kept);
      expectError(await tr.deleteAccount(key, a.id), "NOT_FOUND", 404);
      expectError(await tr.ledger(key, a.id), "NOT_FOUND", 404);
      expect(expectOk(await tr.listAccounts(key, portfolioId))).toEqual([{ ...keep, balance: "20" }]);
    });

    it("deleting the portfolio deletes its accounts", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      await t.http.delete(`/v1/portfolios/${portfolioId}`).set(auth(key)).expect(204);
      expectAbsent(await tr.getAccount(key, a.id));
      expect(await t.db.sql("SELECT * FROM cash_transaction")).toEqual([]);
    });

    it("answers NOT_FOUND for unknown ids and rejects malformed ones", async () => {
      const before = await ledgerSnapshot(t.db);
      expectAbsent(await tr.getAccount(key, 999999));
      expectError(await tr.updateAccount(key, 999999, { name: "x" }), "NOT_FOUND", 404);
      expectError(await tr.deleteAccount(key, 999999), "NOT_FOUND", 404);
      expectError(await tr.listAccounts(key, 999999), "NOT_FOUND", 404);
      expectError(
        await tr.createAccount(key, { portfolioId: 999999, name: "x", currencyCode: "AUD" }),
        "NOT_FOUND",
        404,
      );
      expectInvalid(await tr.getAccount(key, "abc"), "cashAccountId");
      expectInvalid(await tr.deleteAccount(key, "0"), "cashAccountId");
      expectInvalid(await tr.listAccounts(key, "1.5"), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});
