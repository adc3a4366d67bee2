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
  // other requests (a health check) wait at most one statement. Only starts are spaced: nothing
  // waits for another statement to finish (a transaction's statements cannot deadlock on it).
  let turnstile = Promise.resolve();
  const nextTurn = () => (turnstile = turnstile.then(() => new Promise<void>((resolve) => setImmediate(resolve))));
  const countQueries = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            counter.n++;
            counter.active++;
            const sql = (args[0] as { sql: string }).sql;
            const ended = counter.observer?.(sql);
            const result = (
              yieldBetween ? nextTurn().then(() => value.apply(obj, args)) : value.apply(obj, args)
            ) as Promise<number | { rows: unknown[] }>;
            return result.then(
              (r) => {
                counter.active--;
                ended?.();
                onStatement?.(sql, typeof r === "number" ? r : r.rows.length);
                return r;
              },
              (error: unknown) => {
                counter.active--;
                ended?.(error);
                throw error;
              },
            );
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) => countQueries((await value.apply(obj, args)) as Transaction);
        }
        return value.bind(obj);
      },
    });
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === "connect") return async () => countQueries((await value.call(obj)) as SqlDriverAdapter);
      return typeof value === "function" ? value.bind(obj) : value;
    },
  });
}
