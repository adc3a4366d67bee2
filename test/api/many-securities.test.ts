import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { importTradesJson } from "../support/kit";
import { pendingCorporateActions } from "../../src/modules/holdings/holding-view";

/**
 * An account holding more securities than one statement has bind parameters for pairs of them:
 * 17,000, past 16,383 (two parameters a security, PostgreSQL takes 32,767). Each read that picks
 * rows by (symbol, exchange) joins the securities as two arrays (ledger/market-data.ts
 * securityTable), so it answers like any other; as an OR of pairs it answered 500, and below the
 * limit it took seconds for a few thousand securities (every row compared with every pair).
 */
const t = useTestApp({ reset: "none" });
const COUNT = 17_000;
const symbolOf = (i: number) => `M${String(i).padStart(5, "0")}`;
let key: string;
let portfolioId: number;

beforeAll(async () => {
  await t.db.reset();
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key, { name: "Many" });
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    symbol: symbolOf(i),
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2025-06-02",
    quantity: 100,
    price: 1,
  }));
  const imported = await importTradesJson(t, key, portfolioId, rows);
  expect([imported.status, imported.body.imported]).toEqual([201, COUNT]);
  // What a market-data refresh stores (docs/data.md §2, §3), for the last two securities.
  await t.db.sql(
    `INSERT INTO market_data_security (symbol, exchange, provider_symbol, last_price_date, last_attempt_at, last_error)
     VALUES ($1, 'ASX', $2, '2026-06-30', '2026-07-01T06:00:00.000Z', 'HTTP 503 from the provider')`,
    [symbolOf(COUNT - 1), `${symbolOf(COUNT - 1)}.AX`],
  );
  await t.db.sql(
    `INSERT INTO provider_dividend (symbol, exchange, ex_date, amount, currency_code) VALUES ($1, 'ASX', '2026-08-24', 0.5, 'AUD')`,
    [symbolOf(COUNT - 2)],
  );
}, 120_000);

it("the market-data status lists every security, with the refresh's state of each", async () => {
  const res = await t.http.get("/v1/market-data/status").set("authorization", key);
  expect(res.status).toBe(200);
  expect(res.body.securities).toHaveLength(COUNT);
  const last = res.body.securities.find((s: { symbol: string }) => s.symbol === symbolOf(COUNT - 1));
  expect(last).toEqual({
    symbol: symbolOf(COUNT - 1),
    exchange: "ASX",
    providerSymbol: `${symbolOf(COUNT - 1)}.AX`,
    lastPriceDate: "2026-06-30",
    lastAttemptAt: "2026-07-01T06:00:00.000Z",
    lastError: "HTTP 503 from the provider",
  });
  expect(res.body.securities[0]).toMatchObject({ symbol: symbolOf(0), providerSymbol: null, lastPriceDate: null });
});

it("the income forecast finds the provider's announced dividend among them (REST and GraphQL)", async () => {
  // 100 units × 0.50 = 50.00 cash on 2026-08-24, the one announced dividend of the 17,000.
  const expected = { symbol: symbolOf(COUNT - 2), exDividendDate: "2026-08-24", units: 100, cash: 50 };
  const rest = await t.http
    .get(`/v1/portfolios/${portfolioId}/income-forecast`)
    .query({ from: "2026-07-01" })
    .set("authorization", key);
  expect(rest.status).toBe(200);
  expect(rest.body.payments).toHaveLength(1);
  expect(rest.body.payments[0]).toMatchObject({ ...expected, basis: "Announced" });
  const gql = await t.gql(
    key,
    `query($p: ID!) { incomeForecast(portfolioId: $p, from: "2026-07-01") { payments { symbol exDividendDate units cash basis } } }`,
    { p: String(portfolioId) },
  );
  expect(gql.body.errors).toBeUndefined();
  // GraphQL writes decimals as strings (docs/conventions.md §4.2).
  expect(gql.body.data.incomeForecast.payments).toEqual([
    { ...expected, units: "100", cash: "50", basis: "Announced" },
  ]);
});

it("the holdings' pending corporate actions are counted over more holdings than a statement has parameters", async () => {
  // The holding view reads them for every holding it lists; a GraphQL batch of portfolios may list
  // 33,000 (here the 17,000 and 16,000 ids that hold nothing), past the 32,767 one id each allowed.
  const [first] = await t.db.sql<{ id: number }>(`SELECT id FROM holding WHERE portfolio_id = $1 AND symbol = $2`, [
    portfolioId,
    symbolOf(0),
  ]);
  await t.db.prisma.corporateAction.create({
    data: {
      portfolioId,
      holdingId: first.id,
      type: "Split",
      date: new Date("2026-03-04"),
      numerator: 2,
      denominator: 1,
    },
  });
  const held = await t.db.sql<{ id: number }>(`SELECT id FROM holding WHERE portfolio_id = $1`, [portfolioId]);
  const none = Array.from({ length: 16_000 }, (_, i) => ({ id: 900_000_000 + i }));
  const pending = await pendingCorporateActions(t.db.prisma, [...held, ...none] as never, "2026-12-31");
  expect([...pending]).toEqual([[first.id, 1]]);
  // Dated after the day asked for: not yet pending.
  expect([...(await pendingCorporateActions(t.db.prisma, [...held, ...none] as never, "2026-03-03"))]).toEqual([]);
});
