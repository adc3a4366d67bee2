/**
 * A portfolio's transactions over REST and GraphQL (GET /v1/portfolios/{p}/transactions, GraphQL
 * Portfolio.transactions) in one shape, and the ledger scenario the portfolio-transactions.*.test.ts
 * stories read: trades, income and cash transactions of two accounts, with the ledger the service
 * must answer for it. Importing it registers no hook: a suite hands its app over,
 * `portfolioTransactionsApi(t)`.
 */
import { newPortfolio, newTrade } from "../factories";
import { utcDate } from "../support/kit";
import {
  gqlDecimal,
  gqlId,
  restCall,
  restDecimal,
  restId,
  withApp,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";
import type { TestApp } from "../support/app";

/** One ledger line as both transports show it: decimals as their digits, ids as numbers. */
export interface Line {
  kind: string;
  id: number;
  date: string;
  type: string;
  holdingId: number | null;
  symbol: string | null;
  exchange: string | null;
  cashAccountId: number | null;
  quantity: string | null;
  price: string | null;
  amount: string;
  currencyCode: string;
  description: string;
}

export const LINE_KEYS = [
  "amount",
  "cashAccountId",
  "currencyCode",
  "date",
  "description",
  "exchange",
  "holdingId",
  "id",
  "kind",
  "price",
  "quantity",
  "symbol",
  "type",
];

export function toLine(raw: Json, transport: TransportName): Line {
  const decimal = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  const orNull =
    <T>(f: (v: unknown) => T) =>
    (v: unknown) =>
      v === null ? null : f(v);
  return {
    kind: raw.kind as string,
    id: id(raw.id),
    date: raw.date as string,
    type: raw.type as string,
    holdingId: orNull(id)(raw.holdingId),
    symbol: raw.symbol as string | null,
    exchange: raw.exchange as string | null,
    cashAccountId: orNull(id)(raw.cashAccountId),
    quantity: orNull(decimal)(raw.quantity),
    price: orNull(decimal)(raw.price),
    amount: decimal(raw.amount),
    currencyCode: raw.currencyCode as string,
    description: raw.description as string,
  };
}

/** Query parameters: the REST query string, or the GraphQL field's arguments. */
export type Params = {
  from?: string | null;
  to?: string | null;
  type?: string | null;
  limit?: number | null;
  offset?: number | null;
};

export interface Transport {
  name: TransportName;
  /** REST 404 for a portfolio that is absent; GraphQL portfolio(id) null. */
  list(key: string, portfolioId: number, params?: Params): Promise<Outcome<Line[] | null>>;
}

export const QUERY = `query($p: ID!, $from: Date, $to: Date, $type: PortfolioTransactionFilter, $limit: Int, $offset: Int) {
  portfolio(id: $p) {
    transactions(from: $from, to: $to, type: $type, limit: $limit, offset: $offset) {
      kind id date type holdingId symbol exchange cashAccountId quantity price amount currencyCode description
    }
  }
}`;

/** The transports and the scenario over the suite's app (inside tests only). */
export function portfolioTransactionsApi(t: TestApp) {
  const { gqlCall } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    list: async (k, p, params = {}) => {
      const query = Object.fromEntries(
        Object.entries(params)
          .filter(([, v]) => v !== undefined && v !== null)
          .map(([n, v]) => [n, String(v)]),
      );
      return restCall(
        t.http.get(`/v1/portfolios/${p}/transactions`).query(query).set("authorization", k),
        200,
        (body: Json[]) => {
          for (const line of body) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
          return body.map((l) => toLine(l, "REST"));
        },
      );
    },
  };

  const graphql: Transport = {
    name: "GraphQL",
    list: async (k, p, params = {}) => {
      // Absent parameters are left out of the variables (not sent as null).
      const variables: Json = { p: String(p) };
      for (const [n, v] of Object.entries(params)) if (v !== undefined) variables[n] = v;
      return gqlCall(k, QUERY, variables, "portfolio", (portfolio: { transactions: Json[] } | null) =>
        portfolio === null ? null : portfolio.transactions.map((l) => toLine(l, "GraphQL")),
      );
    },
  };

  // Setup -----------------------------------------------------------------------------------------

  async function income(k: string, body: Json): Promise<{ id: number }> {
    const res = await t.http.post("/v1/income").set("authorization", k).send(body);
    if (res.status !== 201) throw new Error(`income failed: ${res.status} ${res.text}`);
    return res.body;
  }

  async function cashAccount(portfolioId: number, name: string, currencyCode: string): Promise<number> {
    return (await t.db.prisma.cashAccount.create({ data: { portfolioId, name, currencyCode }, select: { id: true } }))
      .id;
  }

  async function cash(
    cashAccountId: number,
    type: "Deposit" | "Withdrawal" | "InterestPayment" | "Fee" | "InterestCharged",
    date: string,
    amount: string,
    notes = "",
  ): Promise<number> {
    return (
      await t.db.prisma.cashTransaction.create({
        data: { cashAccountId, type, date: utcDate(date), amount, notes },
        select: { id: true },
      })
    ).id;
  }

  /**
   * The scenario: a portfolio with trades (AUD and USD), income (paid and reinvested) and cash
   * transactions on two accounts, and a second portfolio of the same account whose lines must
   * never show. Returns the portfolio and its full ledger as the service must answer it.
   */
  async function seedLedger(k: string): Promise<{ portfolioId: number; ledger: Line[] }> {
    const p = await newPortfolio(t, k);
    const everyday = await cashAccount(p, "Everyday", "AUD");
    const broker = await cashAccount(p, "USD broker", "USD");

    const t1 = await newTrade(t, k, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 100,
      price: 100,
      brokerage: "9.95",
    });
    const cba = t1.holdingId;
    const c1 = await cash(everyday, "Deposit", "2024-01-10", "20000", "Opening deposit");
    const t2 = await newTrade(t, k, {
      portfolioId: p,
      symbol: "BHP",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-02-15",
      quantity: 50,
      price: "45.5",
    });
    const bhp = t2.holdingId;
    const t6 = await newTrade(t, k, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2024-02-20",
      quantity: 10,
      price: 150,
      brokerage: 5,
      exchangeRate: "1.5",
    });
    const t3 = await newTrade(t, k, {
      portfolioId: p,
      holdingId: cba,
      tradeType: "Sell",
      tradeDate: "2024-03-01",
      quantity: 40,
      price: 110,
      brokerage: "9.95",
    });
    const t4 = await newTrade(t, k, {
      portfolioId: p,
      holdingId: bhp,
      tradeType: "Buy",
      tradeDate: "2024-03-01",
      quantity: 10,
      price: 46,
    });
    const i1 = await income(k, {
      holdingId: cba,
      exDividendDate: "2024-02-14",
      paidDate: "2024-03-01",
      frankedAmount: 70,
      unfrankedAmount: 30,
      withholdingTax: 10,
    });
    const i3 = await income(k, {
      holdingId: cba,
      exDividendDate: "2024-02-14",
      paidDate: "2024-03-01",
      unfrankedAmount: 5,
    });
    const c2 = await cash(everyday, "Fee", "2024-03-01", "15");
    const i2 = await income(k, {
      holdingId: bhp,
      exDividendDate: "2024-03-07",
      paidDate: "2024-04-01",
      unfrankedAmount: 46,
      isReinvested: true,
      drpQuantity: 1,
    });
    const c3 = await cash(everyday, "Withdrawal", "2024-04-15", "500");
    const c4 = await cash(broker, "InterestPayment", "2024-04-15", "1.23");
    const t5 = await newTrade(t, k, {
      portfolioId: p,
      holdingId: cba,
      tradeType: "Split",
      tradeDate: "2024-05-01",
      quantity: 60,
    });
    const c5 = await cash(everyday, "InterestCharged", "2024-05-01", "2.5");

    // Another portfolio of the same account: none of it belongs in p's ledger.
    const other = await newPortfolio(t, k, { name: "Other" });
    await newTrade(t, k, {
      portfolioId: other,
      symbol: "WES",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-03-01",
      quantity: 1,
      price: 50,
    });
    await cash(await cashAccount(other, "Other cash", "AUD"), "Deposit", "2024-03-01", "999");

    const tradeLine = (
      id: number,
      date: string,
      type: string,
      holdingId: number,
      symbol: string,
      exchange: string,
      quantity: string,
      price: string,
      amount: string,
      currencyCode = "AUD",
    ): Line => ({
      kind: "Trade",
      id,
      date,
      type,
      holdingId,
      symbol,
      exchange,
      cashAccountId: null,
      quantity,
      price,
      amount,
      currencyCode,
      description: expect.stringContaining(symbol),
    });
    const incomeLine = (
      id: number,
      date: string,
      type: string,
      holdingId: number,
      symbol: string,
      amount: string,
    ): Line => ({
      kind: "Income",
      id,
      date,
      type,
      holdingId,
      symbol,
      exchange: "ASX",
      cashAccountId: null,
      quantity: null,
      price: null,
      amount,
      currencyCode: "AUD",
      description: expect.stringContaining(symbol),
    });
    const cashLine = (
      id: number,
      date: string,
      type: string,
      cashAccountId: number,
      amount: string,
      currencyCode = "AUD",
    ): Line => ({
      kind: "Cash",
      id,
      date,
      type,
      holdingId: null,
      symbol: null,
      exchange: null,
      cashAccountId,
      quantity: null,
      price: null,
      amount,
      currencyCode,
      description: expect.stringContaining(type),
    });

    const ledger: Line[] = [
      // 2024-05-01: a trade before cash; a Split moves no money.
      tradeLine(t5.id, "2024-05-01", "Split", cba, "CBA", "ASX", "60", "0", "0"),
      cashLine(c5, "2024-05-01", "InterestCharged", everyday, "-2.5"),
      // 2024-04-15: two cash lines, the newest entry first; interest in the USD account is in USD.
      cashLine(c4, "2024-04-15", "InterestPayment", broker, "1.23", "USD"),
      cashLine(c3, "2024-04-15", "Withdrawal", everyday, "-500"),
      // 2024-04-01: reinvested income moves no cash.
      incomeLine(i2.id, "2024-04-01", "Reinvested", bhp, "BHP", "0"),
      // 2024-03-01: income (newest first), then trades (newest first), then cash.
      incomeLine(i3.id, "2024-03-01", "Income", cba, "CBA", "5"),
      incomeLine(i1.id, "2024-03-01", "Income", cba, "CBA", "90"), // net: 70 + 30 − 10
      tradeLine(t4.id, "2024-03-01", "Buy", bhp, "BHP", "ASX", "10", "46", "-460"),
      tradeLine(t3.id, "2024-03-01", "Sell", cba, "CBA", "ASX", "-40", "110", "4390.05"), // 40 × 110 − 9.95
      cashLine(c2, "2024-03-01", "Fee", everyday, "-15"),
      // 2024-02-20: a USD trade's amount is in USD: −(10 × 150 + 5).
      tradeLine(t6.id, "2024-02-20", "Buy", t6.holdingId, "AAPL", "NASDAQ", "10", "150", "-1505", "USD"),
      tradeLine(t2.id, "2024-02-15", "Buy", bhp, "BHP", "ASX", "50", "45.5", "-2275"),
      // 2024-01-10: −(100 × 100 + 9.95), then the deposit.
      tradeLine(t1.id, "2024-01-10", "Buy", cba, "CBA", "ASX", "100", "100", "-10009.95"),
      cashLine(c1, "2024-01-10", "Deposit", everyday, "20000"),
    ];
    return { portfolioId: p, ledger };
  }
  return { gqlCall, rest, graphql, income, cashAccount, cash, seedLedger };
}
