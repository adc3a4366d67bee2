/**
 * B20: an import's time against its size when every row names a security of its own (a file of
 * many instruments, each bought once): 10,000 vs 20,000 rows into empty portfolios, each round
 * with symbols no earlier round used, so every import looks up, creates and folds as many
 * securities and holdings as it has rows. Target: twice the rows in at most 2.3 times the time.
 *
 * Two quadratic steps once hid here: the securities looked up as an OR of pairs (PostgreSQL
 * compared every row with every pair, and past 16,383 symbols the statement's parameters ran out:
 * a 500), and each holding's cancellations found by scanning every row.
 */
export async function importScaleWorkload(opts: {
  base: string;
  key: string;
  rounds: number;
  database: string;
}): Promise<void> {
  const sizes = [10_000, 20_000] as const;
  const times: Record<number, number[]> = { [sizes[0]]: [], [sizes[1]]: [] };
  const headers = { authorization: opts.key, "content-type": "application/json" };
  // Its own empty portfolios, made now: made with the seed, they would be in B4's list too.
  const target = async () => {
    const res = await fetch(`${opts.base}/v1/portfolios`, {
      method: "POST",
      body: JSON.stringify({ name: `B20 ${Math.random()}`, baseCurrencyCode: "AUD" }),
      headers,
    });
    if (res.status !== 201) throw new Error(`B20: creating a portfolio answered ${res.status}`);
    return ((await res.json()) as { id: number }).id;
  };
  for (let r = 0; r < opts.rounds; r++) {
    // Alternate which size goes first, so a slower second import in a round counts for both.
    for (const n of r % 2 === 0 ? sizes : [...sizes].reverse()) {
      const rows = Array.from({ length: n }, (_, i) => ({
        symbol: `R${r}N${n / 1000}S${i}`,
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 10,
        price: 1 + (i % 13),
      }));
      const portfolioId = await target();
      const t = performance.now();
      const res = await fetch(`${opts.base}/v1/portfolios/${portfolioId}/trades/import`, {
        method: "POST",
        body: JSON.stringify(rows),
        headers,
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`B20 import of ${n}: ${res.status} ${text.slice(0, 300)}`);
      times[n].push(performance.now() - t);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [small, large] = sizes.map((n) => median(times[n]));
  console.log(
    JSON.stringify({
      workload: "B20 import, one new security a row: 10,000 vs 20,000 rows",
      database: opts.database,
      node: process.version,
      ms: { [sizes[0]]: Math.round(small), [sizes[1]]: Math.round(large) },
      ratio: Math.round((large / small) * 100) / 100,
      target: "≤ 2.3",
      met: large / small <= 2.3,
      rounds: opts.rounds,
    }),
  );
}
