import { ledgerSnapshot, useTestApp } from "../support/app";

import { newPortfolio, newTrade } from "../factories";

import { expectRejected, type FieldError } from "../support/outcomes";

/**
 * Inputs a financial ledger must not take silently (issue 7, docs/conventions.md §7.1): a field the schema does
 * not know is refused (400 naming its full path, with the closest known name when it looks like a
 * typo), query strings included, and every validation error of a request comes in one answer,
 * the rules between fields (allocation buckets, trades, income...) beside the fields' own.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const byPath = (errors: FieldError[]) => [...errors].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

async function newHolding(p: number): Promise<number> {
  return (
    await newTrade(t, key, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    })
  ).holdingId;
}

describe("unknown fields are refused, each named by its full path", () => {
  it("a misspelt trade field answers 400 naming it and the field it resembles; nothing is written", async () => {
    const p = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    const res = await t.http.post("/v1/trades").set("authorization", key).send({
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
      brokrage: "9.95",
    });
    expect(expectRejected(res, 400, "VALIDATION_FAILED")).toEqual([
      { path: "brokrage", message: "is not a known field; did you mean brokerage?" },
    ]);
    expect(res.body.detail).toContain("brokrage");
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("nested objects and list entries are strict too: buckets[1].labell, parcels[0].qty, classification.sectr", async () => {
    const p = await newPortfolio(t, key);
    const model = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set("authorization", key)
      .send({
        name: "M",
        dimension: "assetClass",
        buckets: [
          { label: "A", targetPct: 60 },
          { label: "B", targetPct: 40, labell: "x" },
        ],
      });
    expect(expectRejected(model, 400, "VALIDATION_FAILED")).toEqual([
      { path: "buckets[1].labell", message: "is not a known field; did you mean label?" },
    ]);

    const h = await newHolding(p);
    const [buy] = (await t.http.get(`/v1/holdings/${h}/trades`).set("authorization", key)).body;
    const sell = await t.http
      .post("/v1/trades")
      .set("authorization", key)
      .send({
        portfolioId: p,
        holdingId: h,
        tradeType: "Sell",
        tradeDate: "2024-02-01",
        quantity: 1,
        price: 1,
        parcels: [{ tradeId: buy.id, qty: 1, quantity: 1 }],
      });
    expect(expectRejected(sell, 400, "VALIDATION_FAILED").map((e) => e.path)).toEqual(["parcels[0].qty"]);

    const update = await t.http
      .put(`/v1/holdings/${h}`)
      .set("authorization", key)
      .send({ classification: { sectr: "Banks" } });
    expect(expectRejected(update, 400, "VALIDATION_FAILED")).toEqual([
      { path: "classification.sectr", message: "is not a known field; did you mean sector?" },
    ]);
  });

  it("several unknown fields are one error each; a name far from every field gets no suggestion", async () => {
    const res = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .send({ name: "P", colour: "red", nmae: "x" });
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED"))).toEqual([
      { path: "colour", message: "is not a known field" },
      { path: "nmae", message: "is not a known field; did you mean name?" },
    ]);
    expect((await t.http.get("/v1/portfolios").set("authorization", key)).body).toEqual([]);
  });

  it.each([
    ["/v1/portfolios/{p}/holdings?includeClosd=true", "includeClosed"],
    ["/v1/holdings/{h}/trades?limt=5", "limit"],
    ["/v1/market-prices?symbol=CBA&exchange=ASX&form=2024-01-01", "from"],
  ])("a misspelt query parameter is refused, not ignored: %s", async (url, near) => {
    const p = await newPortfolio(t, key);
    const h = await newHolding(p);
    const res = await t.http.get(url.replace("{p}", String(p)).replace("{h}", String(h))).set("authorization", key);
    const [error] = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(error.message).toBe(`is not a known field; did you mean ${near}?`);
  });

  it("trade import rows are strict: line N.field names the unknown field", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http
      .post(`/v1/portfolios/${p}/trades/import`)
      .set("authorization", key)
      .send([
        { symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1, pirce: 2 },
      ]);
    expect(expectRejected(res, 400, "VALIDATION_FAILED")).toEqual([
      { path: "line 1.pirce", message: "is not a known field; did you mean price?", line: 1 },
    ]);
  });

  it("bulk price rows are strict: line N.field names the unknown field", async () => {
    const res = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.5", rte: 2 }]);
    expect(expectRejected(res, 400, "VALIDATION_FAILED")).toEqual([
      { path: "line 1.rte", message: "is not a known field; did you mean rate?", line: 1 },
    ]);
  });

  it("GraphQL refuses unknown input fields itself, and services still take what resolvers pass", async () => {
    const p = await newPortfolio(t, key);
    const bad = await t.gql(
      key,
      `mutation($p: ID!) { saveAllocationModel(portfolioId: $p, input: { name: "M", dimension: "assetClass", buckets: [{ label: "A", targetPct: "100", labell: "x" }] }) { publicId } }`,
      { p: String(p) },
    );
    expect(bad.body.errors?.[0]?.message).toMatch(/labell/);
    const ok = await t.gql(
      key,
      `mutation($p: ID!) { createTrade(input: { portfolioId: $p, symbol: "CBA", exchange: "ASX", tradeType: Buy, tradeDate: "2024-01-10", quantity: "10", price: "100" }) { id } }`,
      { p: String(p) },
    );
    expect(ok.body.errors).toBeUndefined();
    const holdings = await t.gql(
      key,
      `query($p: ID!) { portfolio(id: $p) { holdings(includeClosed: true) { symbol } } }`,
      { p: String(p) },
    );
    expect(holdings.body).toEqual({ data: { portfolio: { holdings: [{ symbol: "CBA" }] } } });
  });
});

describe("every validation error of a request comes in one answer", () => {
  const body = {
    name: "Balanced",
    dimension: "assetClass",
    buckets: [
      { label: "Shares", targetPct: 60, tolerancePct: 150 },
      { label: "shares", targetPct: 30 },
    ],
  };
  const expected = [
    { path: "buckets", message: expect.stringContaining("must add up to 100") },
    { path: "buckets[0].tolerancePct", message: expect.any(String) },
    { path: "buckets[1].label", message: expect.stringContaining("duplicates the label of buckets[0]") },
  ];

  it("REST: an out-of-range tolerance, a duplicate label and a sum ≠ 100 are all named at once", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http.post(`/v1/portfolios/${p}/allocation-models`).set("authorization", key).send(body);
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED"))).toEqual(expected);
  });

  it("GraphQL: the same three errors in one answer", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.gql(
      key,
      `mutation($p: ID!, $input: AllocationModelInput!) { saveAllocationModel(portfolioId: $p, input: $input) { publicId } }`,
      {
        p: String(p),
        input: {
          ...body,
          buckets: body.buckets.map((b) => ({
            ...b,
            targetPct: String(b.targetPct),
            ...(b.tolerancePct ? { tolerancePct: String(b.tolerancePct) } : {}),
          })),
        },
      },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(byPath(res.body.errors[0].extensions.errors)).toEqual(expected);
  });

  it("an unknown field comes with the other errors, not before them", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set("authorization", key)
      .send({ ...body, colour: "red" });
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED")).map((e) => e.path)).toEqual([
      "buckets",
      "buckets[0].tolerancePct",
      "buckets[1].label",
      "colour",
    ]);
  });

  it("a trade: a bad date, a field rule and an unknown field together", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http.post("/v1/trades").set("authorization", key).send({
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Split",
      tradeDate: "2024-02-30",
      quantity: 10,
      price: 5,
      brokerage: "abc",
      note: "x",
    });
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED")).map((e) => e.path)).toEqual([
      "brokerage",
      "note",
      "price",
      "tradeDate",
    ]);
  });

  it("income: a bad amount and a paid date before the ex-date together", async () => {
    const p = await newPortfolio(t, key);
    const h = await newHolding(p);
    const res = await t.http.post("/v1/income").set("authorization", key).send({
      holdingId: h,
      exDividendDate: "2024-03-01",
      paidDate: "2024-02-01",
      frankedAmount: "-1",
      isReinvested: true,
    });
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED")).map((e) => e.path)).toEqual([
      "drpQuantity",
      "frankedAmount",
      "paidDate",
    ]);
  });

  it("a query: a bad limit and an unknown parameter together", async () => {
    const p = await newPortfolio(t, key);
    const h = await newHolding(p);
    const res = await t.http.get(`/v1/holdings/${h}/trades?limit=0&ofset=1`).set("authorization", key);
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED")).map((e) => e.path)).toEqual(["limit", "ofset"]);
  });
});

describe("bulk price CSV reads headers and codes in any case", () => {
  it("FX rates: Base,Quote,Date,Rate with lower-case codes", async () => {
    const res = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send("Base,QUOTE,Date,Rate\nusd,aud,2024-01-02,1.5\n");
    expect(res.status).toBe(200);
    const list = await t.http.get("/v1/fx-rates?base=USD&quote=AUD").set("authorization", key);
    expect(list.body).toEqual([{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5, source: "Account" }]);
  });

  it("JSON bulk FX rows read currency codes in any case too (single reads stay strict)", async () => {
    const res = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "eur", quote: "Aud", date: "2024-01-02", rate: "1.6" }]);
    expect(res.status).toBe(200);
    expect((await t.http.get("/v1/fx-rates?base=EUR&quote=AUD").set("authorization", key)).body).toEqual([
      { base: "EUR", quote: "AUD", date: "2024-01-02", rate: 1.6, source: "Account" },
    ]);
  });

  it("market prices and custom prices: headers in any case and order", async () => {
    const market = await t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send("Date,Symbol,Exchange,Close\n2024-01-02,cba,asx,120.5\n");
    expect(market.status).toBe(200);
    expect((await t.http.get("/v1/market-prices?symbol=CBA&exchange=ASX").set("authorization", key)).body).toEqual([
      { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 120.5, source: "Account" },
    ]);
    const h = await newHolding(await newPortfolio(t, key));
    const custom = await t.http
      .post(`/v1/holdings/${h}/prices/bulk`)
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send("PRICE,Date\n101,2024-01-03\n");
    expect(custom.status).toBe(201);
  });

  it("an unknown column is refused, naming the column it resembles", async () => {
    const res = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .set("content-type", "text/csv")
      .send("base,quote,date,rte\nUSD,AUD,2024-01-02,1.5\n");
    const [error] = expectRejected(res, 400, "VALIDATION_FAILED");
    expect(error).toEqual({ path: "line 1", message: expect.stringContaining("rte (did you mean rate?)") });
  });
});

describe("a required field left out is `is required` at its path, whatever its own check says of a value", () => {
  it("a trade without tradeType and tradeDate: is required on each, not 'Invalid option' or 'must be a date'", async () => {
    const p = await newPortfolio(t, key);
    const before = await ledgerSnapshot(t.db);
    const res = await t.http
      .post("/v1/trades")
      .set("authorization", key)
      .send({ portfolioId: p, symbol: "CBA", exchange: "ASX", quantity: 10, price: 100 });
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED"))).toEqual([
      { path: "tradeDate", message: "is required" },
      { path: "tradeType", message: "is required" },
    ]);
    // Given but wrong, each keeps its own words.
    const wrong = await t.http.post("/v1/trades").set("authorization", key).send({
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Bought",
      tradeDate: "10/01/2024",
      quantity: 1,
      price: 1,
    });
    const errors = byPath(expectRejected(wrong, 400, "VALIDATION_FAILED"));
    expect(errors.map((e) => e.path)).toEqual(["tradeDate", "tradeType"]);
    expect(errors[0].message).toBe("must be a date, YYYY-MM-DD");
    expect(errors[1].message).toMatch(/^Invalid option: expected one of "Buy"/);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("an import's JSON row written with the CSV's column names: each named with the JSON field meant", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http
      .post(`/v1/portfolios/${p}/trades/import`)
      .set("authorization", key)
      .send([{ date: "2024-01-10", type: "Buy", symbol: "CBA", exchange: "ASX", quantity: 1, price: 1 }]);
    expect(byPath(expectRejected(res, 400, "VALIDATION_FAILED"))).toEqual([
      {
        path: "line 1.date",
        message: "is not a known field; did you mean tradeDate? (date is the column's name in a CSV file)",
        line: 1,
      },
      { path: "line 1.tradeDate", message: "is required (the column date of a CSV file)", line: 1 },
      { path: "line 1.tradeType", message: "is required (the column type of a CSV file)", line: 1 },
      {
        path: "line 1.type",
        message: "is not a known field; did you mean tradeType? (type is the column's name in a CSV file)",
        line: 1,
      },
    ]);
  });

  it("bulk market price rows say is required too", async () => {
    const prices = await t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", key)
      .send([{ symbol: "CBA", exchange: "ASX", close: 1 }]);
    expect(expectRejected(prices, 400, "VALIDATION_FAILED")).toEqual([
      expect.objectContaining({ path: expect.stringMatching(/date$/), message: "is required" }),
    ]);
  });
});
