import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { TRADE_CSV_HEADER, tradeCsv } from "../support/kit";
import { expectRejected } from "../support/outcomes";
import { linesOf, buyRow, tradeImportApi } from "./trades-import.requests";

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
 * All or nothing: every bad row is listed with its line (CSV file lines, JSON positions), and nothing
 * is written.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { unchanged, count, holdings, importJson, importCsv } = tradeImportApi(t, () => key);

describe("all or nothing: every bad row is listed with its line, nothing is written", () => {
  it("CSV: bad rows are named by file line (the header is line 1) and field, valid rows are not written", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-01-10,Buy,CBA,ASX,10,100,,,,,", // line 2: fine
            "2024-02-30,Buy,CBA,ASX,10,100,,,,,", // line 3: no such date
            "2024-01-11,Buy,NAB,ASX,10,30,,,,,", // line 4: fine
            "2024-01-12,Purchase,NAB,ASX,10,30,,,,,", // line 5: no such type
            "2024-01-13,Buy,WBC,ASX,0,30,,,,,", // line 6: zero units
            "2024-01-14,Buy,WBC,ASX,1,30,,,,NoSuchBroker,", // line 7: unknown source
            "2024-01-15,Buy,WBC,ASX,1.123456789,30,,,,,", // line 8: 9 decimals
          ),
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([3, 5, 6, 7, 8]);
      const byLine = (n: number) => errors.filter((e) => e.line === n).map((e) => e.path);
      expect(byLine(3)).toEqual([expect.stringMatching(/^line 3\.(date|tradeDate)$/)]);
      expect(byLine(5)).toEqual([expect.stringMatching(/^line 5\.(type|tradeType)$/)]);
      expect(byLine(6)).toEqual(["line 6.quantity"]);
      expect(byLine(7)).toEqual([expect.stringMatching(/^line 7\.(source|sourceId)$/)]);
      expect(byLine(8)).toEqual(["line 8.quantity"]);
    });
    expect(await count("holding")).toBe(0);
  });

  it("CSV line numbers are the file's own lines, blank lines included", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          `${TRADE_CSV_HEADER}\n2024-01-10,Buy,CBA,ASX,10,100,,,,,\n\n2024-02-30,Buy,CBA,ASX,10,100,,,,,\n`,
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([4]);
    });
  });

  it("CSV line numbers count the lines of a quoted multi-line note", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          `${TRADE_CSV_HEADER}\n2024-01-10,Buy,CBA,ASX,10,100,,,,,"two\nlines"\n2024-02-30,Buy,CBA,ASX,10,100,,,,,\n`,
        ),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([4]);
    });
  });

  it("JSON: a row's line is its position in the array + 1", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("CBA", "2024-01-10", 10, 100),
          buyRow("CBA", "2024-01-10", -1, 100),
          42,
          { tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 },
          buyRow("CBA", "2024-01-10", 1, 100, { parcels: [{ tradeId: 1, quantity: 1 }] }),
        ]),
        400,
        "VALIDATION_FAILED",
      );
      expect(linesOf(errors)).toEqual([2, 3, 4, 5]);
      expect(errors.find((e) => e.line === 2)!.path).toBe("line 2.quantity");
      expect(errors.find((e) => e.line === 4)!.path).toBe("line 4.symbol");
      expect(errors.find((e) => e.line === 5)!.path).toBe("line 5.parcels");
    });
  });

  it("a holdingId that is not a holding of the portfolio is named on its line", async () => {
    const p = await newPortfolio(t, key);
    const q = await newPortfolio(t, key);
    const elsewhere = (await importJson(q, [buyRow("CBA", "2024-01-10", 1, 1)])).body.tradeIds[0];
    const holdingId = (await t.http.get(`/v1/trades/${elsewhere}`).set("authorization", key)).body.holdingId;
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("NAB", "2024-01-10", 1, 1),
          { holdingId, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 },
        ]),
        400,
        "VALIDATION_FAILED",
      );
      expect(errors).toEqual([{ path: "line 2.holdingId", message: expect.any(String), line: 2 }]);
    });
  });

  it("a sell beyond the units anywhere in the file is 422 naming its line; holdings the file created are not kept", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-01-10,Buy,CBA,ASX,10,100,,,,,",
            "2024-01-11,Buy,NAB,ASX,10,30,,,,,",
            "2024-01-12,Sell,CBA,ASX,5,110,,,,,",
            "2024-01-13,Sell,CBA,ASX,6,110,,,,,", // line 5: only 5 left
            "2024-01-14,Buy,ZQNEW,ASX,1,1,,,,,",
          ),
        ),
        422,
        "BUSINESS_RULE",
      );
      expect(linesOf(errors)).toEqual([5]);
    });
    expect(await count("holding")).toBe(0);
    expect(await count("security")).toBe(
      Number((await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM security WHERE account_id IS NULL"))[0].n),
    );
  });

  it("short sells in two holdings are both listed", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importJson(p, [
          buyRow("CBA", "2024-01-10", 10, 100),
          { symbol: "NAB", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 1, price: 30 },
          { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-12", quantity: 11, price: 100 },
        ]),
        422,
        "BUSINESS_RULE",
      );
      expect(linesOf(errors)).toEqual([2, 3]);
    });
  });

  it("a foreign row without a rate in reach is 422 naming line N.exchangeRate", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(
          p,
          tradeCsv(
            "2024-03-08,Buy,CBA,ASX,1,100,,,,,",
            "2024-03-08,Buy,AAPL,NASDAQ,5,170,,,,,",
            "2024-03-08,Buy,MSFT,NASDAQ,1,400,,USD,1.5,,",
          ),
        ),
        422,
        "BUSINESS_RULE",
      );
      expect(errors).toEqual([{ path: "line 3.exchangeRate", message: expect.any(String), line: 3 }]);
    });
  });

  it("a foreign row takes the FX table's latest rate on or before its date, the inverse too; none before it: 422", async () => {
    const p = await newPortfolio(t, key);
    const [{ account_id }] = await t.db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [
      p,
    ]);
    await t.db.prisma.fxRate.create({
      data: {
        accountId: Number(account_id),
        base: "USD",
        quote: "AUD",
        date: new Date("2024-03-08T00:00:00Z"),
        rate: "1.5",
      },
    });
    await t.db.prisma.fxRate.create({
      data: {
        accountId: Number(account_id),
        base: "AUD",
        quote: "GBP",
        date: new Date("2024-03-08T00:00:00Z"),
        rate: "0.5",
      },
    });
    const res = await importCsv(
      p,
      tradeCsv(
        "2024-03-10,Buy,AAPL,NASDAQ,5,170,,,,,",
        "2024-03-18,Buy,AAPL,NASDAQ,5,170,,,,,",
        "2024-03-11,Buy,VOD,LSE,10,1,,,,,",
      ),
    );
    expect(res.status).toBe(201);
    const rates = await Promise.all(
      (res.body.tradeIds as number[]).map(
        async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body.exchangeRate,
      ),
    );
    expect(rates).toEqual([1.5, 1.5, 2]);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(p, tradeCsv("2024-03-07,Buy,AAPL,NASDAQ,5,170,,,,,")),
        422,
        "BUSINESS_RULE",
      );
      expect(errors).toEqual([{ path: "line 2.exchangeRate", message: expect.any(String), line: 2 }]);
    });
  });

  it("a base-currency row with an exchange rate other than 1 is refused like POST /v1/trades refuses it (400, line N.exchangeRate)", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const errors = expectRejected(
        await importCsv(p, tradeCsv("2024-03-08,Buy,CBA,ASX,1,100,,,1.5,,")),
        400,
        "VALIDATION_FAILED",
      );
      expect(errors).toEqual([{ path: "line 2.exchangeRate", message: expect.any(String), line: 2 }]);
    });
  });

  it("a body that is neither a JSON array nor CSV, or an empty array, is 400", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      expect(expectRejected(await importJson(p, buyRow("CBA", "2024-01-10", 1, 1)), 400, "VALIDATION_FAILED")).toEqual([
        { path: "(body)", message: expect.any(String) },
      ]);
      expect(expectRejected(await importJson(p, []), 400, "VALIDATION_FAILED")).toEqual([
        { path: "(body)", message: expect.any(String) },
      ]);
    });
  });
});
