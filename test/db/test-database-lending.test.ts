import type { PGlite } from "@electric-sql/pglite";
import { openTestDatabase, type WorkerDatabases } from "../support/db";

/**
 * The test kit's lending of one embedded database from test file to test file (test/support/db.ts
 * `lend`, environment.js): a file's closed database goes to the next file only when it is as clean
 * as a new one, and a file finds it so. Driven through a worker slot of this file's own, so the
 * story runs the same in band and in a worker. PGlite only: on PostgreSQL every file has a database
 * of its own. No PGlite goes to expect(): a failure would print the whole database.
 */
const onPglite = !process.env.TEST_DATABASE_URL;
type Slot = WorkerDatabases & { given: PGlite[] };
const holder = globalThis as { __workerDatabases?: WorkerDatabases };
let workers: WorkerDatabases | undefined;
let slot: Slot;

beforeEach(() => {
  workers = holder.__workerDatabases;
  let kept: PGlite | undefined;
  slot = {
    given: [],
    pristine: undefined,
    take() {
      const db = kept;
      kept = undefined;
      return db;
    },
    async give(db) {
      this.given.push(db);
      kept = db;
    },
  };
  holder.__workerDatabases = slot;
});
afterEach(async () => {
  holder.__workerDatabases = workers;
  for (const db of slot.given) if (!db.closed) await db.close();
});

(onPglite ? describe : describe.skip)("a test file's embedded database, lent to the next file", () => {
  it("goes back clean and comes out empty: rows gone, sequences restarted, session settings reset", async () => {
    const first = await openTestDatabase();
    await first.sql(`INSERT INTO account (name) VALUES ('a'), ('b')`);
    await first.sql(`SELECT nextval('ledger_version_seq'), nextval('ledger_version_seq')`);
    await first.sql(`SET statement_timeout = '5s'`);
    await first.close();
    expect(slot.given.length).toBe(1);

    const second = await openTestDatabase();
    expect(slot.take() === undefined).toBe(true); // the second file holds the one database
    expect(await second.sql(`SELECT count(*)::int AS n FROM account`)).toEqual([{ n: 0 }]);
    expect(await second.sql(`SELECT nextval('ledger_version_seq')::int AS v`)).toEqual([{ v: 1 }]);
    const [{ id }] = await second.sql<{ id: number }>(`INSERT INTO account (name) VALUES ('c') RETURNING id`);
    expect(id).toBe(1);
    expect(await second.sql(`SHOW statement_timeout`)).toEqual([{ statement_timeout: "0" }]);
    expect(await second.sql(`SELECT count(*)::int AS n FROM source`)).not.toEqual([{ n: 0 }]);
    await second.close();
    expect(slot.given.length).toBe(2);
    expect(slot.given[1] === slot.given[0]).toBe(true);
  });

  it("is closed, not lent, when a test left the schema changed", async () => {
    const db = await openTestDatabase();
    await db.sql(`CREATE TABLE left_behind (x int)`);
    await db.close();
    expect(slot.given.length).toBe(0);
    const next = await openTestDatabase(); // booted from the snapshot: no such table
    expect(await next.sql(`SELECT to_regclass('left_behind') AS t`)).toEqual([{ t: null }]);
    await next.close();
  });

  it("is closed, not lent, when a test left a function or trigger, or a transaction open", async () => {
    const trigger = await openTestDatabase();
    await trigger.sql(`CREATE FUNCTION left_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`);
    await trigger.sql(`CREATE TRIGGER left_trg BEFORE INSERT ON portfolio FOR EACH ROW EXECUTE FUNCTION left_fn()`);
    await trigger.close();
    const open = await openTestDatabase();
    await open.sql(`BEGIN`);
    await open.close();
    expect(slot.given.length).toBe(0);
  });

  it("is given back when the master securities were changed, with them as seeded", async () => {
    // Every column but created_at, which the reseed sets anew (as the reset between tests does).
    const master = `SELECT md5(string_agg((id, account_id, symbol, exchange, name, currency_code, security_type)::text, ','
      ORDER BY id)) AS seeded FROM security`;
    const db = await openTestDatabase();
    const [{ seeded }] = await db.sql<{ seeded: string }>(master);
    await db.sql(`UPDATE security SET name = 'changed' WHERE id = (SELECT min(id) FROM security)`);
    await db.close();
    expect(slot.given.length).toBe(1);
    const next = await openTestDatabase();
    expect(await next.sql(master)).toEqual([{ seeded }]);
    await next.close();
  });
});
