import type { PGlite } from "@electric-sql/pglite";

/**
 * Planner statistics for the embedded database. PGlite runs PostgreSQL in single-user mode, where
 * no autovacuum worker ever starts: tables are never analyzed and the planner plans every query
 * on default guesses (a 500-holding portfolio's prices took 40 ms to read instead of 6, by a nested
 * loop over every pair). This keeps what autovacuum would keep, by its own rule: a table is
 * analyzed once the rows written to it since its last analysis pass 50 + 10 % of its size
 * (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor), and vacuumed too once the rows
 * updated or deleted pass 50 + 20 % (autovacuum_vacuum_threshold, _scale_factor). The work runs a
 * moment after the writes go quiet, so it never sits in front of a burst of requests.
 *
 * PostgreSQL servers run their own autovacuum: this is for PGlite only.
 */
export class EmbeddedStatistics {
  private readonly written = new Map<string, { rows: number; dead: number }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: PGlite,
    private readonly quietMs = 1_000,
  ) {}

  /** Analyzes every table that has never been analyzed (a fresh database, a new migration's tables). */
  async analyzeNeverAnalyzed(): Promise<void> {
    const { rows } = await this.db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND reltuples < 0`,
    );
    if (rows.length > 0) await this.db.exec(`ANALYZE ${rows.map((r) => quoteIdent(r.relname)).join(", ")}`);
  }

  /** Notes a statement the service ran and the rows it changed (a write's count, RETURNING rows). */
  noteStatement(sql: string, rowsChanged: number): void {
    const write = WRITE.exec(sql);
    if (!write || this.stopped) return;
    const inserted = write[1].toUpperCase().startsWith("INSERT");
    const table = write[2];
    const entry = this.written.get(table) ?? { rows: 0, dead: 0 };
    const n = Math.max(rowsChanged, 1);
    entry.rows += n;
    if (!inserted) entry.dead += n;
    this.written.set(table, entry);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settle(), this.quietMs);
    this.timer.unref();
  }

  /** Runs the upkeep now for what has been written (tests, and before closing). */
  settle(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.running.then(() => this.upkeep()).catch(() => undefined);
    return this.running;
  }

  /** Stops scheduling and waits for upkeep already under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async upkeep(): Promise<void> {
    if (this.written.size === 0 || this.stopped) return;
    const written = new Map(this.written);
    const { rows } = await this.db.query<{ relname: string; reltuples: number }>(
      `SELECT relname, reltuples FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname = ANY($1::text[])`,
      [[...written.keys()]],
    );
    const analyze: string[] = [];
    const vacuum: string[] = [];
    for (const { relname, reltuples } of rows) {
      const size = Math.max(Number(reltuples), 0);
      const w = written.get(relname)!;
      if (w.dead >= 50 + 0.2 * size) vacuum.push(relname);
      else if (w.rows >= 50 + 0.1 * size) analyze.push(relname);
      else continue;
      this.written.delete(relname);
    }
    // Tables the catalogue does not know (a typo'd name in raw SQL fails anyway) are forgotten.
    for (const table of written.keys()) if (!rows.some((r) => r.relname === table)) this.written.delete(table);
    if (this.stopped) return;
    if (analyze.length > 0) await this.db.exec(`ANALYZE ${analyze.map(quoteIdent).join(", ")}`);
    for (const table of vacuum) await this.db.exec(`VACUUM (ANALYZE) ${quoteIdent(table)}`);
  }
}

/** INSERT INTO / UPDATE / DELETE FROM, Prisma's `"public"."trade"` and the service's plain `trade`. */
const WRITE = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/i;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
