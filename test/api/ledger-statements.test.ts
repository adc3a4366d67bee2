import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { importTradesJson, measured, utcDate } from "../support/kit";

/**
 * No N+1 over the ledger: reading a portfolio's holdings with their positions, trades and income
 * costs a fixed number of SQL statements however many holdings, trades and income records there
 * are. Holding.trades and Holding.income go through per-request DataLoaders; positions and values
 * come from one ledger load for all holdings (holdings.service.ts valueHoldings).
 *
 * The two portfolios are seeded once (the 5,000-trade import is the slow part) and every test
 * here only reads them, so the database is never reset (the file's own database starts empty).
 */
const t = useTestApp({ reset: "none" });

const LARGE = { holdings: 50, trades: 100, income: 2 };
const SMALL = { holdings: 2, trades: 3, income: 1 };

interface Seeded {
  key: string;
  portfolioId: number;
}
let large: Seeded;
let small: Seeded;

beforeAll(async () => {
  large = await seed(LARGE);
  small = await seed(SMALL);
}, 240_000);

const day = (offset: number) => new Date(Date.UTC(2020, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** Trade j of holding h: a Buy of 10, except every tenth trade, a Sell of 5. */
const isSell = (j: number) => j % 10 === 9;
const priceOf = (h: number, j: number) => (10 + h + j / 100).toFixed(2);

/**
 * A portfolio of `holdings` made-up ASX securities (T001...), each with `trades` trades imported in
 * one JSON array and `income` income records written straight to the database.
 */
async function seed(size: { holdings: number; trades: number; income: number }): Promise<Seeded> {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: `${size.holdings} holdings` });

  const rows = [];
  for (let h = 0; h < size.holdings; h++) {
    for (let j = 0; j < size.trades; j++) {
      rows.push({
        symbol: `T${String(h + 1).padStart(3, "0")}`,
        exchange: "ASX",
        tradeType: isSell(j) ? "Sell" : "Buy",
        tradeDate: day(j),
        quantity: isSell(j) ? 5 : 10,
        price: priceOf(h, j),
      });
    }
  }
  const imported = await importTradesJson(t, key, portfolioId, rows);
  if (imported.status !== 201) throw new Error(`import failed: ${imported.status} ${imported.text.slice(0, 2000)}`);
  expect(imported.body.imported).toBe(size.holdings * size.trades);

  const holdings = await t.db.prisma.holding.findMany({ where: { portfolioId }, select: { id: true } });
  expect(holdings).toHaveLength(size.holdings);
  await t.db.prisma.income.createMany({
    data: holdings.flatMap((h) =>
      Array.from({ length: size.income }, (_, i) => ({
        portfolioId,
        holdingId: h.id,
        exDividendDate: utcDate(day(30 * i + 10)),
        paidDate: utcDate(day(30 * i + 20)),
        frankedAmount: "7",
        unfrankedAmount: "3.5",
        frankingCredits: "3",
        withholdingTax: "0.5",
        currencyCode: "AUD",
      })),
    ),
  });
  return { key, portfolioId };
}

const HOLDINGS_QUERY = `query($p: ID!) {
  portfolio(id: $p) {
    holdings { id quantity costBase marketValue trades { id quantity } income { id netAmount } }
  }
}`;

interface HoldingData {
  id: string;
  quantity: string;
  costBase: string;
  marketValue: string | null;
  trades: { id: string; quantity: string }[];
  income: { id: string; netAmount: string }[];
}

/** Statements one request costs, with its answer. */
async function measure<T>(request: () => Promise<T>): Promise<{ statements: number; answer: T }> {
  const { res, statements } = await measured(t.db, request);
  return { statements, answer: res };
}

async function holdingsOverGraphQL(s: Seeded) {
  return measure(async () => {
    const res = await t.gql(s.key, HOLDINGS_QUERY, { p: String(s.portfolioId) });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.portfolio.holdings as HoldingData[];
  });
}

async function holdingsOverRest(s: Seeded) {
  return measure(async () => {
    const res = await t.http.get(`/v1/portfolios/${s.portfolioId}/holdings`).set("authorization", s.key);
    expect(res.status).toBe(200);
    return res.body as { id: number; quantity: number }[];
  });
}

