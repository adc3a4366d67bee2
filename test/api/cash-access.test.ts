import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectOk } from "../support/outcomes";
import { storyLedger, cashApi } from "./cash.transports";
import { cashLedgerStory } from "../scenarios/cash-ledger-story";

/**
 * Who may see and change cash: tenant isolation and client keys.
 * (Split from cash.test.ts by story; the transports and setup functions are in ./cash.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { newPortfolio, rest, graphql, newAccount, newTx } = cashApi(t);

describe.each([rest, graphql])("cash accounts over $name", (tr) => {
  describe("tenant isolation", () => {
    it("treats another account's portfolio, accounts and transactions as missing, and changes nothing", async () => {
      const other = await t.newAccount();
      const s = await cashLedgerStory(t, other);
      const before = await ledgerSnapshot(t.db);
      expectAbsent(await tr.getAccount(key, s.account.id));
      expectAbsent(await tr.getTx(key, s.deposit.id));
      expectError(await tr.listAccounts(key, s.portfolioId), "NOT_FOUND", 404);
      expectError(await tr.ledger(key, s.account.id), "NOT_FOUND", 404);
      expectError(
        await tr.createAccount(key, { portfolioId: s.portfolioId, name: "Mine", currencyCode: "AUD" }),
        "NOT_FOUND",
        404,
      );
      expectError(await tr.updateAccount(key, s.account.id, { name: "Mine" }), "NOT_FOUND", 404);
      expectError(await tr.deleteAccount(key, s.account.id), "NOT_FOUND", 404);
      expectError(
        await tr.createTx(key, { cashAccountId: s.account.id, type: "Withdrawal", date: "2024-01-02", amount: 1 }),
        "NOT_FOUND",
        404,
      );
      expectError(await tr.updateTx(key, s.deposit.id, { amount: 1 }), "NOT_FOUND", 404);
      expectError(await tr.deleteTx(key, s.deposit.id), "NOT_FOUND", 404);
      // Nor can a transaction of mine move into it.
      const mine = await newAccount(key, await newPortfolio(key));
      const tx = await newTx(key, mine.id, "Deposit", "2024-01-02", 5);
      const mid = await ledgerSnapshot(t.db);
      expectError(await tr.updateTx(key, tx.id, { cashAccountId: s.account.id }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(mid);
      expect(mid).not.toBe(before);
      expect(expectOk(await tr.ledger(other, s.account.id))).toEqual(storyLedger(s));
    });
  });

  describe("client keys", () => {
    it("a Read key sees its portfolios' accounts and may change nothing (403)", async () => {
      const mine = await newPortfolio(key);
      const notMine = await newPortfolio(key, { name: "Not assigned" });
      const a = await newAccount(key, mine);
      const hidden = await newAccount(key, notMine);
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 5);
      const reader = await t.newClientKey(key, "Read", [mine]);
      const before = await ledgerSnapshot(t.db);

      const seen = expectOk(await tr.getAccount(reader, a.id));
      expect(seen).toEqual({ ...a, balance: "5" });
      expect(expectOk(await tr.listAccounts(reader, mine))).toEqual([seen]);
      expect(expectOk(await tr.getTx(reader, tx.id))).toEqual(tx);
      expect(expectOk(await tr.ledger(reader, a.id))).toHaveLength(1);
      expectAbsent(await tr.getAccount(reader, hidden.id));
      expectError(await tr.listAccounts(reader, notMine), "NOT_FOUND", 404);

      expectError(
        await tr.createAccount(reader, { portfolioId: mine, name: "New", currencyCode: "AUD" }),
        "FORBIDDEN",
        403,
      );
      expectError(await tr.updateAccount(reader, a.id, { name: "Changed" }), "FORBIDDEN", 403);
      expectError(await tr.deleteAccount(reader, a.id), "FORBIDDEN", 403);
      expectError(
        await tr.createTx(reader, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 1 }),
        "FORBIDDEN",
        403,
      );
      expectError(await tr.updateTx(reader, tx.id, { amount: 1 }), "FORBIDDEN", 403);
      expectError(await tr.deleteTx(reader, tx.id), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a ReadWrite key changes its portfolios' cash, and only theirs", async () => {
      const mine = await newPortfolio(key);
      const notMine = await newPortfolio(key, { name: "Not assigned" });
      const hidden = await newAccount(key, notMine);
      const writer = await t.newClientKey(key, "ReadWrite", [mine]);
      const a = expectOk(
        await tr.createAccount(writer, { portfolioId: mine, name: "Client cash", currencyCode: "AUD" }),
      );
      const tx = expectOk(
        await tr.createTx(writer, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 7 }),
      );
      expect(expectOk(await tr.updateTx(writer, tx.id, { amount: 8 })).amount).toBe("8");
      expect(expectOk(await tr.updateAccount(writer, a.id, { name: "Renamed" })).balance).toBe("8");
      const before = await ledgerSnapshot(t.db);
      expectError(
        await tr.createAccount(writer, { portfolioId: notMine, name: "No", currencyCode: "AUD" }),
        "NOT_FOUND",
        404,
      );
      expectError(
        await tr.createTx(writer, { cashAccountId: hidden.id, type: "Deposit", date: "2024-01-02", amount: 1 }),
        "NOT_FOUND",
        404,
      );
      expectError(await tr.deleteAccount(writer, hidden.id), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect(expectOk(await tr.deleteTx(writer, tx.id))).toBe(true);
      expect(expectOk(await tr.deleteAccount(writer, a.id))).toBe(true);
    });
  });
});
