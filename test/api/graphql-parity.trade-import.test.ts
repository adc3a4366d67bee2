import { ledgerFingerprint, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { schema, type Json, rest, parityTransports } from "./graphql-parity.transports";

/**
 * (d) Trade import and the symbol-change list answer alike on both transports.
 *
 * REST and GraphQL are two adapters over one set of service functions (docs/conventions.md §9.1, "one
 * name for one operation"). This suite holds them together:
 *  (a) the operation sets match under one naming rule;
 *  (b) schema.graphql passes graphql-schema-linter's description rules;
 *  (c) every value REST types as an enum is a GraphQL enum with exactly the same values;
 *  (d) trade import and the symbol-change list answer alike on both transports;
 *  (e) pro-rata components take the same JSON on both transports and answer alike.
 *
 * The naming rule: a REST operationId is the name of the service function it calls. A GraphQL
 * mutation has that same name. A GraphQL query field is the operationId without its leading
 * `get` or `list`, first letter lower-cased (getPortfolio → portfolio, listPortfolios →
 * portfolios, searchSecurities → searchSecurities). A list that belongs to a parent is a field of
 * the parent's type instead (RELATIONS in graphql-parity.operation-sets.test.ts).
 */

const t = useTestApp();
let key: string;
const { gql } = parityTransports(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

/** A portfolio's holdings with their trades, without the ids that differ between portfolios. */
async function contents(p: number): Promise<Json[]> {
  const holdings = (await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key))
    .body as Json[];
  return Promise.all(
    holdings.map(async ({ id, portfolioId: _p, ...h }) => {
      const trades = (await t.http.get(`/v1/holdings/${id}/trades`).set("authorization", key)).body as Json[];
      return { ...h, trades: trades.map(({ id: _i, holdingId: _h, portfolioId: _pp, ...x }) => x) };
    }),
  );
}

const IMPORT = `mutation($p: ID!, $input: TradeImportInput!) {
  importTrades(portfolioId: $p, input: $input) { dryRun imported valid newHoldings { symbol exchange } tradeIds skipped { line duplicateOf } format ignored { line reason } warnings }
}`;

const importRest = (p: number, body: unknown, query = "", csv = false) => {
  const req = t.http.post(`/v1/portfolios/${p}/trades/import${query}`).set("authorization", key);
  return csv ? req.set("content-type", "text/csv").send(body as string) : req.send(body as object);
};

/** An import answer with its ids replaced by their count (ids differ between portfolios). */
const shape = (o: { data?: unknown; code?: string; errors?: unknown }) => {
  if (!o.data) return o;
  const r = o.data as Json & { tradeIds: unknown[]; skipped: Json[] };
  return { data: { ...r, tradeIds: r.tradeIds.length, skipped: r.skipped.map((s) => s.line) } };
};

const ROWS = [
  {
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
    brokerage: 9.95,
  },
  {
    symbol: "NAB",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-11",
    quantity: "20",
    price: "30.5",
    notes: "from the statement",
  },
  { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: 4, price: 110 },
];

const CSV =
  "date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes\n2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first\n2024-03-01,Sell,CBA,ASX,5,120,0,,,,\n";

describe("(d) trade import and symbol changes over both transports", () => {
  it("the same JSON rows import alike: the same answer and the same trades", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const viaRest = rest(await importRest(a, ROWS));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: ROWS } }, "importTrades");
    expect(viaRest.data).toMatchObject({ dryRun: false, imported: 3, valid: 3 });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect((viaGraphql.data as { tradeIds: unknown[] }).tradeIds.every((id) => typeof id === "string")).toBe(true);
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("the same CSV text imports alike", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const viaRest = rest(await importRest(a, CSV, "", true));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { csv: CSV } }, "importTrades");
    expect(viaRest.data).toMatchObject({ imported: 2 });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("a dry run answers alike and writes nothing on either", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const before = await ledgerFingerprint(t.db);
    const viaRest = rest(await importRest(a, ROWS, "?dryRun=true"));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: ROWS, dryRun: true } }, "importTrades");
    expect(viaRest.data).toMatchObject({ dryRun: true, imported: 0, valid: 3, tradeIds: [] });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("duplicates: skip leaves out the same rows on both", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    expect(rest(await importRest(a, ROWS)).data).toBeTruthy();
    expect((await gql(IMPORT, { p: String(b), input: { rows: ROWS } }, "importTrades")).data).toBeTruthy();
    const again = [
      ...ROWS,
      { symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-03-01", quantity: 1, price: 1 },
    ];
    const viaRest = rest(await importRest(a, again, "?duplicates=skip"));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: again, duplicates: "skip" } }, "importTrades");
    expect(shape(viaRest)).toMatchObject({ data: { imported: 1, skipped: [1, 2, 3] } });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("a refused import names the same rows with the same messages and writes nothing", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const bad = [ROWS[0], { ...ROWS[1], quantity: "lots" }, { ...ROWS[2], price: "-1" }];
    const before = await ledgerFingerprint(t.db);
    const viaRest = rest(await importRest(a, bad));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: bad } }, "importTrades");
    expect(viaRest.code).toBe("VALIDATION_FAILED");
    expect(viaGraphql).toEqual(viaRest);
    // Rows and CSV at once is no body REST could send either.
    expect((await gql(IMPORT, { p: String(b), input: { rows: ROWS, csv: CSV } }, "importTrades")).code).toBe(
      "VALIDATION_FAILED",
    );
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("the symbol-change list answers alike; an unknown or foreign holding is NOT_FOUND on both", async () => {
    const p = await newPortfolio(t, key, { name: "Parity" });
    const holdingId = (
      await t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "AAA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-10",
        quantity: 1,
        price: 1,
      })
    ).body.holdingId as number;
    const SYMBOL_CHANGES = `query($h: ID!) { symbolChanges(holdingId: $h) { fromSymbol fromExchange toSymbol toExchange changedAt } }`;
    expect(await gql(SYMBOL_CHANGES, { h: String(holdingId) }, "symbolChanges")).toEqual({ data: [] });
    expect(
      (
        await t.http
          .put(`/v1/holdings/${holdingId}/symbol`)
          .set("authorization", key)
          .send({ symbol: "BBB", exchange: "ASX" })
      ).status,
    ).toBe(200);
    const CHANGE = `mutation($h: ID!) { changeHoldingSymbol(id: $h, symbol: "CCC", exchange: "ASX") { symbol } }`;
    expect(await gql(CHANGE, { h: String(holdingId) }, "changeHoldingSymbol")).toEqual({ data: { symbol: "CCC" } });

    const viaRest = rest(await t.http.get(`/v1/holdings/${holdingId}/symbol-changes`).set("authorization", key));
    const viaGraphql = await gql(SYMBOL_CHANGES, { h: String(holdingId) }, "symbolChanges");
    expect(viaRest.data).toEqual([
      { fromSymbol: "AAA", fromExchange: "ASX", toSymbol: "BBB", toExchange: "ASX", changedAt: expect.any(String) },
      { fromSymbol: "BBB", fromExchange: "ASX", toSymbol: "CCC", toExchange: "ASX", changedAt: expect.any(String) },
    ]);
    expect(viaGraphql).toEqual(viaRest);

    const mine = key;
    key = await t.newAccount();
    for (const h of [holdingId, 999999]) {
      expect(rest(await t.http.get(`/v1/holdings/${h}/symbol-changes`).set("authorization", key)).code).toBe(
        "NOT_FOUND",
      );
      expect((await gql(SYMBOL_CHANGES, { h: String(h) }, "symbolChanges")).code).toBe("NOT_FOUND");
    }
    key = mine;
  });
});
