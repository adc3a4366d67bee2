import type { Database } from "../src/db";
import { createAccountKey } from "../src/modules/accounts/accounts.service";
import { seedCapitalGains } from "./capital-gains";

/**
 * B17: the planning reports (docs/reports.md §6).
 * - The tax planner (FY2024 as of 2024-05-15) and the income forecast (from 2024-07-01, 12 months)
 *   of a portfolio of 10,000 trades and one of 20,000 (B7's portfolios: 50 holdings, ten years of
 *   buys and sells, plus two franked dividends per holding in the forecast's trailing year). End to
 *   end, one connection, median of several requests each; doubling the trades must cost at most
 *   2.3× the time.
 * - The adviser's book (GET /v1/tax-planner) of an account with 30 portfolios and of one with
 *   300: its statements must not grow with the portfolios.
 */
export interface PlanningTargets {
  portfolios: { trades: number; id: number }[];
  /** Two advisers' books: 30 portfolios and 300. */
  books: { portfolios: number; key: string }[];
}

export async function seedPlanning(db: Database, accountId: number): Promise<PlanningTargets> {
  const portfolios = [];
  for (const trades of [10_000, 20_000]) {
    const id = await seedCapitalGains(db, accountId, trades);
    // Two dividends per holding in the year before 2024-07-01, 0.25 a unit on the units held at
    // each ex-date (the fold has every holding at a positive balance by then).
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO income (portfolio_id, holding_id, ex_dividend_date, paid_date, franked_amount, franking_credits, currency_code, is_confirmed, updated_at)
       SELECT $1, h.id, d.ex, d.ex + 21, 250, round(250 * 0.3 / 0.7, 4), 'AUD', true, now()
       FROM holding h, (VALUES (DATE '2023-09-01'), (DATE '2024-03-01')) d(ex) WHERE h.portfolio_id = $1`,
      id,
    );
    portfolios.push({ trades, id });
  }
  const books = [];
  for (const n of [30, 300]) {
    const { account, key } = await createAccountKey(db.prisma, { accountName: `bench book ${n}`, label: "bench" });
    // Each book portfolio: one holding bought in FY2023 and half sold in FY2024 at a gain.
    await db.prisma.$executeRawUnsafe(
      `WITH p AS (
         INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
         SELECT $1, 'Book ' || g, 'AUD', 'AU', 'Individual', '06-30', now() FROM generate_series(1, $2::int) g RETURNING id),
       h AS (
         INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
         SELECT id, 'BK' || (id % 7), 'ASX', 'Book holding', 'AUD', 'Stock', now() FROM p RETURNING id, portfolio_id)
       INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
       SELECT h.portfolio_id, h.id, t.kind::"TradeType", t.day, t.quantity, t.price, 9.95, 'AUD', 1, now()
       FROM h, (VALUES ('Buy', DATE '2022-10-03', 100, 10), ('Sell', DATE '2023-11-01', -50, 12)) t(kind, day, quantity, price)`,
      account.id,
      n,
    );
    books.push({ portfolios: n, key });
  }
  return { portfolios, books };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

async function timed(base: string, key: string, path: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + path, { headers: { authorization: key } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`B17 ${path}: ${res.status} ${text.slice(0, 300)}`);
  return performance.now() - t0;
}

export async function planningWorkload(opts: {
  base: string;
  key: string;
  targets: PlanningTargets;
  rounds: number;
  database: string;
  statements: () => Promise<number>;
}): Promise<void> {
  const { base, key, targets, rounds, database } = opts;
  const reports = [
    {
      name: "tax planner FY2024 as of 2024-05-15",
      path: (id: number) => `/v1/portfolios/${id}/tax-planner?financialYear=2024&asOf=2024-05-15&marginalTaxRate=37`,
    },
    {
      name: "income forecast from 2024-07-01, 12 months",
      path: (id: number) => `/v1/portfolios/${id}/income-forecast?from=2024-07-01&months=12`,
    },
  ];
  for (const report of reports) {
    const times = new Map(targets.portfolios.map((p) => [p.id, [] as number[]]));
    for (const p of targets.portfolios) await timed(base, key, report.path(p.id)); // warm-up
    for (let r = 0; r < Math.max(rounds, 3) * 3; r++)
      for (const p of r % 2 === 0 ? targets.portfolios : [...targets.portfolios].reverse())
        times.get(p.id)!.push(await timed(base, key, report.path(p.id)));
    const results = targets.portfolios.map((p) => ({ trades: p.trades, medianMs: round(median(times.get(p.id)!)) }));
    const ratio = results[1].medianMs / results[0].medianMs;
    console.log(
      JSON.stringify({
        workload: `B17 ${report.name}, 10,000 vs 20,000 trades (one connection)`,
        database,
        node: process.version,
        results,
        doublingRatio: Math.round(ratio * 100) / 100,
        targetRatio: 2.3,
        withinTarget: ratio <= 2.3,
      }),
    );
  }

  const book = async (bookKey: string) => {
    const path = "/v1/tax-planner?financialYear=2024&asOf=2024-05-15";
    await timed(base, bookKey, path); // warm-up
    const before = await opts.statements();
    const ms = [];
    for (let r = 0; r < Math.max(rounds, 3); r++) ms.push(await timed(base, bookKey, path));
    return { statementsPerRequest: ((await opts.statements()) - before) / ms.length, medianMs: round(median(ms)) };
  };
  const results = [];
  for (const b of targets.books) results.push({ portfolios: b.portfolios, ...(await book(b.key)) });
  console.log(
    JSON.stringify({
      workload: "B17 the adviser's book (GET /v1/tax-planner), 30 vs 300 portfolios",
      database,
      node: process.version,
      results,
      statementsConstant: results[0].statementsPerRequest === results[1].statementsPerRequest,
    }),
  );
}
