import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { TRADE_CSV_HEADER, tradeCsv } from "../support/kit";
import { expectRejected } from "../support/outcomes";
import { COMMSEC, linesOf, tradeImportApi } from "./trades-import.requests";

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
 * CSV files: the documented header in any order, Source names or ids, and bad headers or cells refused.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { unchanged, holdings, importCsv } = tradeImportApi(t, () => key);

describe("CSV import", () => {
  it("reads the documented header; source may be a Source name or id; optional cells may be empty", async () => {
    const p = await newPortfolio(t, key);
    const res = await importCsv(
      p,
      tradeCsv(
        "2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first buy",
        `2024-01-11,Buy,nab,asx,20,30,,,,${COMMSEC},`,
        '2024-01-12,Buy,AAPL,NASDAQ,5,170,0,USD,1.52,,"note, with a comma"',
        "2024-02-01,Sell,CBA,ASX,4,110,,AUD,,commsec,",
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ dryRun: false, imported: 4, valid: 4 });
    const [cbaBuy, nab, aapl, cbaSell] = await Promise.all(
      (res.body.tradeIds as number[]).map(
        async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body,
      ),
    );
    expect(cbaBuy).toMatchObject({
      symbol: "CBA",
      tradeType: "Buy",
      quantity: 10,
      price: 100,
      brokerage: 9.95,
      sourceId: COMMSEC,
      notes: "first buy",
      currencyCode: "AUD",
      exchangeRate: 1,
    });
    expect(nab).toMatchObject({ symbol: "NAB", exchange: "ASX", sourceId: COMMSEC, brokerage: 0, notes: "" });
    expect(aapl).toMatchObject({
      currencyCode: "USD",
      exchangeRate: 1.52,
      notes: "note, with a comma",
      sourceId: null,
    });
    expect(cbaSell).toMatchObject({ tradeType: "Sell", quantity: -4, sourceId: COMMSEC });
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity, h.costBase])).toEqual([
      ["AAPL", 5, 1292],
      ["CBA", 6, 605.97],
      ["NAB", 20, 600],
    ]);
  });

  it("refuses rows with more cells than the header has columns (an unquoted comma), naming each line, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const res = await importCsv(
        p,
        tradeCsv(
          "2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first buy",
          "2024-01-11,Buy,NAB,ASX,20,30,,,,,note, with a comma",
          "2024-01-12,Buy,WBC,ASX,1,1,,,,,a,b,c",
        ),
      );
      const errors = expectRejected(res, 400, "VALIDATION_FAILED");
      expect(linesOf(errors)).toEqual([3, 4]);
      expect(errors[0].message).toBe("has 12 cells for the header's 11 columns (quote a cell that holds a comma)");
    });
  });

  it("accepts the columns in any order and without the optional ones", async () => {
    const p = await newPortfolio(t, key);
    const res = await importCsv(p, "symbol,exchange,quantity,price,type,date\nCBA,ASX,10,100,Buy,2024-01-10\n");
    expect(res.status).toBe(201);
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity])).toEqual([["CBA", 10]]);
  });

  it("reads a file whose lines end in CR alone (a spreadsheet's 'CSV (Macintosh)') as this service's CSV", async () => {
    const p = await newPortfolio(t, key);
    const res = await importCsv(
      p,
      "date,type,symbol,exchange,quantity,price\r2024-01-10,Buy,CBA,ASX,100,100\r2024-01-11,Buy,CBA,ASX,x,100\r",
    );
    // The second row's quantity names line 3: every CR is a line.
    expect(expectRejected(res, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["line 3.quantity"]);
    const ok = await importCsv(p, "date,type,symbol,exchange,quantity,price\r2024-01-10,Buy,CBA,ASX,100,100\r");
    expect(ok.status).toBe(201);
    expect((await holdings(p)).map((h) => [h.symbol, h.quantity])).toEqual([["CBA", 100]]);
  });

  it("a file Excel saved as Windows-1252 imports when its Content-Type names that charset, and not as UTF-8", async () => {
    const p = await newPortfolio(t, key);
    // 0x92 is ’ in Windows-1252, and no character at all in UTF-8.
    const file = Buffer.concat([
      Buffer.from("symbol,exchange,quantity,price,type,date,notes\nCBA,ASX,10,100,Buy,2024-01-10,O"),
      Buffer.from([0x92]),
      Buffer.from("Brien's parcel\n"),
    ]);
    const post = (contentType: string) =>
      t.http
        .post(`/v1/portfolios/${p}/trades/import`)
        .set("authorization", key)
        .set("content-type", contentType)
        .send(file);
    const refused = await post("text/csv");
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("text/csv; charset=windows-1252");
    const res = await post("text/csv; charset=windows-1252");
    expect(res.status).toBe(201);
    const [row] = await t.db.sql<{ notes: string }>(`SELECT notes FROM trade WHERE id = $1`, [res.body.tradeIds[0]]);
    expect(row.notes).toBe("O\u2019Brien's parcel");
  });

  it("a row without a rate takes the rate of an earlier row of the same file in that currency (the FX rule's fallback)", async () => {
    // No rates imported and no earlier USD trade in the portfolio: the sell on line 3 has only the
    // buy of line 2 (1.52 AUD a dollar) to go by, as it would if the two were entered one by one.
    const p = await newPortfolio(t, key);
    const res = await importCsv(
      p,
      tradeCsv("2024-01-12,Buy,AAPL,NASDAQ,5,170,0,USD,1.52,,", "2024-03-01,Sell,AAPL,NASDAQ,2,180,0,USD,,,"),
    );
    expect(res.status).toBe(201);
    const sell = (await t.http.get(`/v1/trades/${res.body.tradeIds[1]}`).set("authorization", key)).body;
    expect(sell).toMatchObject({ tradeType: "Sell", exchangeRate: 1.52 });
    // A rate-less row dated before every rate-giving row still has none: named by its line.
    const early = await importCsv(
      p,
      tradeCsv("2023-06-01,Buy,MSFT,NASDAQ,1,300,0,USD,,,", "2023-07-01,Buy,MSFT,NASDAQ,1,310,0,USD,1.49,,"),
    );
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([expect.objectContaining({ path: "line 2.exchangeRate" })]);
  });

  it("rejects a header with unknown or missing columns, and a file without rows, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      expectRejected(
        await importCsv(p, "date,type,ticker,exchange,quantity,price\n2024-01-10,Buy,CBA,ASX,1,1\n"),
        400,
        "VALIDATION_FAILED",
      );
      expectRejected(
        await importCsv(p, "date,symbol,exchange,quantity,price\n2024-01-10,CBA,ASX,1,1\n"),
        400,
        "VALIDATION_FAILED",
      );
      expectRejected(await importCsv(p, TRADE_CSV_HEADER + "\n"), 400, "VALIDATION_FAILED");
      expectRejected(await importCsv(p, ""), 400, "VALIDATION_FAILED");
    });
  });
});
