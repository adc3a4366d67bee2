import { useTestApp } from "../support/app";
import { bhpHolding, cbaHolding } from "../scenarios/holdings";
import { expectError, expectInvalid, expectOk, gqlId, restCall, type Json, type Outcome } from "../support/outcomes";
import { incomeApi } from "./income.transports";

/**
 * Income created confirmed, and the bulk income import (POST /v1/portfolios/{p}/income/import,
 * GraphQL importIncome): JSON rows or CSV, all or nothing, each row what POST /v1/income writes.
 */

const t = useTestApp();
let key: string;
let portfolioId: number;
/** CBA.ASX: 100 units bought at 100 on 2024-01-10. */
let holdingId: number;
let bhpId: number;
beforeEach(async () => {
  key = await t.newAccount();
  ({ portfolioId, holdingId } = await cbaHolding(t, key));
  bhpId = await bhpHolding(t, key, portfolioId);
});
const { TRANSPORTS, rest, unchanged, position, dividend, gqlCall } = incomeApi(t, () => holdingId);

interface ImportAnswer {
  dryRun: boolean;
  imported: number;
  valid: number;
  incomeIds: number[];
}

const IMPORT = `mutation($p: ID!, $input: IncomeImportInput!) { importIncome(portfolioId: $p, input: $input) { dryRun imported valid incomeIds } }`;

/** The import over one transport: `body` is the JSON rows or the CSV text. */
function importOver(name: "REST" | "GraphQL") {
  return async (body: Json[] | string, dryRun = false, p = portfolioId): Promise<Outcome<ImportAnswer>> => {
    if (name === "REST") {
      const req = t.http
        .post(`/v1/portfolios/${p}/income/import${dryRun ? "?dryRun=true" : ""}`)
        .set("authorization", key);
      return restCall(
        typeof body === "string" ? req.set("content-type", "text/csv").send(body) : req.send(body),
        dryRun ? 200 : 201,
      );
    }
    const input = typeof body === "string" ? { csv: body, dryRun } : { rows: body.map(asGql), dryRun };
    return gqlCall(key, IMPORT, { p: String(p), input }, "importIncome", (d: Json) => ({
      ...(d as unknown as ImportAnswer),
      incomeIds: (d.incomeIds as string[]).map(gqlId),
    }));
  };
}
const asGql = (row: Json): Json =>
  typeof row.holdingId === "number" ? { ...row, holdingId: String(row.holdingId) } : row;

/** Refused with `code` (REST: its status), naming exactly these row paths, each error with its line. */
function expectRows(o: Outcome<unknown>, code: string, ...paths: string[]) {
  expectError(o, code);
  if (o.ok) return;
  for (const e of o.errors!)
    expect(e).toEqual({ path: expect.any(String), message: expect.any(String), line: expect.any(Number) });
  expect(o.errors!.map((e) => e.path).sort()).toEqual([...paths].sort());
}

const incomeRows = async () =>
  t.db.sql<{ holding_id: number; franked_amount: string; is_confirmed: boolean; drp_quantity: string | null }>(
    "SELECT holding_id, franked_amount::text, is_confirmed, drp_quantity::text FROM income WHERE portfolio_id = $1 ORDER BY id",
    [portfolioId],
  );

