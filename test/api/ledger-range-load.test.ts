import {
  loadLedgers,
  loadValuationRange,
  dailyValuation,
  READ_LIMITS,
  type RangePortfolio,
} from "../../src/modules/ledger";
import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { hookedClient, importTradesJson, LEDGER_PAGE_SQL, measured, utcDate } from "../support/kit";

/**
 * Range loading (src/modules/ledger/range-load.ts) in a fixed number of statements whatever the
 * number of days, holdings, prices, rates, cash transactions and income records; and the daily
 * engine over a real database agreeing with GET /holdings?date= on every holding's value.
 */
const t = useTestApp({ reset: "none" });
beforeAll(async () => {}, 120_000);

const day = (offset: number) => new Date(Date.UTC(2020, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** A portfolio with `holdings` holdings (every other one in USD), `days` days of prices and rates, a cash account and income. */
async function seed(size: { holdings: number; days: number }) {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: `${size.holdings} × ${size.days}` });
  const portfolio = await t.db.prisma.portfolio.findUniqueOrThrow({ where: { id: portfolioId } });
  const rows = [];
  for (let h = 0; h < size.holdings; h++) {
    for (let j = 0; j < 4; j++) {
      rows.push({
        symbol: `R${h + 1}`,
        exchange: h % 2 ? "NASDAQ" : "ASX",
        tradeType: j === 3 ? "Sell" : "Buy",
        tradeDate: day(j * 3),
        quantity: j === 3 ? 5 : 10,
        price: 10 + h,
        ...(h % 2 ? { exchangeRate: 1.5 } : {}),
      });
    }
  }
  expect((await importTradesJson(t, key, portfolioId, rows)).status).toBe(201);
  const holdings = await t.db.prisma.holding.findMany({ where: { portfolioId }, orderBy: { id: "asc" } });
  await t.db.prisma.marketPrice.createMany({
    data: holdings.flatMap((h, i) =>
      Array.from({ length: size.days }, (_, d) => ({
        accountId: portfolio.accountId,
        symbol: h.symbol,
        exchange: h.exchange,
        date: utcDate(day(d)),
        close: (11 + i + d / 100).toFixed(2),
      })),
    ),
  });
  await t.db.prisma.fxRate.createMany({
    data: Array.from({ length: size.days }, (_, d) => ({
      accountId: portfolio.accountId,
      base: "USD",
      quote: "AUD",
      date: utcDate(day(d)),
      rate: (1.5 + d / 10_000).toFixed(6),
    })),
  });
  const cash = {
    body: await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId,
      name: "Cash",
      currencyCode: "AUD",
      syncTrades: true,
      syncIncome: true,
    }),
  };
  await t.db.prisma.cashTransaction.createMany({
    data: Array.from({ length: Math.ceil(size.days / 10) }, (_, i) => ({
      cashAccountId: cash.body.id,
      type: "Deposit" as const,
      date: utcDate(day(i * 10)),
      amount: "1000",
    })),
  });
  await t.db.prisma.income.createMany({
    data: holdings.map((h) => ({
      portfolioId,
      holdingId: h.id,
      exDividendDate: utcDate(day(5)),
      paidDate: utcDate(day(12)),
      frankedAmount: "7",
      unfrankedAmount: "3",
      currencyCode: h.currencyCode,
    })),
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
    const res = await t.http
      .get(`/v1/portfolios/${large.portfolio.id}/holdings?date=${day(d)}&includeClosed=true`)
      .set("authorization", large.key);
    expect(res.status).toBe(200);
    const exact = v.exactOn(day(d));
    for (const h of res.body as {
      id: number;
      quantity: number;
      marketValue: number | null;
      exchangeRate: number | null;
    }[]) {
      const mine = exact.holdings.find((x) => x.id === h.id)!;
      expect([
        h.id,
        mine.units.toNumber(),
        mine.valueInBaseCurrency?.toNumber() ?? null,
        mine.rate?.toNumber() ?? null,
      ]).toEqual([h.id, h.quantity, h.marketValue, h.exchangeRate]);
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

/** Runs `work` with READ_LIMITS changed, and puts them back. */
async function withLimits<T>(limits: Partial<typeof READ_LIMITS>, work: () => Promise<T>): Promise<T> {
  const saved = { ...READ_LIMITS };
  Object.assign(READ_LIMITS, limits);
  try {
    return await work();
  } finally {
    Object.assign(READ_LIMITS, saved);
  }
}

/**
 * The test database's client, running `afterPage(n)` once each ledger page statement (the one
 * that aggregates trades into text) has answered, before loadLedgers sees the answer: a write
 * there lands between two pages.
 */
function afterEachPage(afterPage: (page: number) => Promise<void>): typeof t.db.prisma {
  let pages = 0;
  return hookedClient(t.db.prisma, {
    after: async (sql) => (sql.includes(LEDGER_PAGE_SQL) ? afterPage(++pages) : undefined),
  });
}

it("a ledger read in pages of trades is the ledger read in one statement: same trades in ledger order, same events, same fingerprint", async () => {
  const key = await t.newAccount();
  const a = await newPortfolio(t, key, { name: "Pages A" });
  const b = await newPortfolio(t, key, { name: "Pages B" });
  // Ids interleave between the portfolios, and several trades share a date: the page key is
  // (portfolio, date, id), the ledger order within a portfolio.
  const buy = (symbol: string, date: string, quantity = 10) => ({
    symbol,
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: date,
    quantity,
    price: 10,
  });
  const sell = (symbol: string, date: string, quantity: number) => ({
    symbol,
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: date,
    quantity,
    price: 12,
  });
  for (const [p, rows] of [
    [a, [buy("PA1", day(5)), buy("PA2", day(5)), buy("PA1", day(1))]],
    [b, [buy("PB1", day(5)), buy("PB1", day(2)), buy("PB2", day(5))]],
    [a, [sell("PA1", day(5), 4), buy("PA2", day(9)), sell("PA2", day(9), 3), buy("PA1", day(3))]],
    [b, [sell("PB1", day(6), 5), buy("PB2", day(1))]],
  ] as const) {
    expect((await importTradesJson(t, key, p, rows)).status).toBe(201);
  }
  const portfolios = await t.db.prisma.portfolio.findMany({ where: { id: { in: [a, b] } }, orderBy: { id: "asc" } });
  const read = async (holdingIds?: number[], asOf?: string) => {
    const { res, statements } = await measured(t.db, () => loadLedgers(t.db.prisma, portfolios, holdingIds, asOf));
    const ledgers = [...res].map(([id, l]) => ({
      id,
      fingerprint: l.fingerprint,
      trades: l.trades,
      events: [...l.eventsByHolding],
    }));
    return { ledgers, statements };
  };
  const whole = await read();
  expect(whole.ledgers.map((l) => l.trades.length)).toEqual([7, 5]);
  expect(whole.ledgers[0].trades.map((tr) => tr.tradeDate)).toEqual([
    day(1),
    day(3),
    day(5),
    day(5),
    day(5),
    day(9),
    day(9),
  ]);

  // 12 trades in pages of 5: 5, 5, 2 (3 statements for 1); in pages of 2: six (the sixth reads no 13th trade: no seventh).
  const byFive = await withLimits({ tradesPerStatement: 5 }, () => read());
  expect(byFive.ledgers).toEqual(whole.ledgers);
  expect(byFive.statements).toBe(whole.statements + 2);
  const byTwo = await withLimits({ tradesPerStatement: 2 }, () => read());
  expect(byTwo.ledgers).toEqual(whole.ledgers);
  expect(byTwo.statements).toBe(whole.statements + 5);

  // Some holdings, up to a date: the same filter on every page.
  const some = await t.db.prisma.holding.findMany({ where: { portfolioId: a, symbol: "PA1" } });
  const filtered = await read(
    some.map((h) => h.id),
    day(4),
  );
  expect(filtered.ledgers[0].trades.map((tr) => tr.tradeDate)).toEqual([day(1), day(3)]);
  const one = await withLimits({ tradesPerStatement: 1 }, () =>
    read(
      some.map((h) => h.id),
      day(4),
    ),
  );
  expect(one.ledgers).toEqual(filtered.ledgers);
  expect(one.statements).toBe(filtered.statements + 1);
}, 120_000);

it("a ledger write between two pages does not tear the ledger: the pages are read again, and after three tries in one statement", async () => {
  const key = await t.newAccount();
  const id = await newPortfolio(t, key, { name: "Torn" });
  const rows = [1, 3, 5, 7, 9].map((d) => ({
    symbol: "TORN",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: day(d),
    quantity: 10,
    price: 10,
  }));
  expect((await importTradesJson(t, key, id, rows)).status).toBe(201);
  const portfolio = await t.db.prisma.portfolio.findUniqueOrThrow({ where: { id } });
  const trades = await t.db.prisma.trade.findMany({ where: { portfolioId: id }, orderBy: { tradeDate: "asc" } });
  // Moves the last trade before the first page's key each time: a second page read after it,
  // without the check, would miss that trade (it sorts before the page's key).
  let writes = 0;
  let pagesRead = 0;
  const writingBetweenPages = (times: number) =>
    afterEachPage(async () => {
      pagesRead++;
      if (writes < times) {
        writes++;
        await t.db.prisma.trade.update({ where: { id: trades[4].id }, data: { tradeDate: utcDate(day(2 - writes)) } });
      }
    });
  const datesOf = async (db: typeof t.db.prisma) =>
    (await loadLedgers(db, [portfolio])).get(id)!.trades.map((tr) => tr.tradeDate);

  // Pages of 2: the write after the first page; the second attempt reads all five (3 pages).
  await withLimits({ tradesPerStatement: 2 }, async () => {
    expect(await datesOf(writingBetweenPages(1))).toEqual([day(1), day(1), day(3), day(5), day(7)]);
    expect(pagesRead).toBe(2 + 3);
  });
  expect(await datesOf(t.db.prisma)).toEqual([day(1), day(1), day(3), day(5), day(7)]);

  // The trade a page reads past its key, moved before the key: the next page is empty, not the end.
  const three = await newPortfolio(t, key, { name: "Torn at the end" });
  expect((await importTradesJson(t, key, three, rows.slice(0, 3))).status).toBe(201);
  const threeTrades = await t.db.prisma.trade.findMany({
    where: { portfolioId: three },
    orderBy: { tradeDate: "asc" },
  });
  const threePortfolio = await t.db.prisma.portfolio.findUniqueOrThrow({ where: { id: three } });
  const movingTheExtraRow = afterEachPage(async (page) => {
    if (page === 1)
      await t.db.prisma.trade.update({ where: { id: threeTrades[2].id }, data: { tradeDate: utcDate(day(0)) } });
  });
  await withLimits({ tradesPerStatement: 2 }, async () => {
    expect(
      (await loadLedgers(movingTheExtraRow, [threePortfolio])).get(three)!.trades.map((tr) => tr.tradeDate),
    ).toEqual([day(0), day(1), day(3)]);
  });

  // A write after every page of the first two attempts: the third reads in one statement.
  [writes, pagesRead] = [0, 0];
  await withLimits({ tradesPerStatement: 2 }, async () => {
    expect(await datesOf(writingBetweenPages(2))).toEqual([day(0), day(1), day(3), day(5), day(7)]);
    expect(pagesRead).toBe(2 + 2 + 1);
  });
}, 120_000);

it("a ledger's parcel picks, DRP units, methods and AMIT components come from the same snapshot as its trades", async () => {
  const key = await t.newAccount();
  const id = await newPortfolio(t, key, { name: "One snapshot" });
  const rows = [1, 3, 5, 7].map((d) => ({
    symbol: "SNAP",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: day(d),
    quantity: 10,
    price: 10 + d,
  }));
  expect((await importTradesJson(t, key, id, rows)).status).toBe(201);
  const portfolio = await t.db.prisma.portfolio.findUniqueOrThrow({ where: { id } });
  const buys = await t.db.prisma.trade.findMany({ where: { portfolioId: id }, orderBy: { tradeDate: "asc" } });

  // Under a page, everything the fold reads is one statement.
  const small = await measured(t.db, () => loadLedgers(t.db.prisma, [portfolio]));
  expect(small.statements).toBe(1);

  // A sell of 5 from the day-3 parcel (not FIFO's day-1 parcel), written after the first page of
  // two trades: the sell sorts after that page's key, its parcel picks were not in the first
  // page's snapshot. Without the version check the sell would come without its picks and fold by FIFO.
  let wrote = false;
  const sellingAfterTheFirstPage = afterEachPage(async (page) => {
    if (page > 1) return;
    wrote = true;
    await postCreated(t, key, "/v1/trades", {
      portfolioId: id,
      symbol: "SNAP",
      exchange: "ASX",
      tradeType: "Sell",
      tradeDate: day(9),
      quantity: 5,
      price: 20,
      parcels: [{ tradeId: buys[1].id, quantity: 5 }],
    });
  });
  const ledger = await withLimits({ tradesPerStatement: 2 }, async () =>
    (await loadLedgers(sellingAfterTheFirstPage, [portfolio])).get(id)!,
  );
  expect(wrote).toBe(true);
  const sell = [...ledger.eventsByHolding.values()].flat().find((e) => e.type === "Sell")!;
  expect(sell.parcels?.map((p) => ({ tradeId: p.tradeId, units: p.units.toNumber() }))).toEqual([
    { tradeId: buys[1].id, units: 5 },
  ]);
  expect(ledger.fingerprint).toBe((await loadLedgers(t.db.prisma, [portfolio])).get(id)!.fingerprint);
}, 120_000);

it("prices read in groups of securities are the prices read in one statement", async () => {
  const s = await seed({ holdings: 6, days: 30 });
  const whole = await measure(() => loadValuationRange(t.db.prisma, s.portfolio, day(0), day(29)));
  // 29 days are about 20.7 trading days: 45 prices a statement is two securities a statement, three statements for one.
  const grouped = await withLimits({ priceRowsPerStatement: 45 }, () =>
    measure(() => loadValuationRange(t.db.prisma, s.portfolio, day(0), day(29))),
  );
  expect(grouped.statements).toBe(whole.statements + 2);
  expect(grouped.answer.holdings.map((h) => h.prices.series.market)).toEqual(
    whole.answer.holdings.map((h) => h.prices.series.market),
  );
  expect(whole.answer.holdings.every((h) => h.prices.series.market.dates.length === 30)).toBe(true);
  const [v, w] = [dailyValuation(grouped.answer), dailyValuation(whole.answer)];
  expect(v.holdings.map((h) => [...h.value])).toEqual(w.holdings.map((h) => [...h.value]));
}, 120_000);
