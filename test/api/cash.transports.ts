/**
 * The cash API over REST and GraphQL, for the test/api/cash-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = cashApi(t)`.
 */
import type request from "supertest";
import type { CashLedgerStory } from "../scenarios/cash-ledger-story";
import type { TestApp } from "../support/app";
import { newPortfolio as kitPortfolio, newTrade as kitTrade } from "../factories";
import { expectOk, gqlOutcome as gqlAnswer, restCall, type Outcome } from "../support/outcomes";

/**
 * Cash accounts and their transactions (docs/rules.md §9.2): every
 * operation over REST and GraphQL on the same scenarios, through one small transport interface.
 * The ledger runs a balance over stored cash transactions and, with syncTrades / syncIncome, the
 * portfolio's settled Buy/Sell trades and paid income in the account's currency.
 */

export const TODAY = new Date().toISOString().slice(0, 10);

export interface Account {
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

export interface Movement {
  id: number | null;
  source: "Cash" | "Trade" | "Income";
  sourceId: number;
  type: string;
  date: string;
  amount: string;
  description: string;
  balance: string;
}

export interface CashTx {
  id: number;
  cashAccountId: number;
  type: string;
  date: string;
  amount: string;
  notes: string;
}

export interface Transport {
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

export const ID_FIELDS = ["id", "portfolioId", "cashAccountId", "sourceId"];
export const DECIMAL_FIELDS = ["balance", "amount"];

export function normalise(value: unknown, transport: "REST" | "GraphQL"): unknown {
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

/** The kit's REST and GraphQL outcomes, normalised to this suite's shape. */
export const restOutcome = <T>(res: request.Response, success: number): Promise<Outcome<T>> =>
  restCall(res, success, success === 204 ? () => true as T : (b: unknown) => normalise(b, "REST") as T);
export const gqlOutcome = <T>(
  res: request.Response,
  field: string,
  pick: (v: never) => unknown = (v) => v,
): Outcome<T> => gqlAnswer(res, field, (v: never) => normalise(pick(v), "GraphQL") as T);
export const auth = (k: string) => ({ authorization: k });

export const ACCOUNT = "id portfolioId name currencyCode institution syncTrades syncIncome settlementDays balance";
export const MOVEMENT = "id source sourceId type date amount description balance";
export const TX = "id cashAccountId type date amount notes";

/** The ledger the cash ledger story (test/scenarios/cash-ledger-story.ts) must show. */
export function storyLedger(s: CashLedgerStory): Movement[] {
  return [
    {
      id: s.deposit.id,
      source: "Cash",
      sourceId: s.deposit.id,
      type: "Deposit",
      date: "2024-01-08",
      amount: "20000",
      description: "Opening deposit",
      balance: "20000",
    },
    {
      id: s.fee.id,
      source: "Cash",
      sourceId: s.fee.id,
      type: "Fee",
      date: "2024-01-08",
      amount: "-9.95",
      description: "Account fee",
      balance: "19990.05",
    },
    {
      id: null,
      source: "Trade",
      sourceId: s.buy.id,
      type: "Buy",
      date: "2024-01-08",
      amount: "-10010",
      description: "Buy 100 CBA.ASX @ 100",
      balance: "9980.05",
    },
    {
      id: s.withdrawal.id,
      source: "Cash",
      sourceId: s.withdrawal.id,
      type: "Withdrawal",
      date: "2024-03-05",
      amount: "-500",
      description: "To savings",
      balance: "9480.05",
    },
    {
      id: null,
      source: "Trade",
      sourceId: s.sell.id,
      type: "Sell",
      date: "2024-03-05",
      amount: "4410.05",
      description: "Sell 40 CBA.ASX @ 110.5",
      balance: "13890.1",
    },
    {
      id: null,
      source: "Income",
      sourceId: s.dividend,
      type: "Income",
      date: "2024-03-05",
      amount: "103",
      description: "Dividend CBA.ASX",
      balance: "13993.1",
    },
    {
      id: s.future.id,
      source: "Cash",
      sourceId: s.future.id,
      type: "Deposit",
      date: "2199-01-01",
      amount: "1000",
      description: "Scheduled",
      balance: "14993.1",
    },
  ];
}

/** Both transports and the setup over the suite's app (read inside tests only). */
export function cashApi(t: TestApp) {
  /** A portfolio (named "Cash book" unless given) and a trade (CBA on the ASX, no brokerage, unless given), over REST. */
  const newPortfolio = (k: string, body: Record<string, unknown> = {}) =>
    kitPortfolio(t, k, { name: "Cash book", ...body });
  const newTrade = (k: string, portfolioId: number, body: Record<string, unknown>) =>
    kitTrade(t, k, { portfolioId, symbol: "CBA", exchange: "ASX", brokerage: 0, ...body });

  const rest: Transport = {
    name: "REST",
    listAccounts: async (k, p) => restOutcome(await t.http.get(`/v1/portfolios/${p}/cash-accounts`).set(auth(k)), 200),
    createAccount: async (k, input) =>
      restOutcome(
        await t.http
          .post("/v1/cash-accounts")
          .set(auth(k))
          .send(input as object),
        201,
      ),
    getAccount: async (k, id) => restOutcome(await t.http.get(`/v1/cash-accounts/${id}`).set(auth(k)), 200),
    updateAccount: async (k, id, input) =>
      restOutcome(
        await t.http
          .put(`/v1/cash-accounts/${id}`)
          .set(auth(k))
          .send(input as object),
        200,
      ),
    deleteAccount: async (k, id) => restOutcome(await t.http.delete(`/v1/cash-accounts/${id}`).set(auth(k)), 204),
    ledger: async (k, id, query = {}) =>
      restOutcome(await t.http.get(`/v1/cash-accounts/${id}/transactions`).query(query).set(auth(k)), 200),
    createTx: async (k, input) =>
      restOutcome(
        await t.http
          .post("/v1/cash-transactions")
          .set(auth(k))
          .send(input as object),
        201,
      ),
    getTx: async (k, id) => restOutcome(await t.http.get(`/v1/cash-transactions/${id}`).set(auth(k)), 200),
    updateTx: async (k, id, input) =>
      restOutcome(
        await t.http
          .put(`/v1/cash-transactions/${id}`)
          .set(auth(k))
          .send(input as object),
        200,
      ),
    deleteTx: async (k, id) => restOutcome(await t.http.delete(`/v1/cash-transactions/${id}`).set(auth(k)), 204),
  };

  const graphql: Transport = {
    name: "GraphQL",
    listAccounts: async (k, p) =>
      gqlOutcome(
        await t.gql(k, `query ($p: ID!) { cashAccounts(portfolioId: $p) { ${ACCOUNT} } }`, { p: String(p) }),
        "cashAccounts",
      ),
    createAccount: async (k, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($input: CreateCashAccountInput!) { createCashAccount(input: $input) { ${ACCOUNT} } }`,
          {
            input,
          },
        ),
        "createCashAccount",
      ),
    getAccount: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { cashAccount(id: $id) { ${ACCOUNT} } }`, { id: String(id) }),
        "cashAccount",
      ),
    updateAccount: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdateCashAccountInput!) { updateCashAccount(id: $id, input: $input) { ${ACCOUNT} } }`,
          { id: String(id), input },
        ),
        "updateCashAccount",
      ),
    deleteAccount: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { deleteCashAccount(id: $id) }`, { id: String(id) }),
        "deleteCashAccount",
      ),
    ledger: async (k, id, query = {}) => {
      const res = await t.gql(
        k,
        `query ($id: ID!, $limit: Int, $offset: Int, $from: Date, $to: Date) {
        cashAccount(id: $id) { transactions(limit: $limit, offset: $offset, from: $from, to: $to) { ${MOVEMENT} } }
      }`,
        { id: String(id), ...query },
      );
      // An account the caller cannot see is null here; the same outcome as REST's 404.
      if (!res.body.errors && res.body.data?.cashAccount === null)
        return { ok: false, transport: "GraphQL", status: 200, code: "NOT_FOUND", raw: res.text, res };
      return gqlOutcome(res, "cashAccount", (a: { transactions: unknown }) => a.transactions);
    },
    createTx: async (k, input) =>
      gqlOutcome(
        await t.gql(k, `mutation ($input: CashTransactionInput!) { createCashTransaction(input: $input) { ${TX} } }`, {
          input,
        }),
        "createCashTransaction",
      ),
    getTx: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `query ($id: ID!) { cashTransaction(id: $id) { ${TX} } }`, { id: String(id) }),
        "cashTransaction",
      ),
    updateTx: async (k, id, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `mutation ($id: ID!, $input: UpdateCashTransactionInput!) { updateCashTransaction(id: $id, input: $input) { ${TX} } }`,
          { id: String(id), input },
        ),
        "updateCashTransaction",
      ),
    deleteTx: async (k, id) =>
      gqlOutcome(
        await t.gql(k, `mutation ($id: ID!) { deleteCashTransaction(id: $id) }`, { id: String(id) }),
        "deleteCashTransaction",
      ),
  };

  // ---- fixtures, written over REST (and income straight to the database) ----

  async function newAccount(k: string, portfolioId: number, body: Record<string, unknown> = {}): Promise<Account> {
    return expectOk(await rest.createAccount(k, { portfolioId, name: "Broker cash", currencyCode: "AUD", ...body }));
  }

  async function newTx(
    k: string,
    cashAccountId: number,
    type: string,
    date: string,
    amount: string | number,
    notes = "",
  ): Promise<CashTx> {
    return expectOk(await rest.createTx(k, { cashAccountId, type, date, amount, notes }));
  }

  async function newIncome(portfolioId: number, holdingId: number, fields: Record<string, unknown>): Promise<number> {
    const row = await t.db.prisma.income.create({
      data: {
        portfolioId,
        holdingId,
        exDividendDate: new Date("2024-02-20T00:00:00Z"),
        paidDate: new Date("2024-03-05T00:00:00Z"),
        currencyCode: "AUD",
        ...fields,
      },
    });
    return row.id;
  }

  return { newPortfolio, newTrade, rest, graphql, newAccount, newTx, newIncome };
}
