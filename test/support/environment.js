// @ts-check
const { TestEnvironment } = require("jest-environment-node");
const pglite = require("@electric-sql/pglite");

/**
 * Jest's Node environment plus what a worker keeps from one test file to the next: the embedded
 * database's module, and one migrated database that a finished file handed back clean, which the
 * next file borrows instead of booting PGlite from the snapshot (test/support/db.ts decides when
 * it is clean). Measured on 80 API files, same machine and warm caches: 319 s on two workers
 * before, 205 s after; the whole embedded suite in CI (cold caches) went from 921-984 s to 890 s.
 *
 * Every file's `@electric-sql/pglite` is this module (jest.config.js maps it to shared-pglite.js):
 * a database made here and the adapter reading it in a test file see the same classes, so the
 * adapter's `instanceof DatabaseError` holds. Plain JavaScript: jest loads it outside its
 * transform, once per worker.
 */
let idle; // a clean database no file holds

/** @type {import("./db").WorkerDatabases} */
const workerDatabases = {
  pristine: undefined,
  take() {
    const db = idle;
    idle = undefined;
    return db && !db.closed ? db : undefined;
  },
  async give(db) {
    if (idle && !idle.closed) await db.close();
    else idle = db;
  },
};

/**
 * Inside a worker only: a run in band (jest -i) has no end to hook, and a database kept there would
 * hold jest up to 10 s after the run (PostgreSQL's idle timers inside PGlite are Node timers).
 * A worker's end is jest-worker removing its message listener: the kept database is closed then,
 * or those timers would outlive jest's grace period for the worker to exit.
 */
const inWorker = typeof process.send === "function";
if (inWorker)
  process.on("removeListener", (event) => {
    if (event !== "message" || process.listenerCount("message") > 0 || !idle) return;
    const db = idle;
    idle = undefined;
    void db.close().catch(() => undefined);
  });

module.exports = class EnvironmentWithDatabase extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    if (inWorker) this.global.__workerDatabases = workerDatabases;
    this.global.__pgliteModule = pglite;
  }
};
