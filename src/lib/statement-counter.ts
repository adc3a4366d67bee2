import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";

/**
 * Told of each statement as it is sent, in the caller's async context (so a statement joins the
 * caller's trace: src/observability); answers what to call once it has answered or failed.
 */
export type StatementObserver = (sql: string) => ((error?: unknown) => void) | undefined;

/** Statements sent so far, those not answered yet, and who is told of each. */
export interface StatementCounter {
  n: number;
  active: number;
  observer?: StatementObserver;
}

/**
 * Sends one statement (`send`) counted, and told to the observer in the caller's async context:
 * Prisma's through the adapter below, and the pool's own (Database.query).
 */
export async function countStatement<T>(counter: StatementCounter, sql: string, send: () => Promise<T>): Promise<T> {
  counter.n++;
  counter.active++;
  const ended = counter.observer?.(sql);
  try {
    const result = await send();
    counter.active--;
    ended?.();
    return result;
  } catch (error) {
    counter.active--;
    ended?.(error);
    throw error;
  }
}

/**
 * Wraps an adapter factory to count every statement Prisma sends (the no-N+1 tests read it), to
 * tell the statement observer, and, when asked, to report each one with the rows it changed or
 * returned.
 */
export function counting(
  factory: SqlDriverAdapterFactory,
  counter: StatementCounter,
  onStatement?: (sql: string, rows: number) => void,
  yieldBetween = false,
): SqlDriverAdapterFactory {
  // The embedded database runs in this thread: statements sent together (a Promise.all of a
  // range load) would run back to back as one block of microtasks. With `yieldBetween` each
  // statement starts on its own turn of the event loop, one turn after the one before it, so
  // other requests (a health check) wait at most one statement. Only starts are spaced here: no
  // statement waits for another's end, except the one before it in its own transaction (below).
  let turnstile = Promise.resolve();
  const nextTurn = () => (turnstile = turnstile.then(() => new Promise<void>((resolve) => setImmediate(resolve))));
  // A transaction holds one connection, on which statements run one at a time anyway: Prisma may
  // send several at once (a Promise.all inside a transaction), which pg queues but deprecates
  // ("Calling client.query() when the client is already executing a query", gone in pg 9). Each
  // transaction's statements are sent one after the other instead, in the order they came.
  const countQueries = <T extends object>(target: T, oneAtATime = false): T => {
    let previous: Promise<unknown> = Promise.resolve();
    const send = (run: () => Promise<unknown>) => {
      if (!oneAtATime) return run();
      const sent = previous.then(run, run);
      previous = sent.catch(() => {});
      return sent;
    };
    return new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            const sql = (args[0] as { sql: string }).sql;
            const run = () => value.apply(obj, args) as Promise<unknown>;
            return countStatement(
              counter,
              sql,
              () => send(yieldBetween ? () => nextTurn().then(run) : run) as Promise<number | { rows: unknown[] }>,
            ).then((r) => {
              onStatement?.(sql, typeof r === "number" ? r : r.rows.length);
              return r;
            });
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) => countQueries((await value.apply(obj, args)) as Transaction, true);
        }
        return value.bind(obj);
      },
    });
  };
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === "connect") return async () => countQueries((await value.call(obj)) as SqlDriverAdapter);
      return typeof value === "function" ? value.bind(obj) : value;
    },
  });
}