/** Units of one seeded holding: 10 per Buy, −5 per Sell. */
const unitsOf = (trades: number) =>
  Array.from({ length: trades }, (_, j) => (isSell(j) ? -5 : 10)).reduce((a, b) => a + b, 0);

describe("no N+1 over a portfolio's holdings, trades and income", () => {
  it("GraphQL portfolio { holdings { ... trades income } }: 50 holdings × 100 trades × 2 income cost the same statements as 2 × 3 × 1", async () => {
    const one = await holdingsOverGraphQL(small);
    const many = await holdingsOverGraphQL(large);

    // The answers are complete, so the counts compare the same work.
    expect(many.answer).toHaveLength(LARGE.holdings);
    for (const h of many.answer) {
      expect(h.trades).toHaveLength(LARGE.trades);
      expect(h.income).toHaveLength(LARGE.income);
      expect(h.quantity).toBe(String(unitsOf(LARGE.trades)));
      expect(h.trades.map((x) => x.quantity).filter((q) => q === "-5")).toHaveLength(LARGE.trades / 10);
      for (const i of h.income) expect(i.netAmount).toBe("10");
      expect(h.marketValue).not.toBeNull();
    }
    expect(one.answer).toHaveLength(SMALL.holdings);
    // T001: 10 @ 10.00, 10 @ 10.01, 10 @ 10.02 → 30 units costing 300.30, valued at the last trade price.
    expect(one.answer[0]).toMatchObject({ quantity: "30", costBase: "300.3", marketValue: "300.6" });
    expect(one.answer[0].trades).toHaveLength(SMALL.trades);
    expect(one.answer[0].income).toEqual([{ id: expect.any(String), netAmount: "10" }]);

    expect(one.statements).toBeGreaterThan(0);
    expect(many.statements).toBe(one.statements);
  });

  it("the same query costs the same again (no statement depends on what an earlier request did)", async () => {
    const first = await holdingsOverGraphQL(large);
    const second = await holdingsOverGraphQL(large);
    expect(second.statements).toBe(first.statements);
    expect(second.answer).toEqual(first.answer);
  });

  it("GET /v1/portfolios/{p}/holdings costs the same statements for both sizes", async () => {
    const one = await holdingsOverRest(small);
    const many = await holdingsOverRest(large);
    expect(many.answer).toHaveLength(LARGE.holdings);
    expect(one.answer).toHaveLength(SMALL.holdings);
    for (const h of many.answer) expect(h.quantity).toBe(unitsOf(LARGE.trades));
    expect(one.statements).toBeGreaterThan(0);
    expect(many.statements).toBe(one.statements);
  });

  it("GET /v1/portfolios/{p}/transactions costs the same statements for both sizes", async () => {
    const get = (s: Seeded) =>
      measure(async () => {
        const res = await t.http
          .get(`/v1/portfolios/${s.portfolioId}/transactions`)
          .query({ limit: 5000 })
          .set("authorization", s.key);
        expect(res.status).toBe(200);
        return res.body as unknown[];
      });
    const one = await get(small);
    const many = await get(large);
    expect(one.answer).toHaveLength(SMALL.holdings * (SMALL.trades + SMALL.income));
    // 5,100 lines, of which one page holds at most 5,000 (docs/conventions.md §6).
    expect(many.answer).toHaveLength(Math.min(5000, LARGE.holdings * (LARGE.trades + LARGE.income)));
    expect(many.statements).toBe(one.statements);
  });
});