describe.each(TRANSPORTS)("income over $name", (tr) => {
  const importIncome = importOver(tr.name);

  it("is created confirmed with isConfirmed: true, and unconfirmed by default or with false", async () => {
    const confirmed = expectOk(await tr.create(key, dividend({ frankedAmount: 700, isConfirmed: true })), 201);
    expect(confirmed).toMatchObject({ isConfirmed: true, estimated: [], frankingCredits: "300", origin: "User" });
    expect(expectOk(await rest.get(key, confirmed.id))).toEqual(confirmed);
    expect(expectOk(await tr.create(key, dividend({ frankedAmount: 1 }))).isConfirmed).toBe(false);
    expect(expectOk(await tr.create(key, dividend({ frankedAmount: 1, isConfirmed: false }))).isConfirmed).toBe(false);
  });

  it("refuses an isConfirmed that is not a boolean", async () => {
    await unchanged(async () => {
      const o = await tr.create(key, dividend({ frankedAmount: 1, isConfirmed: "yes" }));
      if (tr.name === "REST") {
        expectInvalid(o, "isConfirmed");
        if (!o.ok) expect(o.errors![0].message).toBe("must be true or false");
      } else expectError(o, "BAD_USER_INPUT");
    });
  });

  it("an update keeps the record's state without isConfirmed and sets it with one", async () => {
    const r = expectOk(await tr.create(key, dividend({ frankedAmount: 700, isConfirmed: true })));
    expect(expectOk(await tr.update(key, r.id, dividend({ frankedAmount: 600 })))).toMatchObject({
      frankedAmount: "600",
      isConfirmed: true,
    });
    expect(expectOk(await tr.update(key, r.id, dividend({ frankedAmount: 600, isConfirmed: false }))).isConfirmed).toBe(
      false,
    );
  });

  it("imports JSON rows naming the holding by id or by symbol and exchange (any case), with isConfirmed and a DRP parcel", async () => {
    const o = await importIncome([
      { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 700, isConfirmed: true },
      { symbol: "bhp", exchange: "asx", exDividendDate: "2024-02-20", paidDate: "2024-03-30", unfrankedAmount: "12.5" },
      {
        holdingId,
        exDividendDate: "2024-08-14",
        paidDate: "2024-09-26",
        netAmount: 500,
        isReinvested: true,
        drpQuantity: 5,
      },
    ]);
    const answer = expectOk(o, 201);
    expect(answer).toEqual({ dryRun: false, imported: 3, valid: 3, incomeIds: expect.any(Array) });
    expect(answer.incomeIds).toHaveLength(3);
    expect([...answer.incomeIds].sort((a, b) => a - b)).toEqual(answer.incomeIds);
    expect(await incomeRows()).toEqual([
      { holding_id: holdingId, franked_amount: "700.0000", is_confirmed: true, drp_quantity: null },
      { holding_id: bhpId, franked_amount: "0.0000", is_confirmed: false, drp_quantity: null },
      { holding_id: holdingId, franked_amount: "0.0000", is_confirmed: false, drp_quantity: "5.00000000" },
    ]);
    // Each record is what POST /v1/income writes: the credit computed, the DRP's parcel added.
    expect(expectOk(await rest.get(key, answer.incomeIds[0]))).toMatchObject({ frankingCredits: "300", estimated: [] });
    expect(expectOk(await rest.get(key, answer.incomeIds[2]))).toMatchObject({ drpPrice: "100", isReinvested: true });
    expect(await position(key, holdingId)).toEqual({ quantity: "105", costBase: "10500" });
  });

  it("imports CSV whose header names the fields in any case and order, booleans in any case", async () => {
    const csv = [
      "SYMBOL,Exchange,exdividenddate,paidDate,frankedAmount,isconfirmed,notes",
      "CBA,ASX,2024-02-14,2024-03-28,700,TRUE,Interim",
      "",
      `BHP,ASX,2024-02-20,2024-03-30,10,false,"Final, fully franked"`,
    ].join("\r\n");
    const answer = expectOk(await importIncome(csv), 201);
    expect(answer).toMatchObject({ dryRun: false, imported: 2, valid: 2 });
    const [first, second] = await Promise.all(answer.incomeIds.map(async (id) => expectOk(await rest.get(key, id))));
    expect(first).toMatchObject({ symbol: "CBA", frankedAmount: "700", isConfirmed: true, notes: "Interim" });
    expect(second).toMatchObject({
      symbol: "BHP",
      frankedAmount: "10",
      isConfirmed: false,
      notes: "Final, fully franked",
    });
  });

  it("a dry run checks every row and writes nothing", async () => {
    await unchanged(async () => {
      const answer = expectOk(
        await importIncome(
          [{ holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 700, isConfirmed: true }],
          true,
        ),
        200,
      );
      expect(answer).toEqual({ dryRun: true, imported: 0, valid: 1, incomeIds: [] });
    });
  });

  it("is all or nothing: every bad row is named by its line and field, and nothing is written", async () => {
    await unchanged(async () => {
      const o = await importIncome([
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 700 },
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-01-28", frankedAmount: 700 },
        { symbol: "WES", exchange: "ASX", exDividendDate: "2024-02-14", paidDate: "2024-03-28", netAmount: 1 },
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 700, isConfirmed: "yes" },
      ]);
      if (tr.name === "GraphQL") {
        // GraphQL's types refuse a string for a Boolean before the service runs.
        expectError(o, "BAD_USER_INPUT");
        return;
      }
      expectRows(o, "VALIDATION_FAILED", "line 2.paidDate", "line 3.symbol", "line 4.isConfirmed");
    });
    await unchanged(async () => {
      const o = await importIncome([
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 700 },
        { symbol: "WES", exchange: "ASX", exDividendDate: "2024-02-14", paidDate: "2024-03-28", netAmount: 1 },
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 10, netAmount: 99 },
        { exDividendDate: "2024-02-14", paidDate: "2024-03-28", netAmount: 1 },
      ]);
      expectRows(o, "VALIDATION_FAILED", "line 2.symbol", "line 3.netAmount", "line 4.symbol");
      if (!o.ok)
        expect(o.errors!.find((e) => e.path === "line 2.symbol")!.message).toMatch(/WES\.ASX is not a holding/);
    });
  });

  it("names the CSV line of a bad cell and of an unknown column", async () => {
    await unchanged(async () => {
      const o = await importIncome(
        "holdingId,exDividendDate,paidDate,frankedAmount\n" + `${holdingId},2024-02-14,2024-03-28,abc\n`,
      );
      expectRows(o, "VALIDATION_FAILED", "line 2.frankedAmount");
      const header = await importIncome("holdingId,exDividendDate,paidDate,frankedAmont\n");
      expectRows(header, "VALIDATION_FAILED", "line 1.frankedAmont");
      if (!header.ok) expect(header.errors![0].message).toMatch(/did you mean frankedAmount\?/);
      // A boolean cell other than true or false (any case) says which values are meant.
      const flag = await importIncome(
        "holdingId,exDividendDate,paidDate,frankedAmount,isConfirmed\n" + `${holdingId},2024-02-14,2024-03-28,1,yes\n`,
      );
      expectRows(flag, "VALIDATION_FAILED", "line 2.isConfirmed");
      if (!flag.ok) expect(flag.errors![0].message).toBe("must be true or false");
    });
  });

  it("refuses a holding of another portfolio, and another account's portfolio", async () => {
    const other = await cbaHolding(t, key);
    const stranger = await t.newAccount();
    const foreign = await cbaHolding(t, stranger);
    await unchanged(async () => {
      const o = await importIncome([
        { holdingId: other.holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 1 },
      ]);
      expectRows(o, "VALIDATION_FAILED", "line 1.holdingId");
      const o2 = await importIncome(
        [{ holdingId: foreign.holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 1 }],
        false,
        foreign.portfolioId,
      );
      expectError(o2, "NOT_FOUND");
    });
  });

  it("refuses a DRP whose parcel breaks the ledger (422), naming its line", async () => {
    // A consolidation to 0.0000001 units after the DRP would leave its 0.00000001-unit parcel with none.
    await t.http
      .post("/v1/trades")
      .set("authorization", key)
      .send({ portfolioId, holdingId, tradeType: "Consolidation", tradeDate: "2024-12-01", quantity: "99.9999999" })
      .expect(201);
    await unchanged(async () => {
      const o = await importIncome([
        { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 1 },
        {
          holdingId,
          exDividendDate: "2024-08-14",
          paidDate: "2024-09-26",
          netAmount: 1,
          isReinvested: true,
          drpQuantity: "0.00000001",
        },
      ]);
      expectRows(o, "BUSINESS_RULE", "line 2");
    });
  });
});

