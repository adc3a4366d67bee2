import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, utcDate } from "../support/kit";
import {
  expectAbsent,
  expectInvalid,
  expectOk,
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

/**
 * A portfolio's transactions (API.md §2 Analytics: GET /v1/portfolios/{p}/transactions; GraphQL
 * Portfolio.transactions): one ledger of trades, income and cash transactions, newest first, the
 * same day ordered as transactions.service.ts documents it (income, then trades, then cash; within
 * each, the newest entry first), with `from`, `to`, `type`, `limit` and `offset`. Both transports
 * run the same scenarios through the `Transport` adapters below.
 *
 * Cash accounts and cash transactions are written straight to the database (the cash API is not
 * what is under test here); trades and income go through REST.
 */

let t: TestApp;
const { gqlCall } = withApp(() => t);
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

/** One ledger line as both transports show it: decimals as their digits, ids as numbers. */
interface Line {
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

const LINE_KEYS = [
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

function toLine(raw: Json, transport: TransportName): Line {
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
type Params = {
  from?: string | null;
  to?: string | null;
  type?: string | null;
  limit?: number | null;
  offset?: number | null;
};

interface Transport {
  name: TransportName;
  /** REST 404 for a portfolio that is absent; GraphQL portfolio(id) null. */
  list(key: string, portfolioId: number, params?: Params): Promise<Outcome<Line[] | null>>;
}

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

const QUERY = `query($p: ID!, $from: Date, $to: Date, $type: PortfolioTransactionFilter, $limit: Int, $offset: Int) {
  portfolio(id: $p) {
    transactions(from: $from, to: $to, type: $type, limit: $limit, offset: $offset) {
      kind id date type holdingId symbol exchange cashAccountId quantity price amount currencyCode description
    }
  }
}`;

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
  return (await t.db.prisma.cashAccount.create({ data: { portfolioId, name, currencyCode }, select: { id: true } })).id;
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

const between = (from?: string, to?: string) => (l: Line) => (!from || l.date >= from) && (!to || l.date <= to);

// =============================================================================================

describe.each([rest, graphql])("portfolio transactions over $name", (tr) => {
  it("lists trades, income and cash transactions of the portfolio in one ledger, newest first, with the documented signs", async () => {
    const { portfolioId, ledger } = await seedLedger(key);
    expect(expectOk(await tr.list(key, portfolioId))).toEqual(ledger);
  });

  it("an empty portfolio has an empty ledger", async () => {
    const p = await newPortfolio(t, key);
    expect(expectOk(await tr.list(key, p))).toEqual([]);
  });

  it("describes each line readably", async () => {
    const { portfolioId } = await seedLedger(key);
    const lines = expectOk(await tr.list(key, portfolioId))!;
    expect(lines.find((l) => l.kind === "Cash" && l.type === "Deposit")!.description).toContain("Everyday");
    expect(lines.find((l) => l.kind === "Income" && l.type === "Reinvested")!.description).toContain("BHP.ASX");
    for (const l of lines) expect(l.description.length).toBeGreaterThan(0);
  });

  describe("filters", () => {
    const CASES: [string, Params, (l: Line) => boolean][] = [
      ["from and to (both inclusive)", { from: "2024-03-01", to: "2024-04-01" }, between("2024-03-01", "2024-04-01")],
      ["from alone", { from: "2024-04-15" }, between("2024-04-15")],
      ["to alone", { to: "2024-01-10" }, between(undefined, "2024-01-10")],
      ["a single day", { from: "2024-03-01", to: "2024-03-01" }, between("2024-03-01", "2024-03-01")],
      ["type=Trade: every trade", { type: "Trade" }, (l) => l.kind === "Trade"],
      ["type=Income: paid and reinvested income", { type: "Income" }, (l) => l.kind === "Income"],
      ["type=Cash: every cash transaction", { type: "Cash" }, (l) => l.kind === "Cash"],
      ["type=Buy", { type: "Buy" }, (l) => l.kind === "Trade" && l.type === "Buy"],
      ["type=Sell", { type: "Sell" }, (l) => l.kind === "Trade" && l.type === "Sell"],
      ["type=Split", { type: "Split" }, (l) => l.kind === "Trade" && l.type === "Split"],
      ["type=Deposit", { type: "Deposit" }, (l) => l.kind === "Cash" && l.type === "Deposit"],
      ["type=Fee", { type: "Fee" }, (l) => l.kind === "Cash" && l.type === "Fee"],
      ["type=Withdrawal", { type: "Withdrawal" }, (l) => l.kind === "Cash" && l.type === "Withdrawal"],
      [
        "type=Buy with from and to",
        { type: "Buy", from: "2024-02-01", to: "2024-03-01" },
        (l) => l.type === "Buy" && between("2024-02-01", "2024-03-01")(l),
      ],
      ["type=Cash with from", { type: "Cash", from: "2024-03-01" }, (l) => l.kind === "Cash" && l.date >= "2024-03-01"],
      ["a type with nothing in it (TransferIn)", { type: "TransferIn" }, () => false],
      ["a period with nothing in it", { from: "2023-01-01", to: "2023-12-31" }, () => false],
    ];

    it.each(CASES)("%s", async (_label, params, keep) => {
      const { portfolioId, ledger } = await seedLedger(key);
      const expected = ledger.filter(keep);
      expect(expectOk(await tr.list(key, portfolioId, params))).toEqual(expected);
    });
  });

  describe("paging", () => {
    it("pages of every size, read in turn, give back the unpaged list exactly", async () => {
      const { portfolioId, ledger } = await seedLedger(key);
      for (const limit of [1, 2, 3, 4, 5, 13, 14]) {
        const pages: Line[] = [];
        for (let offset = 0; offset <= ledger.length; offset += limit) {
          const page = expectOk(await tr.list(key, portfolioId, { limit, offset }))!;
          expect(page.length).toBe(Math.min(limit, Math.max(0, ledger.length - offset)));
          pages.push(...page);
        }
        expect(pages).toEqual(ledger);
      }
    });

    it("pages a filtered list consistently with the filtered unpaged list", async () => {
      const { portfolioId, ledger } = await seedLedger(key);
      const trades = ledger.filter((l) => l.kind === "Trade");
      expect(expectOk(await tr.list(key, portfolioId, { type: "Trade", limit: 2, offset: 1 }))).toEqual(
        trades.slice(1, 3),
      );
      const march = ledger.filter(between("2024-03-01", "2024-05-01"));
      expect(expectOk(await tr.list(key, portfolioId, { from: "2024-03-01", limit: 3, offset: 4 }))).toEqual(
        march.slice(4, 7),
      );
      const cashLines = ledger.filter((l) => l.kind === "Cash");
      expect(expectOk(await tr.list(key, portfolioId, { type: "Cash", limit: 2, offset: 2 }))).toEqual(
        cashLines.slice(2, 4),
      );
    });

    it("an offset past the end gives an empty page; limit 5000 is accepted", async () => {
      const { portfolioId, ledger } = await seedLedger(key);
      expect(expectOk(await tr.list(key, portfolioId, { offset: ledger.length }))).toEqual([]);
      expect(expectOk(await tr.list(key, portfolioId, { offset: 1000 }))).toEqual([]);
      expect(expectOk(await tr.list(key, portfolioId, { limit: 5000 }))).toEqual(ledger);
    });
  });

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
      // GraphQL's PortfolioTransactionFilter enum refuses an unknown type before the service: BAD_USER_INPUT (API.md §3).
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
