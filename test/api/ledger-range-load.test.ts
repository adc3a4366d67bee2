import { loadValuationRange, dailyValuation, type RangePortfolio } from "../../src/modules/ledger";
import { startTestApp, type TestApp } from "../support/app";
import { importTradesJson, measured, newPortfolio, postCreated, utcDate } from "../support/kit";

/**
 * Range loading (src/modules/ledger/range-load.ts) in a fixed number of statements whatever the
 * number of days, holdings, prices, rates, cash transactions and income records; and the daily
 * engine over a real database agreeing with GET /holdings?date= on every holding's value.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.db.reset();
}, 120_000);
afterAll(() => t.close());

const day = (offset: number) => new Date(Date.UTC(2020, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** A portfolio with `holdings` holdings (every other one in USD), `days` days of prices and rates, a cash account and income. */
async function seed(size: { holdings: number; days: number }) {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: `${size.holdings} × ${size.days}` });
  const portfolio = await t.db.prisma.portfolio.findUniqueOrThrow({ where: { id: portfolioId } });
  const rows = [];
  for (let h = 0; h < size.holdings; h++) {
    for (let j = 0; j < 4; j++) {
      rows.push({ symbol: `R${h + 1}`, exchange: h % 2 ? "NASDAQ" : "ASX", tradeType: j === 3 ? "Sell" : "Buy", tradeDate: day(j * 3), quantity: j === 3 ? 5 : 10, price: 10 + h, ...(h % 2 ? { exchangeRate: 1.5 } : {}) });
    }
  }
  expect((await importTradesJson(t, key, portfolioId, rows)).status).toBe(201);
  const holdings = await t.db.prisma.holding.findMany({ where: { portfolioId }, orderBy: { id: "asc" } });
  await t.db.prisma.marketPrice.createMany({
    data: holdings.flatMap((h, i) => Array.from({ length: size.days }, (_, d) => ({ accountId: portfolio.accountId, symbol: h.symbol, exchange: h.exchange, date: utcDate(day(d)), close: (11 + i + d / 100).toFixed(2) }))),
  });
  await t.db.prisma.fxRate.createMany({
    data: Array.from({ length: size.days }, (_, d) => ({ accountId: portfolio.accountId, base: "USD", quote: "AUD", date: utcDate(day(d)), rate: (1.5 + d / 10_000).toFixed(6) })),
  });
  const cash = { body: await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", { portfolioId, name: "Cash", currencyCode: "AUD", syncTrades: true, syncIncome: true }) };
  await t.db.prisma.cashTransaction.createMany({ data: Array.from({ length: Math.ceil(size.days / 10) }, (_, i) => ({ cashAccountId: cash.body.id, type: "Deposit" as const, date: utcDate(day(i * 10)), amount: "1000" })) });
  await t.db.prisma.income.createMany({
    data: holdings.map((h) => ({ portfolioId, holdingId: h.id, exDividendDate: utcDate(day(5)), paidDate: utcDate(day(12)), frankedAmount: "7", unfrankedAmount: "3", currencyCode: h.currencyCode })),
  });
  return { key, portfolio: portfolio as unknown as RangePortfolio, holdings };
}

const measure = async <T>(work: () => Promise<T>) => {
  const { res, statements } = await measured(t.db, work);
  return { statements, answer: res };
};

it("a 2-holding, 10-day range and a 20-holding, 400-day range cost the same statements", async () => {
  const small = await seed({ holdings: 2, days: 10 });
  const large = await seed({ holdings: 20, days: 400 });
  const one = await measure(() => loadValuationRange(t.db.prisma, small.portfolio, day(0), day(9)));
  const many = await measure(() => loadValuationRange(t.db.prisma, large.portfolio, day(0), day(399)));
  expect(one.statements).toBeGreaterThan(0);
  expect(many.statements).toBe(one.statements);
  expect(many.answer.holdings).toHaveLength(20);
  expect(many.answer.cashAccounts[0].transactions).toHaveLength(40);
  expect(many.answer.income).toHaveLength(20);

  // The engine over that load values every holding as GET /holdings?date= does, on any day.
  const v = dailyValuation(many.answer);
  for (const d of [2, 150, 399]) {
    const res = await t.http.get(`/v1/portfolios/${large.portfolio.id}/holdings?date=${day(d)}&includeClosed=true`).set("authorization", large.key);
    expect(res.status).toBe(200);
    const exact = v.exactOn(day(d));
    for (const h of res.body as { id: number; quantity: number; marketValue: number | null; exchangeRate: number | null }[]) {
      const mine = exact.holdings.find((x) => x.id === h.id)!;
      expect([h.id, mine.units.toNumber(), mine.valueInBaseCurrency?.toNumber() ?? null, mine.rate?.toNumber() ?? null]).toEqual([h.id, h.quantity, h.marketValue, h.exchangeRate]);
      const i = v.holdings.findIndex((x) => x.id === h.id);
      expect(Math.abs(v.holdings[i].value[d] - (h.marketValue ?? 0))).toBeLessThan(0.005);
    }
  }
}, 120_000);

it("a period that starts after the last price still finds it (the latest on or before the first day)", async () => {
  const s = await seed({ holdings: 2, days: 5 });
  const input = await loadValuationRange(t.db.prisma, s.portfolio, day(100), day(101));
  const v = dailyValuation(input);
  // Prices and rates stop on day 4: day 100 uses them. Holding 1 (ASX): 3 buys of 10 less a sell of 5 = 25 units at 11.04.
  expect(v.holdings[0].price[0]).toBe(11.04);
  expect(v.holdings[0].units[0]).toBe(25);
  expect(v.holdings[1].rate[0]).toBe(1.5004);
});