describe("income import over REST only", () => {
  it("answers 413 past 50,000 rows, before any row is read", async () => {
    const row = { holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 1 };
    const res = await t.http
      .post(`/v1/portfolios/${portfolioId}/income/import`)
      .set("authorization", key)
      .send(Array.from({ length: 50_001 }, () => row));
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual([{ path: "(body)", message: "must have at most 50,000 rows" }]);
  });

  it("refuses a query it does not know and a body that is neither rows nor CSV", async () => {
    const bad = await t.http
      .post(`/v1/portfolios/${portfolioId}/income/import?dryRun=maybe`)
      .set("authorization", key)
      .send([]);
    expect(bad.status).toBe(400);
    const empty = await t.http.post(`/v1/portfolios/${portfolioId}/income/import`).set("authorization", key).send([]);
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ path: "(body)", message: "must hold at least one income record" }]);
  });

  it("a GraphQL import with both rows and csv is refused as REST refuses an object body", async () => {
    const o = await incomeApi(t, () => holdingId).gqlCall(
      key,
      IMPORT,
      { p: String(portfolioId), input: { rows: [], csv: "x" } },
      "importIncome",
    );
    expectError(o, "VALIDATION_FAILED");
    if (!o.ok) expect(o.errors).toEqual([{ path: "(body)", message: "must be a JSON array or CSV text" }]);
  });
});

describe("foreign income without a rate", () => {
  it("takes each row's rate from the one FX rule, read once for the file: 40 rows cost what 2 do", async () => {
    const trade = await t.http
      .post("/v1/trades")
      .set("authorization", key)
      .send({
        portfolioId,
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 10,
        price: 180,
        exchangeRate: "0.68",
      })
      .expect(201);
    // AUD/USD 0.5 from 2024-03-01: a USD dividend paid after it is worth 1 / 0.5 = 2 AUD a dollar.
    await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "AUD", quote: "USD", date: "2024-03-01", rate: 0.5 }])
      .expect(200);
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        holdingId: trade.body.holdingId,
        exDividendDate: `2024-${String(4 + (i % 8)).padStart(2, "0")}-${String(1 + Math.floor(i / 8)).padStart(2, "0")}`,
        paidDate: `2024-${String(4 + (i % 8)).padStart(2, "0")}-${String(10 + Math.floor(i / 8)).padStart(2, "0")}`,
        foreignIncome: "10",
        currencyCode: "USD",
      }));
    const statementsFor = async (n: number) => {
      const before = t.db.statementCount;
      const res = await t.http
        .post(`/v1/portfolios/${portfolioId}/income/import`)
        .set("authorization", key)
        .send(rows(n));
      expect([res.status, res.body.errors ?? res.body.detail]).toEqual([201, undefined]);
      expect(res.body.imported).toBe(n);
      return t.db.statementCount - before;
    };
    const two = await statementsFor(2);
    const forty = await statementsFor(40);
    expect(forty - two).toBeLessThanOrEqual(1);
    const rates = await t.db.sql<{ rate: string }>(
      "SELECT DISTINCT exchange_rate::text AS rate FROM income WHERE holding_id = $1",
      [trade.body.holdingId],
    );
    expect(rates.map((r) => Number(r.rate))).toEqual([2]);
  });
});
