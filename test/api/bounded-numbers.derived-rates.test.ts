import path from "node:path";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { importTradesCsv, tradeCsv } from "../support/kit";
import { expectInvalid, restCall } from "../support/outcomes";

/**
 * A rate the FX table derives beyond what its column holds is refused naming exchangeRate, on a
 * trade, an imported row and an income.
 *
 * Issue 20, rows 5 and 10: no non-finite number ever leaves the service. Every computed report is
 * walked, over REST and GraphQL, on a ledger whose market prices, custom price and FX rate are 0
 * (legacy rows, an income's exchange rate among them: the API refuses 0 now, see bounded-positive-inputs.test.ts, so they are written
 * straight to the database), tiny (the smallest the columns store) or huge (the largest). Each
 * answer is 2xx JSON that parses and holds no NaN/Infinity, or a clear 4xx; never a 500.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("a rate the FX table derives beyond its column names exchangeRate (issue 20, row 10)", () => {
  /** USD → EUR 10^9 and AUD → EUR 10^-10: USD → AUD crosses to 10^19, the column stores below 10^10. */
  async function crossing() {
    const p = await newPortfolio(t, key);
    await postCreated(
      t,
      key,
      "/v1/fx-rates/bulk",
      [
        { base: "USD", quote: "EUR", date: "2024-01-02", rate: 1e9 },
        { base: "AUD", quote: "EUR", date: "2024-01-02", rate: "0.0000000001" },
      ],
      200,
    );
    return p;
  }

  it("a trade in USD without exchangeRate: 400 on exchangeRate with the rate and the maximum, nothing written", async () => {
    const p = await crossing();
    const res = await restCall(
      t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-02-01",
        quantity: 1,
        price: 100,
      }),
    );
    expectInvalid(res, "exchangeRate");
    expect(res.errors![0].message).toMatch(/10000000000000000000.*9999999999\.9999999999.*give exchangeRate/);
    expect(await t.db.prisma.trade.count()).toBe(0);
    const given = await restCall(
      t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "AAPL",
        exchange: "NASDAQ",
        tradeType: "Buy",
        tradeDate: "2024-02-01",
        quantity: 1,
        price: 100,
        exchangeRate: 1.5,
      }),
    );
    expect(given.status).toBe(201);
  });

  it("an imported row in USD without exchangeRate: its row error names exchangeRate (as a missing rate is: 422), nothing written", async () => {
    const p = await crossing();
    const res = await restCall(importTradesCsv(t, key, p, tradeCsv("2024-02-01,Buy,AAPL,NASDAQ,1,100,0,USD,,,")));
    expect({ status: res.status, code: res.code }).toEqual({ status: 422, code: "BUSINESS_RULE" });
    expect(res.errors).toEqual([
      expect.objectContaining({
        path: "line 2.exchangeRate",
        message: expect.stringContaining("above the largest rate stored (9999999999.9999999999)"),
      }),
    ]);
    expect(await t.db.prisma.trade.count()).toBe(0);
  });

  it("an income in USD without exchangeRate: the same 400, over GraphQL too", async () => {
    const p = await crossing();
    const trade = await newTrade(t, key, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 1,
      price: 100,
      exchangeRate: 1.5,
    });
    const income = {
      holdingId: trade.holdingId,
      exDividendDate: "2024-02-01",
      paidDate: "2024-02-15",
      unfrankedAmount: 10,
    };
    expectInvalid(await restCall(t.http.post("/v1/income").set("authorization", key).send(income)), "exchangeRate");
    const gql = await t.gql(key, "mutation($input: IncomeInput!) { createIncome(input: $input) { id } }", {
      input: { ...income, holdingId: String(trade.holdingId) },
    });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "exchangeRate", message: expect.any(String) }],
    });
    expect(await t.db.prisma.income.count()).toBe(0);
  });
});
