import autocannon from "autocannon";
import type { Database } from "../src/db";

/**
 * B8: computeRebalance end to end (POST /v1/portfolios/{p}/rebalance) for a portfolio of 500
 * holdings over a 50-bucket sector model, one connection: p50 and p99 latency; target p50 ≤ 50 ms
 * on the embedded database.
 */
export async function seedRebalance(db: Database, accountId: number): Promise<number> {
  const [p] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     VALUES ($1, 'Rebalance 500', 'AUD', 'AU', 'Individual', '06-30', now()) RETURNING id`,
    accountId,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, sector, updated_at)
     SELECT $1, 'R' || lpad(h::text, 3, '0'), 'ASX', 'Rebalanced ' || h, 'AUD', 'Stock', 'Sector ' || (h % 50), now() FROM generate_series(1, 500) h`,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, h.id, 'Buy', DATE '2024-01-02', 10 + h.id % 90, 5 + h.id % 40, 9.95, 'AUD', 1, now() FROM holding h WHERE h.portfolio_id = $1`,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO market_price (account_id, symbol, exchange, date, close)
     SELECT $1, symbol, 'ASX', DATE '2024-06-28', 6 + id % 37 FROM holding WHERE portfolio_id = $2`,
    accountId,
    p.id,
  );
  const [m] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO allocation_model (public_id, portfolio_id, name, dimension, is_active, updated_at)
     VALUES (gen_random_uuid()::text, $1, 'Fifty sectors', 'sector', true, now()) RETURNING id`,
    p.id,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO allocation_bucket (model_id, label, target_pct, tolerance_pct, sort_order) SELECT $1, 'Sector ' || g, 2, 0.5, g FROM generate_series(0, 49) g`,
    m.id,
  );
  return p.id;
}

export async function rebalanceWorkload(
  base: string,
  key: string,
  portfolioId: number,
  rounds: number,
  seconds: number,
  database: string,
): Promise<void> {
  const url = `${base}/v1/portfolios/${portfolioId}/rebalance`;
  const body = JSON.stringify({ asOf: "2024-06-30", cashToInvest: 10_000, band: "ExactTarget" });
  const check = await fetch(url, {
    method: "POST",
    body,
    headers: { authorization: key, "content-type": "application/json" },
  });
  const answer = (await check.json()) as { legs?: unknown[]; driftReport?: { entries: unknown[] } };
  if (check.status !== 200 || !answer.legs || answer.driftReport?.entries.length !== 50)
    throw new Error(`B8: ${check.status} ${JSON.stringify(answer).slice(0, 300)}`);
  const runs: { p50: number; p99: number; rps: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    const res = await autocannon({
      url,
      method: "POST",
      body,
      headers: { authorization: key, "content-type": "application/json" },
      connections: 1,
      duration: seconds,
    });
    if (res.non2xx > 0) throw new Error(`B8: ${res.non2xx} non-2xx answers`);
    runs.push({ p50: res.latency.p50, p99: res.latency.p99, rps: res.requests.average });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p50 = median(runs.map((x) => x.p50));
  console.log(
    JSON.stringify({
      workload: "B8 computeRebalance, 500 holdings × 50-bucket model (one connection)",
      database,
      node: process.version,
      legs: answer.legs.length,
      p50,
      p99: median(runs.map((x) => x.p99)),
      rps: median(runs.map((x) => x.rps)),
      targetP50Ms: 50,
      withinTarget: p50 <= 50,
      rounds,
      secondsPerRound: seconds,
    }),
  );
}
