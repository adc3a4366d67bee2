import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectAbsent, expectInvalid, expectOk, type Json } from "../support/outcomes";
import {
  toLine,
  type Params,
  type Transport,
  QUERY,
  portfolioTransactionsApi,
} from "./portfolio-transactions.transports";

/**
 * Bad parameters, tenancy and client keys, and what one transport alone answers (REST's 400s and
 * 401, GraphQL's null arguments and every portfolio in one query).
 *
 * A portfolio's transactions (docs/conventions.md §6: GET /v1/portfolios/{p}/transactions; GraphQL
 * Portfolio.transactions): one ledger of trades, income and cash transactions, newest first, the
 * same day ordered as transactions.service.ts documents it (income, then trades, then cash; within
 * each, the newest entry first), with `from`, `to`, `type`, `limit` and `offset`. Both transports
 * run the same scenarios through the `Transport` adapters of ./portfolio-transactions.transports.ts.
 *
 * Cash accounts and cash transactions are written straight to the database (the cash API is not
 * what is under test here); trades and income go through REST.
 */

const t = useTestApp();
let key: string;
const { rest, graphql, seedLedger } = portfolioTransactionsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

// =============================================================================================

describe.each([rest, graphql])("portfolio transactions over $name", (tr) => {
  describe("bad parameters: VALIDATION_FAILED naming the parameter", () => {
    const BAD: [string, Params, string][] = [
      ["type=Nope", { type: "Nope" }, "type"],
      ["type in lower case (buy)", { type: "buy" }, "type"],
      ["from after to", { from: "2024-05-01", to: "2024-01-01" }, "to"],
      ["limit 0", { limit: 0 }, "limit"],
      ["limit 5001", { limit: 5001 }, "limit"],
      ["a negative offset", { offset: -1 }, "offset"],
      ["from that is not a calendar date", { from: "2024-02-30" }, "from"],
      ["to that is not a date", { to: "01/03/2024" }, "to"],
    ];
    it.each(BAD)("%s", async (_label, params, path) => {
      const p = await newPortfolio(t, key);
      const o = await tr.list(key, p, params);
      // GraphQL's PortfolioTransactionFilter enum refuses an unknown type before the service:
      // BAD_USER_INPUT (docs/conventions.md §9.3).
      if (o.transport === "GraphQL" && path === "type") expect(!o.ok && o.code).toBe("BAD_USER_INPUT");
      else expectInvalid(o, path);
    });
  });

  describe("tenancy", () => {
    it("another account's portfolio, or one that does not exist, is absent", async () => {
      const { portfolioId } = await seedLedger(key);
      const intruder = await t.newAccount();
      await newPortfolio(t, intruder);
      expectAbsent(await tr.list(intruder, portfolioId));
      expectAbsent(await tr.list(key, 999999));
    });

    it("a Read client key reads the ledger of its portfolio, and no other", async () => {
      const { portfolioId, ledger } = await seedLedger(key);
      const hidden = await newPortfolio(t, key, { name: "Not assigned" });
      const reader = await t.newClientKey(key, "Read", [portfolioId]);
      expect(expectOk(await tr.list(reader, portfolioId))).toEqual(ledger);
      expectAbsent(await tr.list(reader, hidden));
    });
  });
});

describe("portfolio transactions over REST only", () => {
  it.each([
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["offset=x", "offset"],
  ])("rejects %s with 400 naming the parameter", async (query, path) => {
    const p = await newPortfolio(t, key);
    const res = await t.http.get(`/v1/portfolios/${p}/transactions?${query}`).set("authorization", key);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it("answers 401 without a key", async () => {
    const p = await newPortfolio(t, key);
    expect((await t.http.get(`/v1/portfolios/${p}/transactions`)).status).toBe(401);
  });
});

describe("portfolio transactions over GraphQL only", () => {
  it("arguments given as null mean no filter (GraphQL nullable arguments)", async () => {
    const { portfolioId, ledger } = await seedLedger(key);
    const res = await t.gql(key, QUERY, {
      p: String(portfolioId),
      from: null,
      to: null,
      type: null,
      limit: null,
      offset: null,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolio.transactions.map((l: Json) => toLine(l, "GraphQL"))).toEqual(ledger);
  });

  it("transactions of every portfolio in one query", async () => {
    const { portfolioId, ledger } = await seedLedger(key);
    const res = await t.gql(key, `{ portfolios { id transactions(limit: 2) { kind id } } }`);
    expect(res.body.errors).toBeUndefined();
    const mine = res.body.data.portfolios.find((p: { id: string }) => p.id === String(portfolioId));
    expect(mine.transactions).toEqual(ledger.slice(0, 2).map((l) => ({ kind: l.kind, id: String(l.id) })));
  });
});
