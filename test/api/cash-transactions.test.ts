import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectInvalid, expectInvalidOrBadUserInput, expectOk } from "../support/outcomes";
import { cashApi } from "./cash.transports";

/**
 * Cash transactions: create, get, update, delete, and their validation.
 * (Split from cash.test.ts by story; the transports and setup functions are in ./cash.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { newPortfolio, rest, graphql, newAccount, newTx } = cashApi(t);

describe.each([rest, graphql])("cash accounts over $name", (tr) => {
  describe("cash transactions", () => {
    it("enters, reads, updates and deletes a transaction; the balance follows", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      const o = await tr.createTx(key, {
        cashAccountId: a.id,
        type: "Deposit",
        date: "2024-01-02",
        amount: "1000.1234",
        notes: "  salary  ",
      });
      const tx = expectOk(o);
      if (tr.name === "REST") expect(o.status).toBe(201);
      // Notes are kept as written (not trimmed), like trade notes.
      expect(tx).toEqual({
        id: expect.any(Number),
        cashAccountId: a.id,
        type: "Deposit",
        date: "2024-01-02",
        amount: "1000.1234",
        notes: "  salary  ",
      });
      expect(expectOk(await tr.getTx(key, tx.id))).toEqual(tx);
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("1000.1234");

      const changed = expectOk(await tr.updateTx(key, tx.id, { type: "Withdrawal", amount: 250 }));
      expect(changed).toEqual({ ...tx, type: "Withdrawal", amount: "250" });
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("-250");
      expect(expectOk(await tr.updateTx(key, tx.id, { date: "2024-02-29", notes: null }))).toEqual({
        ...changed,
        date: "2024-02-29",
        notes: "",
      });

      expect(expectOk(await tr.deleteTx(key, tx.id))).toBe(true);
      expectAbsent(await tr.getTx(key, tx.id));
      expectError(await tr.deleteTx(key, tx.id), "NOT_FOUND", 404);
      expectError(await tr.updateTx(key, tx.id, { amount: 1 }), "NOT_FOUND", 404);
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("0");
    });

    it("signs each type: Deposit and InterestPayment in; Withdrawal, Fee and InterestCharged out", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      for (const [type, amount] of [
        ["Deposit", "1000"],
        ["Withdrawal", "250.25"],
        ["Fee", "9.95"],
        ["InterestPayment", "1.2345"],
        ["InterestCharged", "0.5"],
      ]) {
        expectOk(await tr.createTx(key, { cashAccountId: a.id, type, date: "2024-01-02", amount }));
      }
      const ledger = expectOk(await tr.ledger(key, a.id));
      expect(ledger.map((m) => [m.type, m.amount, m.balance])).toEqual([
        ["Deposit", "1000", "1000"],
        ["Withdrawal", "-250.25", "749.75"],
        ["Fee", "-9.95", "739.8"],
        ["InterestPayment", "1.2345", "741.0345"],
        ["InterestCharged", "-0.5", "740.5345"],
      ]);
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("740.5345");
    });

    it("moves a transaction to another account of the same currency, not of another (422)", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      const b = await newAccount(key, portfolioId, { name: "Second AUD" });
      const usd = await newAccount(key, portfolioId, { name: "USD", currencyCode: "USD" });
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 75);
      expect(expectOk(await tr.updateTx(key, tx.id, { cashAccountId: b.id }))).toEqual({ ...tx, cashAccountId: b.id });
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("0");
      expect(expectOk(await tr.getAccount(key, b.id))!.balance).toBe("75");
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.updateTx(key, tx.id, { cashAccountId: usd.id }), "BUSINESS_RULE", 422);
      expectError(await tr.updateTx(key, tx.id, { cashAccountId: 999999 }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    const BAD_TXS: [string, Record<string, unknown>, string, boolean][] = [
      ["amount 0", { amount: 0 }, "amount", false],
      ["a negative amount", { amount: "-5" }, "amount", false],
      ["5 decimals", { amount: "1.23456" }, "amount", false],
      ['amount "abc"', { amount: "abc" }, "amount", false],
      ["amount 1e3 as a string", { amount: "1e3" }, "amount", false],
      ["an amount beyond DECIMAL(19,4)", { amount: "1000000000000000" }, "amount", false],
      ['type "Bonus"', { type: "Bonus" }, "type", true],
      ["date 2024-02-30", { date: "2024-02-30" }, "date", false],
      ["date 02/01/2024", { date: "02/01/2024" }, "date", false],
      ["notes with a NUL character", { notes: "a\u0000b" }, "notes", false],
    ];

    it.each(BAD_TXS)("rejects %s on create, writing nothing", async (_label, fields, path, graphqlTyped) => {
      const a = await newAccount(key, await newPortfolio(key));
      const before = await ledgerSnapshot(t.db);
      (graphqlTyped ? expectInvalidOrBadUserInput : expectInvalid)(
        await tr.createTx(key, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 10, ...fields }),
        path,
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it.each(BAD_TXS)("rejects %s on update, writing nothing", async (_label, fields, path, graphqlTyped) => {
      const a = await newAccount(key, await newPortfolio(key));
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const before = await ledgerSnapshot(t.db);
      (graphqlTyped ? expectInvalidOrBadUserInput : expectInvalid)(await tr.updateTx(key, tx.id, fields), path);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("reports every bad field at once and needs an existing account", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.createTx(key, {
        cashAccountId: "0",
        type: "Deposit",
        date: "2024-13-01",
        amount: 0,
        notes: "x",
      });
      expectError(o, "VALIDATION_FAILED", 400);
      expect(new Set(o.errors!.map((e) => e.path))).toEqual(new Set(["cashAccountId", "date", "amount"]));
      expectError(
        await tr.createTx(key, { cashAccountId: 999999, type: "Deposit", date: "2024-01-02", amount: 1 }),
        "NOT_FOUND",
        404,
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});
