import { capitalGainsReport } from "../../src/modules/tax/capital-gains.service";
import { unrealisedCapitalGainsReport } from "../../src/modules/tax/unrealised.service";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import {
  hookedClient,
  importTradesJson,
  LEDGER_PAGE_SQL,
  serviceContext,
  writeAfterFirstLedgerRead,
} from "../support/kit";

/**
 * A tax report reads the ledger, the holdings, trust income and entered losses in statements of
 * their own; a ledger write landing between two of them must not give a report of no moment.
 *
 * FY2025 (1 July 2024 – 30 June 2025). AAA: 100 bought at 10 on 2024-08-01, sold at 12 on
 * 2024-09-01: a gain of 200. The write: a new holding BBB, 100 bought at 10 on 2024-08-01 and sold
 * at 15 on 2024-09-01 (a gain of 500), imported in one write (the holding and its trades).
 * Before it the year's total capital gains are 200; after it 700. Read half before (the holdings)
 * and half after (the ledger), BBB's sale would be in the ledger and BBB not among the holdings:
 * its gain left out of a report that has its trades.
 */
const t = useTestApp({ reset: "none" });
beforeAll(async () => {}, 120_000);

const trade = (symbol: string, tradeType: "Buy" | "Sell", tradeDate: string, price: number) => ({
  symbol,
  exchange: "ASX",
  tradeType,
  tradeDate,
  quantity: 100,
  price,
});

it("a capital gains report is one moment's ledger: a write between its statements has it read again", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "One moment" });
  expect(
    (
      await importTradesJson(t, key, portfolioId, [
        trade("AAA", "Buy", "2024-08-01", 10),
        trade("AAA", "Sell", "2024-09-01", 12),
      ])
    ).status,
  ).toBe(201);
  const totalOf = (report: { summary: { totalCapitalGains: unknown } }) => String(report.summary.totalCapitalGains);

  // The holdings are read, then the write lands, then the ledger is read (it waits for the write).
  let wrote = false;
  let ledgerReads = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hooked = hookedClient(t.db.prisma, {
    before: async (sql) => {
      if (!sql.includes(LEDGER_PAGE_SQL)) return;
      ledgerReads++;
      await released;
    },
  });
  const db = new Proxy(hooked, {
    get(target, prop, receiver) {
      if (prop !== "holding") return Reflect.get(target, prop, receiver);
      return new Proxy(target.holding, {
        get(delegate, method) {
          const fn = Reflect.get(delegate, method);
          if (method !== "findMany") return typeof fn === "function" ? fn.bind(delegate) : fn;
          return async (args: Parameters<typeof target.holding.findMany>[0]) => {
            const rows = await target.holding.findMany(args);
            if (!wrote) {
              wrote = true;
              expect(
                (
                  await importTradesJson(t, key, portfolioId, [
                    trade("BBB", "Buy", "2024-08-01", 10),
                    trade("BBB", "Sell", "2024-09-01", 15),
                  ])
                ).status,
              ).toBe(201);
              release();
            }
            return rows;
          };
        },
      });
    },
  });
  const ctx = await serviceContext(t, key, db);

  const report = await capitalGainsReport(ctx, portfolioId, { financialYear: "2025" });
  expect(wrote).toBe(true);
  // 200 (AAA) + 500 (BBB): the report after the write, as a fresh one says; the ledger read twice.
  expect(totalOf(report)).toBe("700");
  expect(ledgerReads).toBe(2);
  const fresh = await t.http
    .get(`/v1/portfolios/${portfolioId}/reports/capital-gains?financialYear=2025`)
    .set("authorization", key);
  expect(fresh.status).toBe(200);
  expect(totalOf(fresh.body)).toBe("700");
});

it("a price written while an unrealised gains report reads has it read again, at the new price", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "Priced" });
  // 100 CCC bought at 10 on 2024-08-01; closing price 11 on 2024-10-01, then 14 written during the
  // report: unrealised gain 100 × (14 − 10) = 400 (100 before the write).
  expect((await importTradesJson(t, key, portfolioId, [trade("CCC", "Buy", "2024-08-01", 10)])).status).toBe(201);
  const price = (close: number) =>
    t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .send([{ symbol: "CCC", exchange: "ASX", date: "2024-10-01", close }]);
  expect((await price(11)).status).toBeLessThan(300);
  const { db, reads: seen } = writeAfterFirstLedgerRead(t.db.prisma, async () =>
    expect((await price(14)).status).toBeLessThan(300),
  );
  const ctx = await serviceContext(t, key, db);
  const report = await unrealisedCapitalGainsReport(ctx, portfolioId, { date: "2024-10-01" });
  const holdings = (
    JSON.parse(JSON.stringify(report)) as { holdings: { marketValue: string; unrealisedGain: string }[] }
  ).holdings;
  expect(holdings.map((h) => [h.marketValue, h.unrealisedGain])).toEqual([["1400", "400"]]);
  // Read twice; each read folds the ledger twice (the book's, the valuation's).
  expect(seen.count).toBe(4);
});

it("a tax settings write changes the portfolio's ledger version, whichever settings it changes", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key, { name: "Settings" });
  const version = async () =>
    (
      await t.db.prisma.$queryRaw<
        { v: bigint | null }[]
      >`SELECT (SELECT version FROM portfolio_version WHERE portfolio_id = ${portfolioId}) AS v`
    )[0].v;
  for (const settings of [
    { carriedForwardLosses: [{ financialYear: 2024, amount: 100 }] },
    { yearMethods: [{ financialYear: 2025, method: "LIFO" }] },
    { defaultMethod: "MinimiseCGT" },
  ]) {
    const before = await version();
    const res = await t.http.put(`/v1/portfolios/${portfolioId}/tax-settings`).set("authorization", key).send(settings);
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(await version()).not.toBe(before);
  }
});
