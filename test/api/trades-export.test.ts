import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { importTradesCsv } from "../support/kit";
import { expectError, expectOk, expectRejected, gqlOutcome, type Json } from "../support/outcomes";

/**
 * The trade export (docs/data.md §5): GET /v1/portfolios/{p}/trades/export and GraphQL
 * `exportTrades`. Native: the import's columns, so that the file imported into an empty portfolio
 * gives the same holdings and the same capital gains report, and exports again byte for byte.
 * Sharesight: its trades-file columns, Buy and Sell only, its exchange rate the inverse of ours.
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});

const SHARESIGHT_HEADER =
  "Trade Date,Instrument Code,Market Code,Quantity,Price,Transaction Type,Exchange Rate (optional),Brokerage (optional),Brokerage Currency (optional),Comments (optional)";

/**
 * A portfolio over FY2023–FY2025: two CBA buys and a sell over both parcels; an AAPL buy and sell
 * in USD at given rates; a BHP transfer in keeping its 2019 acquisition date, a bonus issue without
 * price (its cost base spread over the parcel) and a sell; references and notes, one a formula.
 */
async function scenario(p: number) {
  const trade = (body: Json) => newTrade(t, key, { portfolioId: p, exchange: "ASX", ...body });
  const ids: Record<string, number> = {};
  ids.cbaBuy1 = (
    await trade({
      symbol: "CBA",
      tradeType: "Buy",
      tradeDate: "2022-08-01",
      quantity: 100,
      price: 95.5,
      brokerage: 19.95,
      reference: "C4417209",
      notes: "first parcel, from CommSec",
    })
  ).id;
  ids.cbaBuy2 = (
    await trade({
      symbol: "CBA",
      tradeType: "Buy",
      tradeDate: "2023-09-01",
      quantity: 50,
      price: 101.2,
      brokerage: 19.95,
    })
  ).id;
  ids.bhpIn = (
    await trade({
      symbol: "BHP",
      tradeType: "TransferIn",
      tradeDate: "2023-07-10",
      quantity: 200,
      price: 40,
      acquisitionDate: "2019-05-01",
      notes: "from the old broker",
    })
  ).id;
  ids.aaplBuy = (
    await trade({
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2023-11-01",
      quantity: 10,
      price: 170.25,
      brokerage: 3,
      currencyCode: "USD",
      exchangeRate: "1.52",
      reference: "T-4417-0091",
    })
  ).id;
  ids.bhpBonus = (await trade({ symbol: "BHP", tradeType: "Bonus", tradeDate: "2023-12-01", quantity: 20 })).id;
  ids.cbaSell = (
    await trade({
      symbol: "CBA",
      tradeType: "Sell",
      tradeDate: "2024-03-04",
      quantity: 120,
      price: 118,
      brokerage: 29.95,
      reference: "C4528830",
      notes: "=SUM(A1:A9)",
    })
  ).id;
  ids.bhpSell = (
    await trade({ symbol: "BHP", tradeType: "Sell", tradeDate: "2024-05-01", quantity: 100, price: 45, brokerage: 9.5 })
  ).id;
  ids.aaplSell = (
    await trade({
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Sell",
      tradeDate: "2024-08-12",
      quantity: 4,
      price: 215.6,
      brokerage: 3,
      currencyCode: "USD",
      exchangeRate: "1.4893",
    })
  ).id;
  return ids;
}

const exportRest = (p: number, query = "", k = key) =>
  t.http.get(`/v1/portfolios/${p}/trades/export${query}`).set("authorization", k);

const EXPORT = `query($p: ID!, $format: TradeExportFormat) { exportTrades(portfolioId: $p, format: $format) { fileName csv rows leftOut } }`;
const exportGql = (p: number | string, format?: unknown, k = key) =>
  t.gql(k, EXPORT, { p: String(p), ...(format === undefined ? {} : { format }) });

