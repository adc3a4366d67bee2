import type request from "supertest";
import { settlementDate } from "../../src/modules/cash/cash.service";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Cash accounts and their transactions (API.md §2 "Cash accounts and their transactions"): every
 * operation over REST and GraphQL on the same scenarios, through one small transport interface.
 * The ledger runs a balance over stored cash transactions and, with syncTrades / syncIncome, the
 * portfolio's settled Buy/Sell trades and paid income in the account's currency.
 */

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

const TODAY = new Date().toISOString().slice(0, 10);

interface Account {
  id: number;
  portfolioId: number;
  name: string;
  currencyCode: string;
  institution: string | null;
  syncTrades: boolean;
  syncIncome: boolean;
  settlementDays: number;
  /** A decimal string on both transports after normalising. */
  balance: string;
}

interface Movement {
  id: number | null;
  source: "Cash" | "Trade" | "Income";
  sourceId: number;
  type: string;
  date: string;
  amount: string;
  description: string;
  balance: string;
}

interface CashTx {
  id: number;
  cashAccountId: number;
  type: string;
  date: string;
  amount: string;
  notes: string;
}

interface FieldError {
  path: string;
  message: string;
}

interface Outcome<T> {
  status: number;
  data?: T;
  code?: string;
  errors?: FieldError[];
  res?: request.Response;
}

interface Transport {
  name: "REST" | "GraphQL";
  listAccounts(k: string, portfolioId: unknown): Promise<Outcome<Account[]>>;
  createAccount(k: string, input: unknown): Promise<Outcome<Account>>;
  getAccount(k: string, id: unknown): Promise<Outcome<Account | null>>;
  updateAccount(k: string, id: unknown, input: unknown): Promise<Outcome<Account>>;
  deleteAccount(k: string, id: unknown): Promise<Outcome<boolean>>;
  ledger(k: string, id: unknown, query?: Record<string, unknown>): Promise<Outcome<Movement[]>>;
  createTx(k: string, input: unknown): Promise<Outcome<CashTx>>;
  getTx(k: string, id: unknown): Promise<Outcome<CashTx | null>>;
  updateTx(k: string, id: unknown, input: unknown): Promise<Outcome<CashTx>>;
  deleteTx(k: string, id: unknown): Promise<Outcome<boolean>>;
}

// ---- normalising both transports to one shape: integer ids, decimal strings ----

const ID_FIELDS = ["id", "portfolioId", "cashAccountId", "sourceId"];
const DECIMAL_FIELDS = ["balance", "amount"];

function normalise(value: unknown, transport: "REST" | "GraphQL"): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, transport));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const f of ID_FIELDS) {
    if (transport === "GraphQL" && typeof out[f] === "string") {
      expect(out[f]).toMatch(/^\d+$/);
      out[f] = Number(out[f]);
    }
  }
  for (const f of DECIMAL_FIELDS) {
    if (transport === "REST" && typeof out[f] === "number") out[f] = String(out[f]);
  }
  return out;
}

function restOutcome<T>(res: request.Response, success: number): Outcome<T> {
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), detail: expect.any(String) });
    return { status: res.status, code: res.body.code, errors: res.body.errors, res };
  }
  expect(res.status).toBe(success);
  if (success === 204) return { status: res.status, data: true as T, res };
  return { status: res.status, data: normalise(res.body, "REST") as T, res };
}

function gqlOutcome<T>(res: request.Response, field: string, pick: (v: never) => unknown = (v) => v): Outcome<T> {
  const errors = res.body.errors as { extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    return { status: res.status, code: errors[0].extensions?.code, errors: errors[0].extensions?.errors, res };
  }
  expect(res.status).toBe(200);
  return { status: res.status, data: normalise(pick(res.body.data[field] as never), "GraphQL") as T, res };
}

const auth = (k: string) => ({ authorization: k });