describe("no N+1 across parents: Portfolio.holdings, Portfolio.transactions and CashAccount.transactions are batched", () => {
  /** Portfolios `from`…`to` of one account, portfolio p holding p % 3 + 1 made-up securities, X0 sold out. */
  async function account(from: number, to: number): Promise<string> {
    const key = await t.newAccount();
    for (let p = from; p <= to; p++) {
      const created = await t.http
        .post("/v1/portfolios")
        .set("authorization", key)
        .send({ name: `P${p}` });
      const rows = Array.from({ length: (p % 3) + 1 }, (_, h) => [
        { symbol: `X${h}`, exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-02", quantity: 10 + p, price: 2 },
        {
          symbol: `X${h}`,
          exchange: "ASX",
          tradeType: "Sell",
          tradeDate: "2024-02-02",
          quantity: h === 0 ? 10 + p : 1,
          price: 3,
        },
      ]).flat();
      const imported = await t.http
        .post(`/v1/portfolios/${created.body.id}/trades/import`)
        .set("authorization", key)
        .send(rows);
      expect(imported.status).toBe(201);
      const cash = await t.http
        .post("/v1/cash-accounts")
        .set("authorization", key)
        .send({ portfolioId: created.body.id, name: "Cash", currencyCode: "AUD" });
      expect(cash.status).toBe(201);
      for (const [date, amount] of [
        ["2024-01-01", 100 + p],
        ["2024-03-01", 1],
      ] as const) {
        const deposit = await t.http
          .post("/v1/cash-transactions")
          .set("authorization", key)
          .send({ cashAccountId: cash.body.id, type: "Deposit", date, amount });
        expect(deposit.status).toBe(201);
      }
    }
    return key;
  }

  const QUERY = `{
    portfolios {
      id
      holdings { id symbol quantity costBase trades { id } }
      closed: holdings(includeClosed: true) { id quantity }
      early: holdings(date: "2024-01-15") { id quantity }
      transactions(limit: 3) { kind type date }
      trades: transactions(type: Trade, limit: 10) { id }
      cashAccounts { transactions(limit: 10) { date balance } }
    }
  }`;

  it("30 portfolios cost the same statements as 1, and each portfolio gets its own holdings", async () => {
    // The single portfolio is one with open holdings, so both answers ask for trades too.
    const oneKey = await account(2, 2);
    const manyKey = await account(0, 29);
    const one = await measure(() => t.gql(oneKey, QUERY));
    const many = await measure(() => t.gql(manyKey, QUERY));
    expect(one.answer.body.errors).toBeUndefined();
    expect(many.answer.body.errors).toBeUndefined();
    expect(many.statements).toBe(one.statements);

    const portfolios = many.answer.body.data.portfolios as {
      id: string;
      holdings: { symbol: string; quantity: string; trades: unknown[] }[];
      closed: unknown[];
      early: { quantity: string }[];
      transactions: { kind: string; type: string; date: string }[];
      trades: unknown[];
      cashAccounts: { transactions: { date: string; balance: string }[] }[];
    }[];
    expect(portfolios).toHaveLength(30);
    for (const [p, portfolio] of portfolios.entries()) {
      const held = (p % 3) + 1;
      // X0 is sold out; each other holding keeps 10 + p − 1 units (bought 10 + p, sold 1).
      expect(portfolio.holdings.map((h) => h.symbol)).toEqual(Array.from({ length: held - 1 }, (_, h) => `X${h + 1}`));
      for (const h of portfolio.holdings) {
        expect(h.quantity).toBe(String(10 + p - 1));
        expect(h.trades).toHaveLength(2);
      }
      expect(portfolio.closed).toHaveLength(held);
      // On 15 January nothing had been sold yet: every holding has its 10 + p units.
      expect(portfolio.early.map((h) => h.quantity)).toEqual(Array.from({ length: held }, () => String(10 + p)));
      // Newest first, three lines of this portfolio's own: the 1 March deposit, then its 2 February
      // sells (one per holding), then 2 January buys.
      const sells = Math.min(2, held);
      expect(portfolio.transactions[0]).toEqual({ kind: "Cash", type: "Deposit", date: "2024-03-01" });
      expect(portfolio.transactions.slice(1).map((x) => x.type)).toEqual([
        ...Array(sells).fill("Sell"),
        ...Array(2 - sells).fill("Buy"),
      ]);
      expect(portfolio.trades).toHaveLength(2 * held);
      // Running balance of this portfolio's own account: 100 + p, then one more.
      expect(portfolio.cashAccounts[0].transactions).toEqual([
        { date: "2024-01-01", balance: String(100 + p) },
        { date: "2024-03-01", balance: String(101 + p) },
      ]);
      // The same answer as the portfolio's own REST list.
      const rest = await t.http.get(`/v1/portfolios/${portfolio.id}/holdings`).set("authorization", manyKey);
      expect(rest.body.map((h: { id: number }) => String(h.id))).toEqual(
        portfolio.holdings.map((h) => (h as unknown as { id: string }).id),
      );
    }
  });
});