/** Drops every id (they differ between portfolios), deep. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "id" && !/Id$/.test(k))
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  return value;
}

async function holdings(p: number): Promise<Json[]> {
  const res = await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key);
  expect(res.status).toBe(200);
  return (res.body as Json[]).sort((a, b) => String(a.symbol).localeCompare(String(b.symbol)));
}

async function capitalGains(p: number, financialYear: number): Promise<Json> {
  const res = await t.http
    .get(`/v1/portfolios/${p}/reports/capital-gains?financialYear=${financialYear}`)
    .set("authorization", key);
  expect(res.status).toBe(200);
  return res.body as Json;
}

describe("native export → import into an empty portfolio", () => {
  it("gives the same holdings and capital gains, and exports again byte for byte", async () => {
    const p = await newPortfolio(t, key, { name: "Original" });
    await scenario(p);
    const file = await exportRest(p);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(file.headers["content-disposition"]).toMatch(/^attachment; filename="?portfolio-\d+-trades\.csv"?$/);
    expect(file.headers["x-trades-left-out"]).toBe("0");
    const lines = file.text.split("\r\n");
    expect(lines[0]).toBe(
      "date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes,reference,acquisitionDate,holdingType,name",
    );
    // 8 trades in date order, then the final CRLF.
    expect(lines).toHaveLength(10);
    expect(lines.slice(1, 9).map((l) => l.slice(0, 10))).toEqual(
      [...lines.slice(1, 9).map((l) => l.slice(0, 10))].sort(),
    );

    const copy = await newPortfolio(t, key, { name: "Copy" });
    const imported = await t.http
      .post(`/v1/portfolios/${copy}/trades/import`)
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send(file.text);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: "native", imported: 8, skipped: [], ignored: [] });

    const [mine, theirs] = [await holdings(p), await holdings(copy)];
    expect(mine.map((h) => [h.symbol, h.quantity, h.costBase, h.holdingType])).toEqual([
      ["AAPL", 6, expect.any(Number), "Stock"],
      ["BHP", 120, expect.any(Number), "Stock"],
      ["CBA", 30, expect.any(Number), "Stock"],
    ]);
    expect(withoutIds(theirs)).toEqual(withoutIds(mine));

    for (const year of [2023, 2024, 2025]) {
      expect(withoutIds(await capitalGains(copy, year))).toEqual(withoutIds(await capitalGains(p, year)));
    }
    // The years hold the disposals the scenario made: CBA over two parcels, BHP, then AAPL.
    expect(((await capitalGains(p, 2024)).disposals as Json[]).map((d) => [d.symbol, d.quantity])).toEqual([
      ["CBA", 100],
      ["CBA", 20],
      ["BHP", 100],
    ]);
    expect(((await capitalGains(p, 2025)).disposals as Json[]).map((d) => [d.symbol, d.quantity])).toEqual([
      ["AAPL", 4],
    ]);

    const again = await exportRest(copy);
    expect(again.status).toBe(200);
    expect(again.text).toBe(file.text);
    expect(again.headers["content-disposition"]).not.toBe(file.headers["content-disposition"]);
  });

  it("writes each trade's reference, notes, rate and acquisition date in their columns", async () => {
    const p = await newPortfolio(t, key);
    await scenario(p);
    const rows = (await exportRest(p)).text.split("\r\n").slice(1, -1);
    expect(rows).toEqual([
      '2022-08-01,Buy,CBA,ASX,100,95.5,19.95,AUD,1,,"first parcel, from CommSec",C4417209,,Stock,Commonwealth Bank of Australia',
      "2023-07-10,TransferIn,BHP,ASX,200,40,0,AUD,1,,from the old broker,,2019-05-01,Stock,BHP Group Limited",
      "2023-09-01,Buy,CBA,ASX,50,101.2,19.95,AUD,1,,,,,Stock,Commonwealth Bank of Australia",
      "2023-11-01,Buy,AAPL,NASDAQ,10,170.25,3,USD,1.52,,,T-4417-0091,,Stock,Apple Inc.",
      "2023-12-01,Bonus,BHP,ASX,20,0,0,AUD,1,,,,,Stock,BHP Group Limited",
      "2024-03-04,Sell,CBA,ASX,120,118,29.95,AUD,1,,'=SUM(A1:A9),C4528830,,Stock,Commonwealth Bank of Australia",
      "2024-05-01,Sell,BHP,ASX,100,45,9.5,AUD,1,,,,,Stock,BHP Group Limited",
      "2024-08-12,Sell,AAPL,NASDAQ,4,215.6,3,USD,1.4893,,,,,Stock,Apple Inc.",
    ]);
  });

  it("notes with line breaks or a typed leading ' come back as they were; no row starts inside a cell", async () => {
    const p = await newPortfolio(t, key);
    // A note that starts with a line break (guarded, as one that starts with a carriage return is) and
    // one with spaces around it (kept inside quotes, which a reader's trimming leaves alone).
    const notes = ["ok\n=1+2", "two\r\nlines", "'-1", "'=SUM(1)", "'quoted", "=2+3", "\r\nCR", "  spaced  "];
    for (const [i, note] of notes.entries())
      await newTrade(t, key, {
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: `2024-01-0${i + 1}`,
        quantity: 1,
        price: 100,
        notes: note,
      });
    const file = (await exportRest(p)).text;
    // Line breaks inside a cell are quoted (a spreadsheet would otherwise start a row at "=1+2");
    // a cell starting with ' gets one more, which the import reads off again.
    const cells = (n: number) => `2024-01-0${n},Buy,CBA,ASX,1,100,0,AUD,1,,`;
    expect(file).toContain(`${cells(1)}"ok\n=1+2",`);
    expect(file).toContain(`${cells(2)}"two\r\nlines",`);
    expect(file).toContain(`${cells(3)}''-1,`);
    expect(file).toContain(`${cells(4)}''=SUM(1),`);
    expect(file).toContain(`${cells(5)}''quoted,`);
    expect(file).toContain(`${cells(6)}'=2+3,`);
    const copy = await newPortfolio(t, key);
    const res = await importTradesCsv(t, key, copy, file);
    expect(res.status).toBe(201);
    const back = await t.db.sql<{ notes: string }>(`SELECT notes FROM trade WHERE portfolio_id = $1 ORDER BY id`, [
      copy,
    ]);
    // The CSV reader reads every line break as \n (files come with CRLF, LF or CR ends).
    expect(back.map((r) => r.notes)).toEqual(notes.map((n) => n.replace("\r\n", "\n")));
  });

  it("an empty portfolio exports the header alone", async () => {
    const p = await newPortfolio(t, key);
    const res = await exportRest(p);
    expect(res.status).toBe(200);
    expect(res.text.split("\r\n")).toEqual([expect.stringMatching(/^date,type,symbol,/), ""]);
  });
});

describe("format=sharesight", () => {
  it("writes Sharesight's header, Buy and Sell rows only, counting the others in X-Trades-Left-Out", async () => {
    const p = await newPortfolio(t, key);
    await scenario(p);
    const res = await exportRest(p, "?format=sharesight");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/filename="?portfolio-\d+-trades-sharesight\.csv"?$/);
    // The TransferIn and the Bonus.
    expect(res.headers["x-trades-left-out"]).toBe("2");
    expect(res.text.split("\r\n")).toEqual([
      SHARESIGHT_HEADER,
      '2022-08-01,CBA,ASX,100,95.5,BUY,,19.95,AUD,"first parcel, from CommSec"',
      "2023-09-01,CBA,ASX,50,101.2,BUY,,19.95,AUD,",
      // 1 / 1.52 = 0.65789473684… → 10 decimals; an AUD trade's rate is empty.
      "2023-11-01,AAPL,NASDAQ,10,170.25,BUY,0.6578947368,3,USD,",
      // A note starting with = is written with a leading ' (it would run as a formula).
      "2024-03-04,CBA,ASX,120,118,SELL,,29.95,AUD,'=SUM(A1:A9)",
      "2024-05-01,BHP,ASX,100,45,SELL,,9.5,AUD,",
      // 1 / 1.4893 = 0.67145638890…
      "2024-08-12,AAPL,NASDAQ,4,215.6,SELL,0.6714563889,3,USD,",
      "",
    ]);
  });

  it("imports back through format=sharesight into the same Buy and Sell trades", async () => {
    const p = await newPortfolio(t, key);
    await scenario(p);
    const file = (await exportRest(p, "?format=sharesight")).text;
    const copy = await newPortfolio(t, key);
    // The file sells CBA and BHP it holds: a CBA sell needs both buys, BHP's sell the transfer in.
    await newTrade(t, key, {
      portfolioId: copy,
      symbol: "BHP",
      exchange: "ASX",
      tradeType: "TransferIn",
      tradeDate: "2023-07-10",
      quantity: 200,
      price: 40,
      acquisitionDate: "2019-05-01",
    });
    const res = await importTradesCsv(t, key, copy, file);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ format: "sharesight", imported: 6 });
    const aapl = await t.http.get(`/v1/trades/${res.body.tradeIds[2]}`).set("authorization", key);
    // 1 / 0.6578947368 = 1.52000000009728…: the rate comes back within Sharesight's 10 decimals.
    expect(aapl.body).toMatchObject({ symbol: "AAPL", currencyCode: "USD", exchangeRate: 1.5200000001 });
    // The CBA sell's note, written '=SUM(A1:A9) against formulas, reads back without the '.
    const sell = await t.http.get(`/v1/trades/${res.body.tradeIds[3]}`).set("authorization", key);
    expect(sell.body).toMatchObject({ symbol: "CBA", tradeType: "Sell", notes: "=SUM(A1:A9)" });
  });
});

describe("GraphQL exportTrades and access", () => {
  it("answers the REST body, file name, row count and the left-out trades' ids", async () => {
    const p = await newPortfolio(t, key);
    const ids = await scenario(p);
    for (const format of ["native", "sharesight"]) {
      const rest = await exportRest(p, `?format=${format}`);
      const gql = expectOk(
        gqlOutcome<{ fileName: string; csv: string; rows: number; leftOut: string[] }>(
          await exportGql(p, format),
          "exportTrades",
        ),
      );
      expect(gql.csv).toBe(rest.text);
      expect(rest.headers["content-disposition"]).toContain(gql.fileName);
      expect(gql.rows).toBe(rest.text.split("\r\n").length - 2);
      expect(gql.leftOut.length).toBe(Number(rest.headers["x-trades-left-out"]));
      if (format === "sharesight") expect(gql.leftOut.map(Number).sort()).toEqual([ids.bhpIn, ids.bhpBonus].sort());
    }
    // No format: native.
    const byDefault = expectOk(gqlOutcome<{ csv: string }>(await exportGql(p), "exportTrades"));
    expect(byDefault.csv).toBe((await exportRest(p)).text);
  });

  it("a format it does not write: REST 400 on format, GraphQL BAD_USER_INPUT", async () => {
    const p = await newPortfolio(t, key);
    const errors = expectRejected(await exportRest(p, "?format=xlsx"), 400, "VALIDATION_FAILED");
    expect(errors.map((e) => e.path)).toEqual(["format"]);
    expectError(gqlOutcome(await exportGql(p, "xlsx"), "exportTrades"), "BAD_USER_INPUT");
  });

  it("another account's portfolio, or none: REST 404, GraphQL NOT_FOUND", async () => {
    const p = await newPortfolio(t, key);
    await scenario(p);
    const stranger = await t.newAccount();
    for (const id of [p, 999999]) {
      expectRejected(await exportRest(id, "", stranger), 404, "NOT_FOUND");
      expectRejected(await exportRest(id, "?format=sharesight", stranger), 404, "NOT_FOUND");
      expectError(gqlOutcome(await exportGql(id, "native", stranger), "exportTrades"), "NOT_FOUND");
    }
  });

  it("a Read client key may export (it is a read)", async () => {
    const p = await newPortfolio(t, key);
    await scenario(p);
    const reader = await t.newClientKey(key, "Read", [p]);
    const mine = await exportRest(p);
    const theirs = await exportRest(p, "", reader);
    expect(theirs.status).toBe(200);
    expect(theirs.text).toBe(mine.text);
    const gql = expectOk(gqlOutcome<{ csv: string }>(await exportGql(p, "sharesight", reader), "exportTrades"));
    expect(gql.csv).toBe((await exportRest(p, "?format=sharesight")).text);
  });
});