const rest: Transport = {
  name: "REST",
  listAccounts: async (k, p) => restOutcome(await t.http.get(`/v1/portfolios/${p}/cash-accounts`).set(auth(k)), 200),
  createAccount: async (k, input) => restOutcome(await t.http.post("/v1/cash-accounts").set(auth(k)).send(input as object), 201),
  getAccount: async (k, id) => restOutcome(await t.http.get(`/v1/cash-accounts/${id}`).set(auth(k)), 200),
  updateAccount: async (k, id, input) => restOutcome(await t.http.put(`/v1/cash-accounts/${id}`).set(auth(k)).send(input as object), 200),
  deleteAccount: async (k, id) => restOutcome(await t.http.delete(`/v1/cash-accounts/${id}`).set(auth(k)), 204),
  ledger: async (k, id, query = {}) => restOutcome(await t.http.get(`/v1/cash-accounts/${id}/transactions`).query(query).set(auth(k)), 200),
  createTx: async (k, input) => restOutcome(await t.http.post("/v1/cash-transactions").set(auth(k)).send(input as object), 201),
  getTx: async (k, id) => restOutcome(await t.http.get(`/v1/cash-transactions/${id}`).set(auth(k)), 200),
  updateTx: async (k, id, input) => restOutcome(await t.http.put(`/v1/cash-transactions/${id}`).set(auth(k)).send(input as object), 200),
  deleteTx: async (k, id) => restOutcome(await t.http.delete(`/v1/cash-transactions/${id}`).set(auth(k)), 204),
};

const ACCOUNT = "id portfolioId name currencyCode institution syncTrades syncIncome settlementDays balance";
const MOVEMENT = "id source sourceId type date amount description balance";
const TX = "id cashAccountId type date amount notes";

