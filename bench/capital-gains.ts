import type { Database } from "../src/db";

/**
 * B7: the capital gains report of one year (GET /v1/portfolios/{p}/reports/capital-gains,
 * FY2024) for a portfolio of 10,000 trades and one of 20,000 (50 holdings, ten years of buys and
 * sells, so every year folds parcels and the loss ledger runs over every year). End to end, one
 * connection, median of several requests each. Doubling the trades must cost at most 2.3× the time.
 */
export async function seedCapitalGains(db: Database, accountId: number, trades: number): Promise<number> {
  const [p] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, updated_at)
     VALUES ($1, 'CGT ' || $2::int, 'AUD', 'AU', 'Individual', '06-30', now()) RETURNING id`,
    accountId,
    trades,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, updated_at)
     SELECT $1, 'G' || lpad(h::text, 3, '0'), 'ASX', 'Gains ' || h, 'AUD', 'Stock', now() FROM generate_series(1, 50) h`,
    p.id,
  );
  // Per holding, every third trade sells 10 of the 20 the two before bought: parcels open and close
  // over the whole ten years whatever the number of trades (the step between trades shrinks).
  const perHolding = trades / 50;
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, updated_at)
     SELECT $1, h.id, CASE WHEN t % 3 = 2 THEN 'Sell'::"TradeType" ELSE 'Buy'::"TradeType" END,
            DATE '2015-01-01' + (t * 3650 / $2::int), CASE WHEN t % 3 = 2 THEN -10 ELSE 10 END,
            round((10 + (t % 17) * 0.5 + h.id % 7)::numeric, 2), 9.95, 'AUD', 1, now()
     FROM holding h, generate_series(0, $2::int - 1) t WHERE h.portfolio_id = $1 ORDER BY t, h.id`,
    p.id,
    perHolding,
  );
  return p.id;
}

export async function capitalGainsWorkload(
  base: string,
  key: string,
  portfolios: { trades: number; id: number }[],
  rounds: number,
  database: string,
): Promise<void> {
  const timeOf = async (id: number) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/portfolios/${id}/reports/capital-gains?financialYear=2024`, {
      headers: { authorization: key },
    });
    const body = (await res.json()) as { disposals?: unknown[] };
    if (res.status !== 200 || !body.disposals)
      throw new Error(`B7: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms: performance.now() - t0, disposals: body.disposals.length };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const results: { trades: number; medianMs: number; disposals: number }[] = [];
  for (const p of portfolios) await timeOf(p.id); // warm-up
  const times = new Map(portfolios.map((p) => [p.id, [] as number[]]));
  const disposals = new Map<number, number>();
  for (let r = 0; r < Math.max(rounds, 3) * 3; r++) {
    for (const p of r % 2 === 0 ? portfolios : [...portfolios].reverse()) {
      const { ms, disposals: n } = await timeOf(p.id);
      times.get(p.id)!.push(ms);
      disposals.set(p.id, n);
    }
  }
  for (const p of portfolios)
    results.push({
      trades: p.trades,
      medianMs: Math.round(median(times.get(p.id)!) * 10) / 10,
      disposals: disposals.get(p.id)!,
    });
  const ratio = results[1].medianMs / results[0].medianMs;
  console.log(
    JSON.stringify({
      workload: "B7 capital gains report FY2024, 10,000 vs 20,000 trades (one connection)",
      database,
      node: process.version,
      results,
      doublingRatio: Math.round(ratio * 100) / 100,
      targetRatio: 2.3,
      withinTarget: ratio <= 2.3,
      requestsPerPortfolio: times.get(portfolios[0].id)!.length,
    }),
  );
}
