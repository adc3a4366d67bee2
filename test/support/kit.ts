import pino from "pino";
import { buildContext, type Context } from "../../src/context";
import { authenticateKey } from "../../src/modules/accounts/accounts.service";
import { SeriesCache } from "../../src/modules/ledger/valuation/series-cache";
import type { TestApp } from "./app";

/**
 * Small things the API suites share: formats, request builders, statement counting. The setup
 * factories (newPortfolio, newTrade, …) are in test/factories.
 */

/** An ISO 8601 UTC timestamp as the API writes one (milliseconds optional). */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** A lower-case RFC 9562 UUID. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A valid 1×1 PNG, for attachment uploads. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63f8cfc0000003010100c9fe92ef0000000049454e44ae426082",
  "hex",
);
/** Midnight UTC of a YYYY-MM-DD date, for rows written straight to the database. */
export const utcDate = (d: string): Date => new Date(`${d}T00:00:00.000Z`);

/** Sends a request and counts the SQL statements the database ran for it. */
export async function measured<R>(
  db: TestApp["db"],
  send: () => PromiseLike<R>,
): Promise<{ res: R; statements: number }> {
  const before = db.statementCount;
  const res = await send();
  return { res, statements: db.statementCount - before };
}

/** The trade-import CSV header (docs/conventions.md §7.4). */
export const TRADE_CSV_HEADER = "date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes";
/** A trade-import CSV file: the header, these lines, a final newline. */
export const tradeCsv = (...lines: string[]): string => [TRADE_CSV_HEADER, ...lines].join("\n") + "\n";
/** POST /v1/portfolios/{p}/trades/import with JSON rows (a supertest request). */
export const importTradesJson = (t: TestApp, key: string, portfolioId: number, rows: unknown, query = "") =>
  t.http
    .post(`/v1/portfolios/${portfolioId}/trades/import${query}`)
    .set("authorization", key)
    .send(rows as object);
/** POST /v1/portfolios/{p}/trades/import with a CSV body (a supertest request). */
export const importTradesCsv = (t: TestApp, key: string, portfolioId: number, csv: string, query = "") =>
  t.http
    .post(`/v1/portfolios/${portfolioId}/trades/import${query}`)
    .set("authorization", key)
    .set("content-type", "text/csv")
    .send(csv);

type TestPrisma = TestApp["db"]["prisma"];

/** Text only a ledger page statement's SQL has (src/modules/ledger/load.ts: the trades aggregated into text). */
export const LEDGER_PAGE_SQL = "string_agg(concat_ws";

/**
 * The test database's client with hooks around its raw statements: `before(sql)` runs before a
 * statement is sent, `after(sql)` once it has answered and before its caller sees the answer (a
 * write there lands between two statements of one read). Everything else is the client itself.
 */
export function hookedClient(
  prisma: TestPrisma,
  hooks: { before?: (sql: string) => Promise<void>; after?: (sql: string) => Promise<void> },
): TestPrisma {
  return new Proxy(prisma, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== "$queryRaw") return typeof value === "function" ? value.bind(target) : value;
      return async (strings: TemplateStringsArray, ...values: unknown[]) => {
        const sql = strings.join("");
        await hooks.before?.(sql);
        const answer = await target.$queryRaw(strings, ...values);
        await hooks.after?.(sql);
        return answer;
      };
    },
  });
}

/**
 * A service's Context for `key`, as a request would build it, over `db` (the test database's
 * client unless given: say, a hookedClient), with a silent log and a cache of its own, for calling
 * a service directly.
 */
export async function serviceContext(t: TestApp, key: string, db: TestPrisma = t.db.prisma): Promise<Context> {
  return buildContext({
    db,
    auth: await authenticateKey(t.db.prisma, key),
    log: pino({ level: "silent" }),
    series: new SeriesCache(),
  });
}

/**
 * The test database's client that runs `write` once, after the first ledger page read has answered
 * and before its caller sees it (a write that lands in the middle of a report's read); `reads.count`
 * counts the ledger page reads.
 */
export function writeAfterFirstLedgerRead(
  prisma: TestPrisma,
  write: () => Promise<void>,
): { db: TestPrisma; reads: { count: number } } {
  const reads = { count: 0 };
  const db = hookedClient(prisma, {
    after: async (sql) => {
      if (sql.includes(LEDGER_PAGE_SQL) && ++reads.count === 1) await write();
    },
  });
  return { db, reads };
}
