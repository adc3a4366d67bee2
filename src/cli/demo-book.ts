import { DEMO_SECURITIES, monthsBefore, tradingDayOnOrBefore, type DemoMarket } from "./demo-market";

/**
 * The demo account's book (npm run demo, WEB.md: Demo data), written through the service's own
 * GraphQL API as any client would: an Individual portfolio and an SMSF with three years of ASX and
 * US trades, franked dividends, a cash account, an active allocation model each, a client, and the
 * prices and rates of a market-data refresh over the replay provider (src/cli/demo-market.ts).
 */

export interface DemoBook {
  individualId: string;
  smsfId: string;
}

type Gql = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** A GraphQL client over HTTP with the account's key. */
export function graphqlClient(baseUrl: string, key: string): Gql {
  return async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: key },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: unknown }[] };
    if (body.errors?.length) {
      throw new Error(`demo: ${body.errors[0].message} ${JSON.stringify(body.errors[0].extensions ?? {})}`);
    }
    return body.data as T;
  };
}

interface PlannedTrade {
  symbol: string;
  side: "Buy" | "Sell";
  monthsAgo: number;
  units: number;
}

const INDIVIDUAL: PlannedTrade[] = [
  { symbol: "VAS", side: "Buy", monthsAgo: 36, units: 300 },
  { symbol: "CBA", side: "Buy", monthsAgo: 35, units: 150 },
  { symbol: "BHP", side: "Buy", monthsAgo: 34, units: 400 },
  { symbol: "AAPL", side: "Buy", monthsAgo: 33, units: 60 },
  { symbol: "CSL", side: "Buy", monthsAgo: 30, units: 40 },
  { symbol: "VAS", side: "Buy", monthsAgo: 24, units: 100 },
  { symbol: "MSFT", side: "Buy", monthsAgo: 20, units: 25 },
  { symbol: "BHP", side: "Sell", monthsAgo: 14, units: 100 },
  { symbol: "CSL", side: "Buy", monthsAgo: 9, units: 30 },
  { symbol: "VAS", side: "Buy", monthsAgo: 6, units: 50 },
  { symbol: "AAPL", side: "Buy", monthsAgo: 5, units: 20 },
  { symbol: "VAS", side: "Sell", monthsAgo: 3, units: 80 },
];

const SMSF: PlannedTrade[] = [
  { symbol: "VAS", side: "Buy", monthsAgo: 36, units: 500 },
  { symbol: "VGS", side: "Buy", monthsAgo: 36, units: 400 },
  { symbol: "CBA", side: "Buy", monthsAgo: 30, units: 100 },
  { symbol: "WES", side: "Buy", monthsAgo: 28, units: 200 },
  { symbol: "VGS", side: "Buy", monthsAgo: 12, units: 100 },
  { symbol: "CSL", side: "Buy", monthsAgo: 7, units: 20 },
  { symbol: "WES", side: "Sell", monthsAgo: 2, units: 50 },
];

/** Dividends per unit, the months their ex-dates fall in, and the franked share. */
const DIVIDENDS: Record<string, { perUnit: number; months: number[]; franked: number }> = {
  VAS: { perUnit: 0.85, months: [0, 3, 6, 9], franked: 0.7 },
  CBA: { perUnit: 2.25, months: [1, 7], franked: 1 },
  BHP: { perUnit: 0.9, months: [2, 8], franked: 1 },
  WES: { perUnit: 0.95, months: [1, 7], franked: 1 },
  CSL: { perUnit: 1.45, months: [2, 8], franked: 0.1 },
};

const security = (symbol: string) => DEMO_SECURITIES.find((s) => s.symbol === symbol)!;
const cents = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

function tradeRows(plan: PlannedTrade[], market: DemoMarket) {
  return plan.map((t) => {
    const s = security(t.symbol);
    const tradeDate = monthsBefore(market.today, t.monthsAgo);
    const usd = s.currency === "USD";
    return {
      tradeType: t.side,
      tradeDate,
      symbol: s.symbol,
      exchange: s.exchange,
      name: s.name,
      holdingType: s.instrumentType === "ETF" ? "Etf" : "Stock",
      quantity: String(t.units),
      price: market.closes.get(s.symbol)!.get(tradeDate)!,
      brokerage: usd ? "2.00" : "9.50",
      currencyCode: s.currency,
      // A$ per US$ on the day, from the same rates the refresh stores (the RBA quotes US$ per A$1).
      ...(usd ? { exchangeRate: (1 / Number(market.audUsd.get(tradeDate))).toFixed(6) } : {}),
    };
  });
}

