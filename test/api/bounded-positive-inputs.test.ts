import { toDomainError } from "../../src/lib/to-domain-error";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { importTradesCsv, tradeCsv, utcDate } from "../support/kit";
import { expectInvalid, gqlOutcome, restCall, withApp, type Outcome } from "../support/outcomes";

/**
 * Issue 20, rows 8 and 10: every price and rate a client sends is above 0 (market closes, custom
 * prices, FX rates, income and trade exchange rates, DRP prices; JSON and CSV alike), and a number
 * beyond its column is refused at its own field, naming the maximum, over REST and GraphQL, with
 * nothing written. A zero close or income rate was accepted before: a USD 1,000 income counted
 * AUD 0 in the tax reports, and a close of 0 made the reports divide by zero.
 */
const t = useTestApp();
let key: string;
const { count, unchanged } = withApp(() => t);

beforeEach(async () => {
  key = await t.newAccount();
});

const rest = (method: "post" | "put", url: string, body: unknown, contentType = "application/json") =>
  restCall(
    t.http[method](url)
      .set("authorization", key)
      .set("content-type", contentType)
      .send(body as object),
  );
const gql = async (query: string, variables: Record<string, unknown>, field: string) =>
  gqlOutcome(await t.gql(key, query, variables), field);

/** The field errors of a refusal, as `path: message`. */
const messages = (o: Outcome<unknown>) => (o.ok ? [] : (o.errors ?? []).map((e) => `${e.path}: ${e.message}`));

async function usdHolding() {
  const portfolioId = await newPortfolio(t, key);
  const trade = await newTrade(t, key, {
    portfolioId,
    symbol: "AAPL",
    exchange: "NASDAQ",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
    exchangeRate: 1.5,
  });
  return { portfolioId, holdingId: trade.holdingId };
}

describe("prices and rates of 0 are refused on every input", () => {
  it("a market close of 0: JSON and CSV bulk over REST, and GraphQL, each naming close; nothing written", async () => {
    await unchanged(async () => {
      const json = await rest("post", "/v1/market-prices/bulk", [
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 0 },
      ]);
      expectInvalid(json);
      // The second row of a JSON array is line 2, as in CSV (the header being line 1 there).
      expect(messages(json)).toEqual(["line 2.close: must be greater than 0"]);
      const csv = await rest(
        "post",
        "/v1/market-prices/bulk",
        "symbol,exchange,date,close\nCBA,ASX,2024-01-02,0.00\n",
        "text/csv",
      );
      expect(messages(csv)).toEqual(["line 2.close: must be greater than 0"]);
      const viaGql = await gql(
        "mutation($input: [MarketPriceInput!]!) { upsertMarketPrices(input: $input) { upserted } }",
        { input: [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: "0" }] },
        "upsertMarketPrices",
      );
      expect(viaGql.code).toBe("VALIDATION_FAILED");
      expect(messages(viaGql)).toEqual([expect.stringMatching(/close: must be greater than 0$/)]);
    });
    expect(await count("market_price")).toBe(0);
  });

  it("a custom price of 0: add, bulk (CSV) and update over REST, add over GraphQL", async () => {
    const portfolioId = await newPortfolio(t, key);
    const house = await postCreated<{ id: number }>(t, key, `/v1/portfolios/${portfolioId}/holdings`, {
      symbol: "HOUSE",
      name: "Beach house",
    });
    const price = await postCreated<{ id: number }>(t, key, `/v1/holdings/${house.id}/prices`, {
      date: "2024-01-31",
      price: 500000,
    });
    await unchanged(async () => {
      expectInvalid(await rest("post", `/v1/holdings/${house.id}/prices`, { date: "2024-02-29", price: 0 }), "price");
      expect(
        messages(await rest("post", `/v1/holdings/${house.id}/prices/bulk`, "date,price\n2024-02-29,0\n", "text/csv")),
      ).toEqual(["line 2.price: must be greater than 0"]);
      expectInvalid(await rest("put", `/v1/prices/${price.id}`, { price: "0.000" }), "price");
      const viaGql = await gql(
        'mutation($h: ID!) { addCustomPrice(holdingId: $h, input: { date: "2024-02-29", price: "0" }) { id } }',
        { h: String(house.id) },
        "addCustomPrice",
      );
      expectInvalid(viaGql, "price");
    });
  });

  it("an FX rate of 0 or above the maximum names rate", async () => {
    const zero = await rest("post", "/v1/fx-rates/bulk", [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 0 }]);
    expect(messages(zero)).toEqual([expect.stringMatching(/rate: must be greater than 0$/)]);
    const huge = await rest(
      "post",
      "/v1/fx-rates/bulk",
      "base,quote,date,rate\nUSD,AUD,2024-01-02,1e19\nUSD,AUD,2024-01-03,10000000000\n",
      "text/csv",
    );
    expect(messages(huge)).toEqual([
      "line 2.rate: must be a decimal number such as 12.5",
      "line 3.rate: must be between 0 (excluded) and 1000000000",
    ]);
    expect(await count("fx_rate")).toBe(0);
  });

  it("an income exchangeRate of 0 is refused over REST and GraphQL (was 201: USD 1,000 counted AUD 0)", async () => {
    const { holdingId } = await usdHolding();
    const income = {
      holdingId,
      exDividendDate: "2024-03-01",
      paidDate: "2024-03-15",
      foreignIncome: 1000,
      currencyCode: "USD",
      exchangeRate: 0,
    };
    await unchanged(async () => {
      const viaRest = await rest("post", "/v1/income", income);
      expectInvalid(viaRest, "exchangeRate");
      expect(messages(viaRest)).toEqual(["exchangeRate: must be greater than 0"]);
      expectInvalid(
        await gql(
          "mutation($input: IncomeInput!) { createIncome(input: $input) { id } }",
          { input: { ...income, holdingId: String(holdingId), exchangeRate: "0" } },
          "createIncome",
        ),
        "exchangeRate",
      );
      expectInvalid(
        await rest("post", "/v1/income", {
          ...income,
          exchangeRate: 1.6,
          isReinvested: true,
          drpQuantity: 10,
          drpPrice: 0,
        }),
        "drpPrice",
      );
    });
    expect(await count("income")).toBe(0);
    await postCreated(t, key, "/v1/income", { ...income, exchangeRate: 1.6 });
  });

  it("a trade's exchangeRate of 0, as JSON and as an import row; a simulated sale's too", async () => {
    const { portfolioId, holdingId } = await usdHolding();
    await unchanged(async () => {
      expectInvalid(
        await rest("post", "/v1/trades", {
          portfolioId,
          holdingId,
          tradeType: "Buy",
          tradeDate: "2024-02-01",
          quantity: 1,
          price: 100,
          exchangeRate: 0,
        }),
        "exchangeRate",
      );
      const imported = await restCall(
        importTradesCsv(t, key, portfolioId, tradeCsv("2024-02-01,Buy,AAPL,NASDAQ,1,100,0,USD,0,,")),
      );
      expect(imported.ok).toBe(false);
      expect(JSON.stringify(imported.errors)).toMatch(/exchangeRate.*must be greater than 0/);
      expectInvalid(
        await rest("post", `/v1/portfolios/${portfolioId}/simulate-sell`, {
          holdingId,
          quantity: 1,
          price: 100,
          date: "2024-02-01",
          exchangeRate: "0",
        }),
        "exchangeRate",
      );
    });
  });

  it("a trade price of 0 stays allowed where DOMAIN.md gives it a meaning (a bonus issue)", async () => {
    const { portfolioId, holdingId } = await usdHolding();
    await newTrade(t, key, {
      portfolioId,
      holdingId,
      tradeType: "Bonus",
      tradeDate: "2024-02-01",
      quantity: 1,
      price: 0,
    });
  });
});

