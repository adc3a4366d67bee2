import { findSecurities } from "../../src/modules/securities/securities.service";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { type Json, COMMSEC, tradeImportApi } from "./trades-import.requests";

/**
 * Bulk trade import (docs/conventions.md §7.4: POST /v1/portfolios/{p}/trades/import), REST only (GraphQL
 * has no import). A JSON array of trade bodies or text/csv with the header
 * `date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes`.
 * All or nothing: every rejected row is listed as `{path: "line N.field", message, line: N}` (CSV:
 * the header is line 1; JSON: the array position + 1) and nothing is written; `?dryRun=true`
 * validates only. The ledger of the file is folded with the existing one, so a sell may use units
 * bought earlier in the same file, and the result equals recording the rows one by one. The rows
 * go in with a set-based insert: the statement count does not grow with the number of rows.
 */
/**
 * The import inserts its rows set-based: 2,000 rows cost the same few SQL statements as 20.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { importJson } = tradeImportApi(t, () => key);

describe("set-based insert", () => {
  function rows(n: number): Json[] {
    return Array.from({ length: n }, (_, i) => {
      const symbol = i % 2 === 0 ? "CBA" : "NAB";
      const date = new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 2))).toISOString().slice(0, 10);
      return i % 10 === 9
        ? { symbol, exchange: "ASX", tradeType: "Sell", tradeDate: date, quantity: 1, price: 2 }
        : {
            symbol,
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: date,
            quantity: 1,
            price: 1,
            brokerage: "0.5",
            sourceId: COMMSEC,
            notes: `row ${i}`,
          };
    });
  }

  async function statementsFor(n: number, body: Json[] = rows(n)): Promise<number> {
    const p = await newPortfolio(t, key);
    const before = t.db.statementCount;
    const res = await importJson(p, body);
    const used = t.db.statementCount - before;
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(n);
    expect(await t.db.sql(`SELECT 1 FROM trade WHERE portfolio_id = $1`, [p])).toHaveLength(n);
    return used;
  }

  it("2,000 rows cost the same few SQL statements as 20 rows", async () => {
    const small = await statementsFor(20);
    const large = await statementsFor(2000);
    expect(Math.abs(large - small)).toBeLessThanOrEqual(3);
    expect(large).toBeLessThan(50);
  });

  it("50 new holdings cost the same few statements as 2 (known and unknown symbols alike)", async () => {
    // One buy per symbol: S00..S49, half on the master list's exchange ASX, half unknown on NYSE.
    const buys = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        symbol: `S${String(i).padStart(2, "0")}`,
        exchange: i % 2 ? "NYSE" : "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 1,
        price: 1,
        ...(i % 2 ? { exchangeRate: "0.65" } : {}),
      }));
    const two = await statementsFor(2, buys(2));
    const fifty = await statementsFor(50, buys(50));
    expect(fifty - two).toBeLessThanOrEqual(2);
    const made = await t.db.sql<{ symbol: string }>(
      `SELECT symbol FROM holding WHERE portfolio_id = (SELECT max(portfolio_id) FROM holding) ORDER BY id`,
    );
    // Created in the order the file names them (their ids follow it).
    expect(made.map((h) => h.symbol)).toEqual(buys(50).map((b) => b.symbol));
  });

  it("looks a symbol up once however many rows name it (20,000 rows of one new symbol fit the statement)", async () => {
    const found = await findSecurities(t.db.prisma, 1, Array(20_000).fill({ symbol: "CBA", exchange: "ASX" }));
    expect([...found.keys()]).toEqual(["CBA|ASX"]);
  });

  it("looks 20,000 different symbols up in one statement", async () => {
    // As an OR of pairs, each symbol cost two bind parameters: past 16,383 symbols the statement
    // passed PostgreSQL's 32,767 and the import answered 500.
    const wanted = [
      { symbol: "CBA", exchange: "ASX" },
      ...Array.from({ length: 19_999 }, (_, i) => ({ symbol: `Z${i}`, exchange: "ASX" })),
    ];
    const before = t.db.statementCount;
    const found = await findSecurities(t.db.prisma, 1, wanted);
    expect(t.db.statementCount - before).toBe(1);
    expect([...found.keys()]).toEqual(["CBA|ASX"]);
    expect(found.get("CBA|ASX")).toMatchObject({ accountId: null, currencyCode: "AUD", securityType: "Stock" });
    // The same row Prisma's own read gives (every column, with its type).
    expect(found.get("CBA|ASX")).toEqual(
      await t.db.prisma.security.findFirst({ where: { symbol: "CBA", exchange: "ASX", accountId: null } }),
    );
  });

  it("an account's own security comes before the master list's of the same symbol", async () => {
    const [{ id: accountId }] = await t.db.sql<{ id: number }>(`SELECT id FROM account ORDER BY id DESC LIMIT 1`);
    await t.db.sql(
      `INSERT INTO security (account_id, symbol, exchange, name, currency_code, security_type) VALUES ($1, 'CBA', 'ASX', 'Own CBA', 'AUD', 'Stock')`,
      [accountId],
    );
    const found = await findSecurities(t.db.prisma, accountId, [{ symbol: "CBA", exchange: "ASX" }]);
    expect(found.get("CBA|ASX")).toMatchObject({ accountId, name: "Own CBA" });
    const other = await findSecurities(t.db.prisma, accountId + 1_000, [{ symbol: "CBA", exchange: "ASX" }]);
    expect(other.get("CBA|ASX")).toMatchObject({ accountId: null });
  });
});