const graphql: Transport = {
  name: "GraphQL",
  listAccounts: async (k, p) => gqlOutcome(await t.gql(k, `query ($p: ID!) { cashAccounts(portfolioId: $p) { ${ACCOUNT} } }`, { p: String(p) }), "cashAccounts"),
  createAccount: async (k, input) =>
    gqlOutcome(await t.gql(k, `mutation ($input: CreateCashAccountInput!) { createCashAccount(input: $input) { ${ACCOUNT} } }`, { input }), "createCashAccount"),
  getAccount: async (k, id) => gqlOutcome(await t.gql(k, `query ($id: ID!) { cashAccount(id: $id) { ${ACCOUNT} } }`, { id: String(id) }), "cashAccount"),
  updateAccount: async (k, id, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!, $input: UpdateCashAccountInput!) { updateCashAccount(id: $id, input: $input) { ${ACCOUNT} } }`, { id: String(id), input }),
      "updateCashAccount",
    ),
  deleteAccount: async (k, id) => gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteCashAccount(id: $id) }`, { id: String(id) }), "deleteCashAccount"),
  ledger: async (k, id, query = {}) => {
    const res = await t.gql(
      k,
      `query ($id: ID!, $limit: Int, $offset: Int, $from: Date, $to: Date) {
        cashAccount(id: $id) { transactions(limit: $limit, offset: $offset, from: $from, to: $to) { ${MOVEMENT} } }
      }`,
      { id: String(id), ...query },
    );
    // An account the caller cannot see is null here; the same outcome as REST's 404.
    if (!res.body.errors && res.body.data?.cashAccount === null) return { status: 200, code: "NOT_FOUND", res };
    return gqlOutcome(res, "cashAccount", (a: { transactions: unknown }) => a.transactions);
  },
  createTx: async (k, input) =>
    gqlOutcome(await t.gql(k, `mutation ($input: CashTransactionInput!) { createCashTransaction(input: $input) { ${TX} } }`, { input }), "createCashTransaction"),
  getTx: async (k, id) => gqlOutcome(await t.gql(k, `query ($id: ID!) { cashTransaction(id: $id) { ${TX} } }`, { id: String(id) }), "cashTransaction"),
  updateTx: async (k, id, input) =>
    gqlOutcome(
      await t.gql(k, `mutation ($id: ID!, $input: UpdateCashTransactionInput!) { updateCashTransaction(id: $id, input: $input) { ${TX} } }`, { id: String(id), input }),
      "updateCashTransaction",
    ),
  deleteTx: async (k, id) => gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteCashTransaction(id: $id) }`, { id: String(id) }), "deleteCashTransaction"),
};

function expectFailure(tr: Transport, o: Outcome<unknown>, code: string, status: number): void {
  expect({ code: o.code, data: o.data }).toEqual({ code, data: undefined });
  if (tr.name === "REST") expect(o.status).toBe(status);
}

/** VALIDATION_FAILED naming exactly this path (GraphQL's own type errors say BAD_USER_INPUT). */
function expectInvalid(tr: Transport, o: Outcome<unknown>, path: string, graphqlTyped = false): void {
  if (tr.name === "GraphQL" && graphqlTyped) {
    expect(o.code).toBe("BAD_USER_INPUT");
    return;
  }
  expectFailure(tr, o, "VALIDATION_FAILED", 400);
  expect(o.errors!.length).toBeGreaterThanOrEqual(1);
  for (const e of o.errors!) expect(e).toEqual({ path, message: expect.any(String) });
}

/** Reads that find nothing: REST 404, GraphQL null without an error. */
function expectAbsent(tr: Transport, o: Outcome<unknown>): void {
  if (tr.name === "REST") return expectFailure(tr, o, "NOT_FOUND", 404);
  expect(o.code).toBeUndefined();
  expect(o.data).toBeNull();
}

function ok<T>(o: Outcome<T>): T {
  expect({ code: o.code, errors: o.errors }).toEqual({ code: undefined, errors: undefined });
  return o.data as T;
}

// ---- fixtures, written over REST (and income straight to the database) ----

async function newPortfolio(k: string, body: Record<string, unknown> = {}): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set(auth(k)).send({ name: "Cash book", ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function newAccount(k: string, portfolioId: number, body: Record<string, unknown> = {}): Promise<Account> {
  return ok(await rest.createAccount(k, { portfolioId, name: "Broker cash", currencyCode: "AUD", ...body }));
}

async function newTx(k: string, cashAccountId: number, type: string, date: string, amount: string | number, notes = ""): Promise<CashTx> {
  return ok(await rest.createTx(k, { cashAccountId, type, date, amount, notes }));
}

async function newTrade(k: string, portfolioId: number, body: Record<string, unknown>): Promise<{ id: number; holdingId: number }> {
  const res = await t.http.post("/v1/trades").set(auth(k)).send({ portfolioId, symbol: "CBA", exchange: "ASX", brokerage: 0, ...body });
  expect(res.status).toBe(201);
  return res.body;
}

async function newIncome(portfolioId: number, holdingId: number, fields: Record<string, unknown>): Promise<number> {
  const row = await t.db.prisma.income.create({
    data: { portfolioId, holdingId, exDividendDate: new Date("2024-02-20T00:00:00Z"), paidDate: new Date("2024-03-05T00:00:00Z"), currencyCode: "AUD", ...fields },
  });
  return row.id;
}

const utc = (d: string) => new Date(d + "T00:00:00Z");

/**
 * The ledger story: an AUD broker account syncing trades (T+2) and income, with cash on the same
 * days as a settlement, trades and income that must not move it (another currency, not settled,
 * not a Buy or Sell, reinvested, not yet paid), and a deposit dated in the future.
 */
async function ledgerStory(k: string) {
  const portfolioId = await newPortfolio(k);
  const account = await newAccount(k, portfolioId, { syncTrades: true, syncIncome: true });
  const deposit = await newTx(k, account.id, "Deposit", "2024-01-08", 20000, "Opening deposit");
  const withdrawal = await newTx(k, account.id, "Withdrawal", "2024-03-05", "500", "To savings");
  const fee = await newTx(k, account.id, "Fee", "2024-01-08", "9.95", "Account fee");
  const future = await newTx(k, account.id, "Deposit", "2199-01-01", 1000, "Scheduled");
  // Thursday + 2 business days = Monday 2024-01-08.
  const buy = await newTrade(k, portfolioId, { tradeType: "Buy", tradeDate: "2024-01-04", quantity: 100, price: 100, brokerage: 10 });
  // Friday + 2 business days = Tuesday 2024-03-05.
  const sell = await newTrade(k, portfolioId, { tradeType: "Sell", tradeDate: "2024-03-01", quantity: 40, price: "110.5", brokerage: "9.95" });
  await newTrade(k, portfolioId, { tradeType: "Split", tradeDate: "2024-04-02", quantity: 60 });
  const usd = await newTrade(k, portfolioId, { symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate: "2024-02-01", quantity: 10, price: 150, brokerage: 5, exchangeRate: "1.5" });
  await newTrade(k, portfolioId, { tradeType: "Buy", tradeDate: TODAY, quantity: 1, price: 120 });
  const dividend = await newIncome(portfolioId, buy.holdingId, { frankedAmount: "70", unfrankedAmount: "30", foreignIncome: "5", withholdingTax: "2" });
  await newIncome(portfolioId, buy.holdingId, { frankedAmount: "50", isReinvested: true, paidDate: utc("2024-02-01") });
  await newIncome(portfolioId, buy.holdingId, { frankedAmount: "80", paidDate: utc("2199-12-31") });
  const usdIncome = await newIncome(portfolioId, usd.holdingId, { unfrankedAmount: "12", withholdingTax: "1.8", currencyCode: "USD", paidDate: utc("2024-02-15") });
  return { portfolioId, account, deposit, withdrawal, fee, future, buy, sell, usd, dividend, usdIncome };
}

function storyLedger(s: Awaited<ReturnType<typeof ledgerStory>>): Movement[] {
  return [
    { id: s.deposit.id, source: "Cash", sourceId: s.deposit.id, type: "Deposit", date: "2024-01-08", amount: "20000", description: "Opening deposit", balance: "20000" },
    { id: s.fee.id, source: "Cash", sourceId: s.fee.id, type: "Fee", date: "2024-01-08", amount: "-9.95", description: "Account fee", balance: "19990.05" },
    { id: null, source: "Trade", sourceId: s.buy.id, type: "Buy", date: "2024-01-08", amount: "-10010", description: "Buy 100 CBA.ASX @ 100", balance: "9980.05" },
    { id: s.withdrawal.id, source: "Cash", sourceId: s.withdrawal.id, type: "Withdrawal", date: "2024-03-05", amount: "-500", description: "To savings", balance: "9480.05" },
    { id: null, source: "Trade", sourceId: s.sell.id, type: "Sell", date: "2024-03-05", amount: "4410.05", description: "Sell 40 CBA.ASX @ 110.5", balance: "13890.1" },
    { id: null, source: "Income", sourceId: s.dividend, type: "Income", date: "2024-03-05", amount: "103", description: "Dividend CBA.ASX", balance: "13993.1" },
    { id: s.future.id, source: "Cash", sourceId: s.future.id, type: "Deposit", date: "2199-01-01", amount: "1000", description: "Scheduled", balance: "14993.1" },
  ];
}

describe("settlementDate", () => {
  it.each([
    ["2024-01-04", 2, "2024-01-08"], // Thursday → Monday
    ["2024-03-01", 1, "2024-03-04"], // Friday → Monday
    ["2024-03-01", 0, "2024-03-01"],
    ["2024-03-02", 0, "2024-03-02"], // a Saturday trade with T+0 settles that day
    ["2024-03-02", 1, "2024-03-04"], // Saturday → Monday
    ["2024-03-01", 5, "2024-03-08"],
    ["2024-03-01", 10, "2024-03-15"],
  ])("%s + %i business days = %s", (date, days, expected) => {
    expect(settlementDate(date, days)).toBe(expected);
  });
});

describe.each([rest, graphql])("cash accounts over $name", (tr) => {
  describe("accounts", () => {
    it("creates an account with the documented defaults and a zero balance", async () => {
      const portfolioId = await newPortfolio(key);
      const o = await tr.createAccount(key, { portfolioId: tr.name === "REST" ? portfolioId : String(portfolioId), name: "  Everyday  ", currencyCode: "AUD" });
      const a = ok(o);
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res!.body).sort()).toEqual(["balance", "currencyCode", "id", "institution", "name", "portfolioId", "settlementDays", "syncIncome", "syncTrades"]);
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
      expect(ok(await tr.getAccount(key, a.id))).toEqual(a);
      expect(ok(await rest.getAccount(key, a.id))).toEqual(a);
    });

    it("keeps every field given and lists the portfolio's accounts by id, with balances", async () => {
      const portfolioId = await newPortfolio(key);
      const other = await newPortfolio(key, { name: "Other" });
      const a = ok(await tr.createAccount(key, { portfolioId, name: "USD", currencyCode: "USD", institution: "Interactive Brokers", syncTrades: true, syncIncome: true, settlementDays: 0 }));
      expect(a).toMatchObject({ currencyCode: "USD", institution: "Interactive Brokers", syncTrades: true, syncIncome: true, settlementDays: 0, balance: "0" });
      const b = ok(await tr.createAccount(key, { portfolioId, name: "AUD", currencyCode: "AUD", settlementDays: 10 }));
      await newAccount(key, other);
      await newTx(key, b.id, "Deposit", "2024-05-01", "1234.5678");
      expect(ok(await tr.listAccounts(key, portfolioId))).toEqual([a, { ...b, balance: "1234.5678" }]);
      expect(ok(await tr.listAccounts(key, await newPortfolio(key, { name: "Empty" })))).toEqual([]);
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
      expectInvalid(tr, await tr.createAccount(key, { portfolioId, name: "Valid", currencyCode: "AUD", ...fields }), path, graphqlTyped);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it.each(BAD_ACCOUNTS.filter(([, f]) => !("portfolioId" in f)))("rejects %s on update, writing nothing", async (_label, fields, path, graphqlTyped) => {
      const a = await newAccount(key, await newPortfolio(key));
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.updateAccount(key, a.id, fields), path, graphqlTyped);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("updates the fields given and leaves the others; null clears the institution", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { institution: "CommSec" });
      const renamed = ok(await tr.updateAccount(key, a.id, { name: "Renamed", settlementDays: 3, syncIncome: true }));
      expect(renamed).toEqual({ ...a, name: "Renamed", settlementDays: 3, syncIncome: true });
      expect(ok(await tr.updateAccount(key, a.id, { institution: null }))).toEqual({ ...renamed, institution: null });
      expect(ok(await tr.updateAccount(key, a.id, { portfolioId }))).toEqual({ ...renamed, institution: null });
      // Without cash transactions the currency may still change.
      expect(ok(await tr.updateAccount(key, a.id, { currencyCode: "NZD" })).currencyCode).toBe("NZD");
    });

    it("refuses to move an account to another portfolio, or to change its currency once it has transactions (422)", async () => {
      const portfolioId = await newPortfolio(key);
      const other = await newPortfolio(key, { name: "Other" });
      const a = await newAccount(key, portfolioId);
      await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.updateAccount(key, a.id, { portfolioId: other, name: "Moved" }), "BUSINESS_RULE", 422);
      expectFailure(tr, await tr.updateAccount(key, a.id, { currencyCode: "USD" }), "BUSINESS_RULE", 422);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("deletes an account with its transactions; afterwards it is gone", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      const keep = await newAccount(key, portfolioId, { name: "Kept" });
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const kept = await newTx(key, keep.id, "Deposit", "2024-01-02", 20);
      expect(ok(await tr.deleteAccount(key, a.id))).toBe(true);
      expectAbsent(tr, await tr.getAccount(key, a.id));
      expectAbsent(tr, await tr.getTx(key, tx.id));
      expect(ok(await tr.getTx(key, kept.id))).toEqual(kept);
      expectFailure(tr, await tr.deleteAccount(key, a.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.ledger(key, a.id), "NOT_FOUND", 404);
      expect(ok(await tr.listAccounts(key, portfolioId))).toEqual([{ ...keep, balance: "20" }]);
    });

    it("deleting the portfolio deletes its accounts", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      await t.http.delete(`/v1/portfolios/${portfolioId}`).set(auth(key)).expect(204);
      expectAbsent(tr, await tr.getAccount(key, a.id));
      expect(await t.db.sql("SELECT * FROM cash_transaction")).toEqual([]);
    });

    it("answers NOT_FOUND for unknown ids and rejects malformed ones", async () => {
      const before = await ledgerSnapshot(t.db);
      expectAbsent(tr, await tr.getAccount(key, 999999));
      expectFailure(tr, await tr.updateAccount(key, 999999, { name: "x" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.deleteAccount(key, 999999), "NOT_FOUND", 404);
      expectFailure(tr, await tr.listAccounts(key, 999999), "NOT_FOUND", 404);
      expectFailure(tr, await tr.createAccount(key, { portfolioId: 999999, name: "x", currencyCode: "AUD" }), "NOT_FOUND", 404);
      expectInvalid(tr, await tr.getAccount(key, "abc"), "cashAccountId");
      expectInvalid(tr, await tr.deleteAccount(key, "0"), "cashAccountId");
      expectInvalid(tr, await tr.listAccounts(key, "1.5"), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("cash transactions", () => {
    it("enters, reads, updates and deletes a transaction; the balance follows", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      const o = await tr.createTx(key, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: "1000.1234", notes: "  salary  " });
      const tx = ok(o);
      if (tr.name === "REST") expect(o.status).toBe(201);
      // Notes are kept as written (not trimmed), like trade notes.
      expect(tx).toEqual({ id: expect.any(Number), cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: "1000.1234", notes: "  salary  " });
      expect(ok(await tr.getTx(key, tx.id))).toEqual(tx);
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("1000.1234");

      const changed = ok(await tr.updateTx(key, tx.id, { type: "Withdrawal", amount: 250 }));
      expect(changed).toEqual({ ...tx, type: "Withdrawal", amount: "250" });
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("-250");
      expect(ok(await tr.updateTx(key, tx.id, { date: "2024-02-29", notes: null }))).toEqual({ ...changed, date: "2024-02-29", notes: "" });

      expect(ok(await tr.deleteTx(key, tx.id))).toBe(true);
      expectAbsent(tr, await tr.getTx(key, tx.id));
      expectFailure(tr, await tr.deleteTx(key, tx.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.updateTx(key, tx.id, { amount: 1 }), "NOT_FOUND", 404);
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("0");
    });

    it("signs each type: Deposit and InterestPayment in; Withdrawal, Fee and InterestCharged out", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      for (const [type, amount] of [["Deposit", "1000"], ["Withdrawal", "250.25"], ["Fee", "9.95"], ["InterestPayment", "1.2345"], ["InterestCharged", "0.5"]]) {
        ok(await tr.createTx(key, { cashAccountId: a.id, type, date: "2024-01-02", amount }));
      }
      const ledger = ok(await tr.ledger(key, a.id));
      expect(ledger.map((m) => [m.type, m.amount, m.balance])).toEqual([
        ["Deposit", "1000", "1000"],
        ["Withdrawal", "-250.25", "749.75"],
        ["Fee", "-9.95", "739.8"],
        ["InterestPayment", "1.2345", "741.0345"],
        ["InterestCharged", "-0.5", "740.5345"],
      ]);
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("740.5345");
    });

    it("moves a transaction to another account of the same currency, not of another (422)", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId);
      const b = await newAccount(key, portfolioId, { name: "Second AUD" });
      const usd = await newAccount(key, portfolioId, { name: "USD", currencyCode: "USD" });
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 75);
      expect(ok(await tr.updateTx(key, tx.id, { cashAccountId: b.id }))).toEqual({ ...tx, cashAccountId: b.id });
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("0");
      expect(ok(await tr.getAccount(key, b.id))!.balance).toBe("75");
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.updateTx(key, tx.id, { cashAccountId: usd.id }), "BUSINESS_RULE", 422);
      expectFailure(tr, await tr.updateTx(key, tx.id, { cashAccountId: 999999 }), "NOT_FOUND", 404);
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
      expectInvalid(tr, await tr.createTx(key, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 10, ...fields }), path, graphqlTyped);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it.each(BAD_TXS)("rejects %s on update, writing nothing", async (_label, fields, path, graphqlTyped) => {
      const a = await newAccount(key, await newPortfolio(key));
      const tx = await newTx(key, a.id, "Deposit", "2024-01-02", 10);
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.updateTx(key, tx.id, fields), path, graphqlTyped);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("reports every bad field at once and needs an existing account", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.createTx(key, { cashAccountId: "0", type: "Deposit", date: "2024-13-01", amount: 0, notes: "x" });
      expectFailure(tr, o, "VALIDATION_FAILED", 400);
      expect(new Set(o.errors!.map((e) => e.path))).toEqual(new Set(["cashAccountId", "date", "amount"]));
      expectFailure(tr, await tr.createTx(key, { cashAccountId: 999999, type: "Deposit", date: "2024-01-02", amount: 1 }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("ledger", () => {
    it("runs a balance over cash, settled trades and paid income in the account's currency, oldest first", async () => {
      const s = await ledgerStory(key);
      const o = await tr.ledger(key, s.account.id);
      expect(ok(o)).toEqual(storyLedger(s));
      if (tr.name === "REST") {
        // Money is written as JSON numbers, exactly.
        expect(o.res!.text).toContain('"amount":4410.05,');
        expect(o.res!.text).toContain('"balance":13890.1}');
      }
      // The account's balance is as of today: the future deposit is not in it yet.
      expect(ok(await tr.getAccount(key, s.account.id))!.balance).toBe("13993.1");
      expect(ok(await tr.listAccounts(key, s.portfolioId))![0].balance).toBe("13993.1");
    });

    it("pages and filters by date with the true running balance", async () => {
      const s = await ledgerStory(key);
      const all = storyLedger(s);
      expect(ok(await tr.ledger(key, s.account.id, { limit: 2, offset: 2 }))).toEqual(all.slice(2, 4));
      expect(ok(await tr.ledger(key, s.account.id, { offset: 6 }))).toEqual(all.slice(6));
      expect(ok(await tr.ledger(key, s.account.id, { offset: 7 }))).toEqual([]);
      expect(ok(await tr.ledger(key, s.account.id, { from: "2024-03-01" }))).toEqual(all.slice(3));
      expect(ok(await tr.ledger(key, s.account.id, { to: "2024-01-31" }))).toEqual(all.slice(0, 3));
      expect(ok(await tr.ledger(key, s.account.id, { from: "2024-03-05", to: "2024-03-05", limit: 1, offset: 1 }))).toEqual(all.slice(4, 5));
    });

    it("leaves trades or income out when their sync is off, and counts only the account's currency", async () => {
      const s = await ledgerStory(key);
      ok(await tr.updateAccount(key, s.account.id, { syncTrades: false }));
      expect(ok(await tr.ledger(key, s.account.id)).map((m) => m.source)).toEqual(["Cash", "Cash", "Cash", "Income", "Cash"]);
      expect(ok(await tr.getAccount(key, s.account.id))!.balance).toBe("19593.05");
      const none = ok(await tr.updateAccount(key, s.account.id, { syncIncome: false }));
      expect(none.balance).toBe("19490.05");

      const usd = ok(await tr.createAccount(key, { portfolioId: s.portfolioId, name: "USD", currencyCode: "USD", syncTrades: true, syncIncome: true }));
      expect(usd.balance).toBe("-1494.8");
      expect(ok(await tr.ledger(key, usd.id))).toEqual([
        { id: null, source: "Trade", sourceId: s.usd.id, type: "Buy", date: "2024-02-05", amount: "-1505", description: "Buy 10 AAPL.NASDAQ @ 150", balance: "-1505" },
        { id: null, source: "Income", sourceId: s.usdIncome, type: "Income", date: "2024-02-15", amount: "10.2", description: "Dividend AAPL.NASDAQ", balance: "-1494.8" },
      ]);
    });

    it("settles trades after the account's settlement days, skipping weekends", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { syncTrades: true, settlementDays: 0 });
      await newTrade(key, portfolioId, { tradeType: "Buy", tradeDate: "2024-03-01", quantity: 3, price: "33.3333", brokerage: "0.0001" });
      const dates = async () => ok(await tr.ledger(key, a.id)).map((m) => [m.date, m.amount]);
      // 3 × 33.3333 = 99.9999, plus brokerage.
      expect(await dates()).toEqual([["2024-03-01", "-100"]]);
      ok(await tr.updateAccount(key, a.id, { settlementDays: 1 }));
      expect(await dates()).toEqual([["2024-03-04", "-100"]]);
      ok(await tr.updateAccount(key, a.id, { settlementDays: 10 }));
      expect(await dates()).toEqual([["2024-03-15", "-100"]]);
    });

    it("only counts a trade once it has settled on or before today", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { syncTrades: true, settlementDays: 0 });
      await newTrade(key, portfolioId, { tradeType: "Buy", tradeDate: TODAY, quantity: 1, price: 10 });
      expect(ok(await tr.getAccount(key, a.id))!.balance).toBe("-10");
      const later = ok(await tr.updateAccount(key, a.id, { settlementDays: 1 }));
      expect(later.balance).toBe("0");
      expect(ok(await tr.ledger(key, a.id))).toEqual([]);
    });

    it.each([
      ["limit 0", { limit: 0 }, "limit"],
      ["limit 5001", { limit: 5001 }, "limit"],
      ["offset -1", { offset: -1 }, "offset"],
      ["from 2024-13-01", { from: "2024-13-01" }, "from"],
      ["to before from", { from: "2024-02-01", to: "2024-01-01" }, "to"],
    ])("rejects %s", async (_label, query, path) => {
      const a = await newAccount(key, await newPortfolio(key));
      expectInvalid(tr, await tr.ledger(key, a.id, query), path);
    });

    it("takes up to 5000 rows a page", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      expect(ok(await tr.ledger(key, a.id, { limit: 5000 }))).toEqual([]);
    });
  });

  describe("tenant isolation", () => {
    it("treats another account's portfolio, accounts and transactions as missing, and changes nothing", async () => {
      const other = await t.newAccount();
      const s = await ledgerStory(other);
      const before = await ledgerSnapshot(t.db);
      expectAbsent(tr, await tr.getAccount(key, s.account.id));
      expectAbsent(tr, await tr.getTx(key, s.deposit.id));
      expectFailure(tr, await tr.listAccounts(key, s.portfolioId), "NOT_FOUND", 404);
      expectFailure(tr, await tr.ledger(key, s.account.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.createAccount(key, { portfolioId: s.portfolioId, name: "Mine", currencyCode: "AUD" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.updateAccount(key, s.account.id, { name: "Mine" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.deleteAccount(key, s.account.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.createTx(key, { cashAccountId: s.account.id, type: "Withdrawal", date: "2024-01-02", amount: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.updateTx(key, s.deposit.id, { amount: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.deleteTx(key, s.deposit.id), "NOT_FOUND", 404);
      // Nor can a transaction of mine move into it.
      const mine = await newAccount(key, await newPortfolio(key));
      const tx = await newTx(key, mine.id, "Deposit", "2024-01-02", 5);
      const mid = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.updateTx(key, tx.id, { cashAccountId: s.account.id }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(mid);
      expect(mid).not.toBe(before);
      expect(ok(await tr.ledger(other, s.account.id))).toEqual(storyLedger(s));
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

      const seen = ok(await tr.getAccount(reader, a.id));
      expect(seen).toEqual({ ...a, balance: "5" });
      expect(ok(await tr.listAccounts(reader, mine))).toEqual([seen]);
      expect(ok(await tr.getTx(reader, tx.id))).toEqual(tx);
      expect(ok(await tr.ledger(reader, a.id))).toHaveLength(1);
      expectAbsent(tr, await tr.getAccount(reader, hidden.id));
      expectFailure(tr, await tr.listAccounts(reader, notMine), "NOT_FOUND", 404);

      expectFailure(tr, await tr.createAccount(reader, { portfolioId: mine, name: "New", currencyCode: "AUD" }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.updateAccount(reader, a.id, { name: "Changed" }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.deleteAccount(reader, a.id), "FORBIDDEN", 403);
      expectFailure(tr, await tr.createTx(reader, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 1 }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.updateTx(reader, tx.id, { amount: 1 }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.deleteTx(reader, tx.id), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a ReadWrite key changes its portfolios' cash, and only theirs", async () => {
      const mine = await newPortfolio(key);
      const notMine = await newPortfolio(key, { name: "Not assigned" });
      const hidden = await newAccount(key, notMine);
      const writer = await t.newClientKey(key, "ReadWrite", [mine]);
      const a = ok(await tr.createAccount(writer, { portfolioId: mine, name: "Client cash", currencyCode: "AUD" }));
      const tx = ok(await tr.createTx(writer, { cashAccountId: a.id, type: "Deposit", date: "2024-01-02", amount: 7 }));
      expect(ok(await tr.updateTx(writer, tx.id, { amount: 8 })).amount).toBe("8");
      expect(ok(await tr.updateAccount(writer, a.id, { name: "Renamed" })).balance).toBe("8");
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.createAccount(writer, { portfolioId: notMine, name: "No", currencyCode: "AUD" }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.createTx(writer, { cashAccountId: hidden.id, type: "Deposit", date: "2024-01-02", amount: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.deleteAccount(writer, hidden.id), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect(ok(await tr.deleteTx(writer, tx.id))).toBe(true);
      expect(ok(await tr.deleteAccount(writer, a.id))).toBe(true);
    });
  });
});

describe("Portfolio.cashAccounts (GraphQL)", () => {
  it("answers each portfolio's accounts with balances and ledgers", async () => {
    const s = await ledgerStory(key);
    const empty = await newPortfolio(key, { name: "Empty" });
    const res = await t.gql(key, `{ portfolios { id cashAccounts { id name balance transactions(limit: 2) { type amount balance } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolios).toEqual([
      {
        id: String(s.portfolioId),
        cashAccounts: [
          {
            id: String(s.account.id),
            name: "Broker cash",
            balance: "13993.1",
            transactions: [
              { type: "Deposit", amount: "20000", balance: "20000" },
              { type: "Fee", amount: "-9.95", balance: "19990.05" },
            ],
          },
        ],
      },
      { id: String(empty), cashAccounts: [] },
    ]);
  });

  it("costs the same number of statements for 1 portfolio as for 10", async () => {
    const seed = async (k: string, portfolios: number) => {
      for (let p = 0; p < portfolios; p++) {
        const portfolioId = await newPortfolio(k, { name: `P${p}` });
        const a = await newAccount(k, portfolioId, { syncTrades: true, syncIncome: true });
        await newAccount(k, portfolioId, { name: "Second", currencyCode: "USD", syncTrades: true });
        await newTx(k, a.id, "Deposit", "2024-01-02", 1000);
        const buy = await newTrade(k, portfolioId, { tradeType: "Buy", tradeDate: "2024-01-02", quantity: 1, price: 100 });
        await newIncome(portfolioId, buy.holdingId, { frankedAmount: "7" });
      }
    };
    const small = await t.newAccount("small");
    const large = await t.newAccount("large");
    await seed(small, 1);
    await seed(large, 10);
    const statements = async (k: string) => {
      const before = t.db.statementCount;
      const res = await t.gql(k, "{ portfolios { id cashAccounts { id balance } } }");
      expect(res.body.errors).toBeUndefined();
      return { count: t.db.statementCount - before, portfolios: res.body.data.portfolios };
    };
    const one = await statements(small);
    const many = await statements(large);
    expect(many.portfolios).toHaveLength(10);
    for (const p of many.portfolios) expect(p.cashAccounts.map((a: { balance: string }) => a.balance)).toEqual(["907", "0"]);
    expect(one.count).toBe(many.count);
  });
});