/** Ex-dates on the 10th of the dividend months (the weekday before), paid 25 days later, both by today. */
function incomeRows(plan: PlannedTrade[], market: DemoMarket) {
  const rows: Record<string, unknown>[] = [];
  const first = market.days[0];
  for (const [symbol, d] of Object.entries(DIVIDENDS)) {
    const trades = plan
      .filter((t) => t.symbol === symbol)
      .map((t) => ({ ...t, date: monthsBefore(market.today, t.monthsAgo) }));
    if (trades.length === 0) continue;
    for (let year = Number(first.slice(0, 4)); year <= Number(market.today.slice(0, 4)); year++) {
      for (const month of d.months) {
        const exDate = tradingDayOnOrBefore(`${year}-${String(month + 1).padStart(2, "0")}-10`);
        const paid = new Date(Date.parse(`${exDate}T00:00:00Z`) + 25 * 86_400_000).toISOString().slice(0, 10);
        const paidDate = tradingDayOnOrBefore(paid);
        if (paidDate > market.today) continue;
        const units = trades
          .filter((t) => t.date < exDate)
          .reduce((n, t) => n + (t.side === "Buy" ? t.units : -t.units), 0);
        if (units <= 0) continue;
        const cash = units * d.perUnit;
        rows.push({
          symbol,
          exchange: "ASX",
          exDividendDate: exDate,
          paidDate,
          frankedAmount: cents(cash * d.franked),
          unfrankedAmount: cents(cash - Number(cents(cash * d.franked))),
          isConfirmed: true,
        });
      }
    }
  }
  return rows;
}

async function fillPortfolio(
  gql: Gql,
  market: DemoMarket,
  input: { name: string; entityType: string; plan: PlannedTrade[]; model: { label: string; targetPct: string }[] },
): Promise<string> {
  const { createPortfolio } = await gql<{ createPortfolio: { id: string } }>(
    `mutation($input: CreatePortfolioInput!) { createPortfolio(input: $input) { id } }`,
    { input: { name: input.name, entityType: input.entityType } },
  );
  const id = createPortfolio.id;
  await gql(
    `mutation($id: ID!, $input: TradeImportInput!) { importTrades(portfolioId: $id, input: $input) { imported } }`,
    {
      id,
      input: { rows: tradeRows(input.plan, market) },
    },
  );
  await gql(
    `mutation($id: ID!, $input: IncomeImportInput!) { importIncome(portfolioId: $id, input: $input) { imported } }`,
    {
      id,
      input: { rows: incomeRows(input.plan, market) },
    },
  );
  const { createCashAccount } = await gql<{ createCashAccount: { id: string } }>(
    `mutation($input: CreateCashAccountInput!) { createCashAccount(input: $input) { id } }`,
    { input: { portfolioId: id, name: "Cash management account", currencyCode: "AUD", institution: "Demo Bank" } },
  );
  const cash = [
    { type: "Deposit", monthsAgo: 36, amount: "20000.00" },
    { type: "InterestPayment", monthsAgo: 24, amount: "412.35" },
    { type: "InterestPayment", monthsAgo: 12, amount: "436.80" },
    { type: "Withdrawal", monthsAgo: 4, amount: "5000.00" },
  ];
  for (const c of cash) {
    await gql(`mutation($input: CashTransactionInput!) { createCashTransaction(input: $input) { id } }`, {
      input: {
        cashAccountId: createCashAccount.id,
        type: c.type,
        date: monthsBefore(market.today, c.monthsAgo),
        amount: c.amount,
      },
    });
  }
  await gql(
    `mutation($id: ID!, $input: AllocationModelInput!) { saveAllocationModel(portfolioId: $id, input: $input) { publicId } }`,
    {
      id,
      input: {
        name: "Growth",
        dimension: "assetClass",
        isActive: true,
        buckets: input.model.map((b, i) => ({ ...b, tolerancePct: "5", sortOrder: i })),
      },
    },
  );
  return id;
}

/** Runs the account's market-data refresh and waits for it to end. */
export async function refreshAndWait(gql: Gql, timeoutMs = 60_000): Promise<string> {
  const { refreshMarketData } = await gql<{ refreshMarketData: { runId: string } }>(
    `mutation { refreshMarketData { runId } }`,
  );
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { marketDataStatus } = await gql<{ marketDataStatus: { lastRun: { runId: string; status: string } | null } }>(
      `{ marketDataStatus { lastRun { runId status } } }`,
    );
    const run = marketDataStatus.lastRun;
    if (run && run.runId === refreshMarketData.runId && run.status !== "Running") return run.status;
    if (Date.now() > until) throw new Error("demo: the market-data refresh did not end in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Fills the account behind `key` on the server at `baseUrl` (its refresh must replay `market`). */
export async function fillDemoAccount(baseUrl: string, key: string, market: DemoMarket): Promise<DemoBook> {
  const gql = graphqlClient(baseUrl, key);
  const individualId = await fillPortfolio(gql, market, {
    name: "Individual (demo)",
    entityType: "Individual",
    plan: INDIVIDUAL,
    model: [
      { label: "Australian Equities", targetPct: "45" },
      { label: "ETFs", targetPct: "30" },
      { label: "International Equities", targetPct: "25" },
    ],
  });
  const smsfId = await fillPortfolio(gql, market, {
    name: "Smith Family SMSF",
    entityType: "SMSF",
    plan: SMSF,
    model: [
      { label: "ETFs", targetPct: "65" },
      { label: "Australian Equities", targetPct: "35" },
    ],
  });
  const { createClient } = await gql<{ createClient: { id: string } }>(
    `mutation { createClient(input: { firstName: "Alex", lastName: "Smith" }) { id } }`,
  );
  await gql(`mutation($id: ID!, $p: [ID!]!) { assignClientPortfolios(id: $id, portfolioIds: $p) { id } }`, {
    id: createClient.id,
    p: [smsfId],
  });
  const status = await refreshAndWait(gql);
  if (status !== "Succeeded") throw new Error(`demo: the market-data refresh ended ${status}`);
  return { individualId, smsfId };
}