describe("numbers beyond their column name their field and its maximum (row 10)", () => {
  it.each([
    [
      "a trade price",
      "/v1/trades",
      { tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 1e16 },
      "price: must be between 0 and 1000000000000000",
    ],
    [
      "a trade quantity",
      "/v1/trades",
      { tradeType: "Buy", tradeDate: "2024-02-01", quantity: "10000000000000000", price: 1 },
      "quantity: must be between -1000000000000000 and 1000000000000000",
    ],
    [
      "a trade exchangeRate",
      "/v1/trades",
      { tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 1, exchangeRate: 1e10 },
      "exchangeRate: must be between 0 (excluded) and 1000000000",
    ],
    [
      "a trade brokerage",
      "/v1/trades",
      { tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 1, brokerage: 1e15 },
      // DECIMAL(19,4): below 10^15 to the last of its 4 decimals (docs/conventions.md §4.2).
      "brokerage: must be between 0 and 999999999999999.9999",
    ],
  ])("%s", async (_name, url, body, message) => {
    const { portfolioId, holdingId } = await usdHolding();
    const o = await rest("post", url, { portfolioId, holdingId, ...body });
    expectInvalid(o);
    expect(messages(o)).toEqual([message]);
  });

  it("an amount at its column's maximum, 999999999999999.9999, is stored to the last decimal", async () => {
    const { portfolioId, holdingId } = await usdHolding();
    const o = await rest("post", "/v1/trades", {
      portfolioId,
      holdingId,
      tradeType: "Buy",
      tradeDate: "2024-02-01",
      quantity: 1,
      price: 1,
      brokerage: "999999999999999.9999",
    });
    expect(o.status).toBe(201);
    const [row] = await t.db.sql<{ brokerage: string }>(`SELECT brokerage::text FROM trade WHERE id = $1`, [
      (o.ok ? (o.value as { id: number }) : { id: 0 }).id,
    ]);
    expect(row.brokerage).toBe("999999999999999.9999");
  });

  it("the database's own refusal, the fallback, suggests the model's likely field and its maximum", async () => {
    const { portfolioId } = await usdHolding();
    const [{ account_id: accountId }] = await t.db.sql<{ account_id: number }>(
      "SELECT account_id FROM portfolio WHERE id = $1",
      [portfolioId],
    );
    const refused = await t.db.prisma.fxRate
      .create({ data: { accountId, base: "USD", quote: "AUD", date: utcDate("2024-01-02"), rate: "1e19" } })
      .then(
        () => undefined,
        (error: unknown) => toDomainError(error),
      );
    expect({ code: refused?.code, message: refused?.message }).toEqual({
      code: "VALIDATION_FAILED",
      message: "The request is invalid: a number is out of range (likely rate (at most 9999999999.9999999999)).",
    });
  });
});
