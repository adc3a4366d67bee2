import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database } from "../../src/db";

/**
 * The embedded database keeps its planner statistics the way autovacuum would (PGlite has no
 * autovacuum): tables never analyzed are analyzed on opening, and a table written past
 * 50 + 10 % of its size is analyzed once the writes go quiet (settleStatistics runs that now).
 * Without it the planner guessed and a 500-holding rebalance read its prices by a nested loop
 * over every pair (40 ms instead of 6). PostgreSQL servers run their own autovacuum.
 */
const onPglite = !process.env.TEST_DATABASE_URL;
const describePglite = onPglite ? describe : describe.skip;

describePglite("planner statistics on the embedded database", () => {
  let pglite: PGlite;
  let db: Database;
  const reltuples = async (table: string) =>
    Number(
      (await pglite.query<{ n: number }>(`SELECT reltuples AS n FROM pg_class WHERE relname = $1`, [table])).rows[0].n,
    );
  const analyzedColumns = async (table: string) =>
    (await pglite.query(`SELECT attname FROM pg_stats WHERE tablename = $1`, [table])).rows.length;

  beforeAll(async () => {
    pglite = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(process.env.TEST_PGLITE_SNAPSHOT!)]) });
    // A table no analysis has seen (a migration's new table): reltuples is -1 until one does.
    await pglite.exec(
      `CREATE TABLE fresh_table (id int PRIMARY KEY); INSERT INTO fresh_table SELECT generate_series(1, 20)`,
    );
    expect(await reltuples("fresh_table")).toBe(-1);
    db = await openDatabase({ pglite, migrate: false });
  });
  afterAll(() => db.close());

  it("analyzes on opening every table never analyzed", async () => {
    expect(await reltuples("fresh_table")).toBe(20);
  });

  it("analyzes a table written past 50 + 10 % of its size, and not before", async () => {
    // 120 rows into an empty table: past 50 + 10 % × 0.
    await db.prisma.$executeRaw`INSERT INTO account (name) SELECT 'stats ' || g FROM generate_series(1, 120) g`;
    await db.settleStatistics();
    expect(await reltuples("account")).toBe(120);
    expect(await analyzedColumns("account")).toBeGreaterThan(0);

    // 40 more (one by one, as the service writes): below 50 + 12, so the statistics still say 120.
    for (let i = 0; i < 40; i++) await db.prisma.account.create({ data: { name: `one by one ${i}` } });
    await db.settleStatistics();
    expect(await reltuples("account")).toBe(120);

    // 30 more make 70 written since the last analysis: past 62.
    await db.prisma.account.createMany({ data: Array.from({ length: 30 }, (_, i) => ({ name: `batch ${i}` })) });
    await db.settleStatistics();
    expect(await reltuples("account")).toBe(190);
  });

  it("vacuums and analyzes a table whose updates and deletes pass 50 + 20 % of its size", async () => {
    const before = await pglite.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = 'account' AND last_vacuum IS NOT NULL`,
    );
    expect(before.rows[0].n).toBe(0);
    await db.prisma.$executeRaw`DELETE FROM account WHERE name LIKE 'stats %'`;
    await db.settleStatistics();
    expect(await reltuples("account")).toBe(70);
    const after = await pglite.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = 'account' AND last_vacuum IS NOT NULL`,
    );
    expect(after.rows[0].n).toBe(1);
  });

  it("runs by itself once the writes go quiet", async () => {
    await db.prisma.$executeRaw`INSERT INTO account (name) SELECT 'quiet ' || g FROM generate_series(1, 200) g`;
    const deadline = Date.now() + 10_000;
    while ((await reltuples("account")) !== 270 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await reltuples("account")).toBe(270);
  });
});

(onPglite ? describe.skip : describe)("on PostgreSQL", () => {
  it("leaves the statistics to the server's autovacuum", async () => {
    const db = await openDatabase({ url: process.env.TEST_DATABASE_URL, migrate: false, poolSize: 1 });
    try {
      await expect(db.settleStatistics()).resolves.toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
