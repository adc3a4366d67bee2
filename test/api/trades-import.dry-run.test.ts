import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { tradeCsv } from "../support/kit";
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
 * dryRun=true: the import is validated, answered and not kept.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { unchanged, count, holdings, importJson, importCsv } = tradeImportApi(t, () => key);

describe("dryRun=true validates and writes nothing", () => {
  it("answers the valid count and the holdings it would create, and keeps nothing", async () => {
    const p = await newPortfolio(t, key);
    await importJson(p, [buyRow("CBA", "2024-01-01", 1, 1)]);
    await unchanged(async () => {
      const res = await importCsv(
        p,
        tradeCsv(
          "2024-01-10,Buy,CBA,ASX,10,100,,,,,",
          "2024-01-11,Buy,NAB,ASX,10,30,,,,,",
          "2024-01-12,Buy,ZQDRY,ASX,1,1,,,,,",
        ),
        "?dryRun=true",
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        dryRun: true,
        imported: 0,
        valid: 3,
        newHoldings: [
          { symbol: "NAB", exchange: "ASX" },
          { symbol: "ZQDRY", exchange: "ASX" },
        ],
        tradeIds: [],
        skipped: [],
        format: "native",
        ignored: [],
        warnings: [],
      });
    });
    expect((await holdings(p)).map((h) => h.symbol)).toEqual(["CBA"]);
    expect((await t.http.get("/v1/securities/search?q=ZQDRY").set("authorization", key)).body).toEqual([]);
  });

  it("reports bad rows exactly as a real import would", async () => {
    const p = await newPortfolio(t, key);
    const rows = [
      buyRow("CBA", "2024-01-10", 1, 1),
      { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-01-11", quantity: 2, price: 1 },
    ];
    await unchanged(async () => {
      const dry = expectRejected(await importJson(p, rows, "?dryRun=true"), 422, "BUSINESS_RULE");
      const real = expectRejected(await importJson(p, rows), 422, "BUSINESS_RULE");
      expect(dry).toEqual(real);
      expect(linesOf(dry)).toEqual([2]);
    });
  });

  it("dryRun=false imports; any other value is 400 naming dryRun", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const res = await importJson(p, [buyRow("CBA", "2024-01-10", 1, 1)], "?dryRun=yes");
      expect(expectRejected(res, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["dryRun"]);
    });
    expect((await importJson(p, [buyRow("CBA", "2024-01-10", 1, 1)], "?dryRun=false")).body).toMatchObject({
      dryRun: false,
      imported: 1,
    });
  });
});
