import { Decimal } from "../../src/lib/money";
import { dailyValuation, loadValuationRange, type RangePortfolio } from "../../src/modules/ledger";
import { tradeCashEffect } from "../../src/modules/ledger/cash-effects";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade as recordTrade, postCreated } from "../factories";
import { utcDate } from "../support/kit";

/**
 * The cash account ledger (GET /v1/cash-accounts/{c}/transactions, CashAccount.transactions) and
 * the portfolio transaction ledger (GET /v1/portfolios/{p}/transactions, Portfolio.transactions)
 * show the same cash amount for the same trade or income record: both read ledger/cash-effects.
 * One story over every trade type, including values that need rounding to 4 decimals, foreign
 * income net of foreign tax, and reinvested income; checked over REST and GraphQL. The daily
 * valuation engine over the same story agrees with both (cash balance, units, flows).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const auth = (k: string) => ({ authorization: k });
/** A decimal from either transport (REST: JSON number, GraphQL: string), as a canonical string. */
const dec = (v: unknown) => new Decimal(String(v)).toFixed();

interface Row {
  source: string;
  id: number;
  type: string;
  amount: string;
}

const newTrade = async (k: string, portfolioId: number, body: Record<string, unknown>): Promise<number> =>
  (await recordTrade(t, k, { portfolioId, symbol: "CBA", exchange: "ASX", ...body })).id;

async function holdingOf(tradeId: number): Promise<number> {
  return (await t.db.prisma.trade.findUniqueOrThrow({ where: { id: tradeId }, select: { holdingId: true } })).holdingId;
}

async function newIncome(portfolioId: number, holdingId: number, fields: Record<string, unknown>): Promise<number> {
  const row = await t.db.prisma.income.create({
    data: {
      portfolioId,
      holdingId,
      exDividendDate: utcDate("2024-05-01"),
      paidDate: utcDate("2024-05-20"),
      currencyCode: "AUD",
      ...fields,
    },
  });
  return row.id;
}

/** Every trade type, in an order the parcel fold accepts; amounts that need rounding marked. */
async function story(k: string) {
  const portfolioId = await newPortfolio(t, k, { name: "Agreement" });
  const acct = {
    body: await postCreated<{ id: number }>(t, k, "/v1/cash-accounts", {
      portfolioId,
      name: "Broker cash",
      currencyCode: "AUD",
      syncTrades: true,
      syncIncome: true,
      settlementDays: 2,
    }),
  };
  const trades: Record<string, { id: number; quantity: string; price: string; brokerage: string }> = {};
  const add = async (
    name: string,
    tradeType: string,
    tradeDate: string,
    quantity: string,
    price = "0",
    brokerage = "0",
    extra: Record<string, unknown> = {},
  ) => {
    const body: Record<string, unknown> = { tradeType, tradeDate, quantity, ...extra };
    if (price !== "0") body.price = price;
    if (brokerage !== "0") body.brokerage = brokerage;
    trades[name] = { id: await newTrade(k, portfolioId, body), quantity, price, brokerage };
  };
  await add("OpeningBalance", "OpeningBalance", "2024-01-02", "1000", "10");
  await add("Buy", "Buy", "2024-01-03", "100", "2.5", "9.95");
  // 7 × 1.23456789 = 8.64197523 → 8.6420 (4 dp, half-up); + 9.95 brokerage
  await add("BuyRounded", "Buy", "2024-01-04", "7", "1.23456789", "9.95");
  await add("TransferIn", "TransferIn", "2024-01-05", "100", "11");
  await add("Split", "Split", "2024-01-08", "1207");
  await add("Bonus", "Bonus", "2024-01-09", "10");
  // 333 × 0.01234567 = 4.11110811 → 4.1111
  await add("ReturnOfCapital", "ReturnOfCapital", "2024-01-10", "333", "0.01234567");
  await add("CostBaseIncrease", "CostBaseIncrease", "2024-01-11", "100", "0.2");
  await add("CostBaseDecrease", "CostBaseDecrease", "2024-01-12", "100", "0.1");
  await add("Sell", "Sell", "2024-01-15", "40", "110.5", "9.95");
  // 12.5 × 3.33333333 = 41.666666625 → 41.6667; − 1.5 brokerage
  await add("SellRounded", "Sell", "2024-01-16", "12.5", "3.33333333", "1.5");
  await add("TransferOut", "TransferOut", "2024-01-17", "50", "12");
  await add("XyzBuy", "Buy", "2024-01-18", "10", "1", "0", { symbol: "XYZ" });
  await add("Cancellation", "Cancellation", "2024-01-19", "10", "0", "0", { symbol: "XYZ" });
  const holdingId = await holdingOf(trades.Buy.id);
  const income = {
    // docs/rules.md §6.1: 700 franked → 700 cash (the franking credit is not cash)
    franked: await newIncome(portfolioId, holdingId, { frankedAmount: "700", frankingCredits: "300" }),
    // gross 1.5 foreign income, 0.225 foreign tax paid → 1.275 arrives
    foreign: await newIncome(portfolioId, holdingId, {
      foreignIncome: "1.5",
      foreignTaxPaid: "0.225",
      paidDate: utcDate("2024-05-21"),
    }),
    // 60 unfranked + 40 franked, 28.5 withheld → 71.5
    withheld: await newIncome(portfolioId, holdingId, {
      unfrankedAmount: "60",
      frankedAmount: "40",
      withholdingTax: "28.5",
      paidDate: utcDate("2024-05-22"),
    }),
    reinvested: await newIncome(portfolioId, holdingId, {
      frankedAmount: "50",
      isReinvested: true,
      drpQuantity: "4",
      drpPrice: "12.5",
      paidDate: utcDate("2024-05-23"),
    }),
  };
  return { portfolioId, cashAccountId: acct.body.id as number, trades, income };
}

interface Ledgers {
  cash(k: string, cashAccountId: number): Promise<Row[]>;
  portfolio(k: string, portfolioId: number): Promise<Row[]>;
}

const rest: Ledgers = {
  cash: async (k, c) => {
    const res = await t.http.get(`/v1/cash-accounts/${c}/transactions`).query({ limit: 5000 }).set(auth(k));
    expect(res.status).toBe(200);
    return (res.body as { source: string; sourceId: number; type: string; amount: number }[]).map((m) => ({
      source: m.source,
      id: m.sourceId,
      type: m.type,
      amount: dec(m.amount),
    }));
  },
  portfolio: async (k, p) => {
    const res = await t.http.get(`/v1/portfolios/${p}/transactions`).query({ limit: 5000 }).set(auth(k));
    expect(res.status).toBe(200);
    return (res.body as { kind: string; id: number; type: string; amount: number }[]).map((l) => ({
      source: l.kind,
      id: l.id,
      type: l.type,
      amount: dec(l.amount),
    }));
  },
};

const graphql: Ledgers = {
  cash: async (k, c) => {
    const res = await t.gql(
      k,
      `query($c: ID!) { cashAccount(id: $c) { transactions(limit: 5000) { source sourceId type amount } } }`,
      { c: String(c) },
    );
    expect(res.body.errors).toBeUndefined();
    return (
      res.body.data.cashAccount.transactions as { source: string; sourceId: string; type: string; amount: string }[]
    ).map((m) => ({ source: m.source, id: Number(m.sourceId), type: m.type, amount: dec(m.amount) }));
  },
  portfolio: async (k, p) => {
    const res = await t.gql(
      k,
      `query($p: ID!) { portfolio(id: $p) { transactions(limit: 5000) { kind id type amount } } }`,
      { p: String(p) },
    );
    expect(res.body.errors).toBeUndefined();
    return (res.body.data.portfolio.transactions as { kind: string; id: string; type: string; amount: string }[]).map(
      (l) => ({ source: l.kind, id: Number(l.id), type: l.type, amount: dec(l.amount) }),
    );
  },
};

/** Hand-derived cash of each trade of the story (docs/rules.md §9.1; see test/unit/ledger.cash-effects.test.ts). */
const EXPECTED_TRADE_CASH: Record<string, string> = {
  OpeningBalance: "0",
  Buy: "-259.95", // −(100 × 2.5 + 9.95)
  BuyRounded: "-18.592", // −(8.6420 + 9.95)
  TransferIn: "0",
  Split: "0",
  Bonus: "0",
  ReturnOfCapital: "4.1111",
  CostBaseIncrease: "0",
  CostBaseDecrease: "0",
  Sell: "4410.05", // 40 × 110.5 − 9.95
  SellRounded: "40.1667", // 41.6667 − 1.5
  TransferOut: "0",
  XyzBuy: "-10",
  Cancellation: "0",
};

describe.each([
  ["REST", rest],
  ["GraphQL", graphql],
] as const)("the two cash ledgers agree (%s)", (_name, ledgers) => {
  test("every trade that moves cash shows the same amount in both ledgers, rounded to 4 dp", async () => {
    const s = await story(key);
    const cash = await ledgers.cash(key, s.cashAccountId);
    const portfolio = await ledgers.portfolio(key, s.portfolioId);
    const cashOf = new Map(cash.filter((m) => m.source === "Trade").map((m) => [m.id, m.amount]));
    const portfolioOf = new Map(portfolio.filter((l) => l.source === "Trade").map((l) => [l.id, l.amount]));

    const seen: Record<string, { portfolio?: string; cash?: string }> = {};
    for (const [name, tr] of Object.entries(s.trades))
      seen[name] = { portfolio: portfolioOf.get(tr.id), cash: cashOf.get(tr.id) };
    // The portfolio ledger shows every trade at the hand-derived figure, which is tradeCashEffect's.
    expect(Object.fromEntries(Object.entries(seen).map(([n, v]) => [n, v.portfolio]))).toEqual(EXPECTED_TRADE_CASH);
    for (const [name, tr] of Object.entries(s.trades)) {
      expect([
        name,
        tradeCashEffect({
          tradeType: name.replace(/Rounded$|^Xyz/, ""),
          quantity: tr.quantity,
          price: tr.price,
          brokerage: tr.brokerage,
        }).toFixed(),
      ]).toEqual([name, EXPECTED_TRADE_CASH[name]]);
    }
    // The synced cash account shows the Buys, Sells and the capital return at exactly the same
    // amounts; trades that move no cash are not in it.
    const synced = ["Buy", "BuyRounded", "Sell", "SellRounded", "XyzBuy", "ReturnOfCapital"];
    expect(
      Object.fromEntries(
        Object.entries(seen)
          .filter(([, v]) => v.cash !== undefined)
          .map(([n, v]) => [n, v.cash]),
      ),
    ).toEqual(Object.fromEntries(synced.map((n) => [n, EXPECTED_TRADE_CASH[n]])));
  });

  test("income shows its net amount in both ledgers; reinvested income moves no cash", async () => {
    const s = await story(key);
    const cash = await ledgers.cash(key, s.cashAccountId);
    const portfolio = await ledgers.portfolio(key, s.portfolioId);
    const cashOf = new Map(cash.filter((m) => m.source === "Income").map((m) => [m.id, m.amount]));
    const portfolioOf = new Map(portfolio.filter((l) => l.source === "Income").map((l) => [l.id, l.amount]));
    const names = Object.entries(s.income);
    expect(
      Object.fromEntries(names.map(([n, id]) => [n, { portfolio: portfolioOf.get(id), cash: cashOf.get(id) }])),
    ).toEqual({
      franked: { portfolio: "700", cash: "700" },
      foreign: { portfolio: "1.275", cash: "1.275" },
      withheld: { portfolio: "71.5", cash: "71.5" },
      // the portfolio ledger lists it at 0; the cash account has no row for it
      reinvested: { portfolio: "0", cash: undefined },
    });
  });
});

describe("valuation agrees with the cash ledgers and the holdings", () => {
  test("the daily engine's cash balance, units and external flows over the story of every trade type", async () => {
    const s = await story(key);
    const portfolio = (await t.db.prisma.portfolio.findUniqueOrThrow({
      where: { id: s.portfolioId },
    })) as unknown as RangePortfolio;
    const v = dailyValuation(await loadValuationRange(t.db.prisma, portfolio, "2024-01-01", "2024-06-30"));
    const last = v.days.length - 1;

    // Every movement has settled by 30 June: the engine's balance (trade-date accounting) is the
    // cash account's balance, which sums the same cash effects on settlement dates.
    const account = await t.http.get(`/v1/cash-accounts/${s.cashAccountId}`).set(auth(key));
    expect(account.status).toBe(200);
    const exact = v.exactOn("2024-06-30");
    expect(exact.cash[0].balance.toFixed()).toBe(dec(account.body.balance));
    expect(v.cash[0].balance[last]).toBeCloseTo(Number(account.body.balance), 6);

    // Units of each holding agree with GET /holdings on the same day.
    const holdings = await t.http
      .get(`/v1/portfolios/${s.portfolioId}/holdings`)
      .query({ date: "2024-06-30", includeClosed: true })
      .set(auth(key));
    expect(holdings.status).toBe(200);
    for (const h of holdings.body as { id: number; quantity: number }[]) {
      expect([h.id, exact.holdings.find((x) => x.id === h.id)?.units.toNumber()]).toEqual([h.id, h.quantity]);
    }

    // External flows (docs/rules.md §10): Buys, Sells, the capital return and the income all settled
    // through the synced account, so only units crossing the boundary are flows: OpeningBalance
    // 1,000 × 10 = 10,000 in (01-02), TransferIn 100 × 11 = 1,100 in (01-05), TransferOut 50 × 12
    // = 600 out (01-17).
    const flowsOn = (date: string) => v.exactOn(date);
    expect([
      flowsOn("2024-01-02").inflowsInBaseCurrency.toFixed(),
      flowsOn("2024-01-05").inflowsInBaseCurrency.toFixed(),
      flowsOn("2024-01-17").outflowsInBaseCurrency.toFixed(),
    ]).toEqual(["10000", "1100", "600"]);
    expect(v.flowIn.reduce((a, b) => a + b, 0)).toBe(11_100);
    expect(v.flowOut.reduce((a, b) => a + b, 0)).toBe(600);
  });
});
