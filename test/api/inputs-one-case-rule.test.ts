import { newPortfolio } from "../factories";
import { useTestApp } from "../support/app";

/**
 * One rule for enumerations and for missing fields, whatever the body (issue: the first hour of
 * data entry): `buy` was taken in a CSV import and refused in JSON; a missing portfolioId
 * answered zod's "Invalid input" instead of saying it is required.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

it("a JSON trade takes its type and holding type in any case and spacing, as a CSV row does", async () => {
  const portfolioId = await newPortfolio(t, key);
  const res = await t.http.post("/v1/trades").set("authorization", key).send({
    portfolioId,
    symbol: "ZQCASE",
    exchange: "asx",
    name: "Case Test Fund",
    holdingType: "etf",
    tradeType: "buy",
    tradeDate: "2024-03-01",
    quantity: 10,
    price: 12.5,
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ tradeType: "Buy", exchange: "ASX" });
  const holding = (await t.http.get(`/v1/holdings/${res.body.holdingId}`).set("authorization", key)).body;
  expect(holding.holdingType).toBe("Etf");
  const sell = await t.http.post("/v1/trades").set("authorization", key).send({
    portfolioId,
    holdingId: res.body.holdingId,
    tradeType: "SELL",
    tradeDate: "2024-03-02",
    quantity: 1,
    price: 13,
  });
  expect(sell.status).toBe(201);
  expect(sell.body.tradeType).toBe("Sell");
});

it("a value that is no type in any case is still refused, naming the values", async () => {
  const portfolioId = await newPortfolio(t, key);
  const res = await t.http.post("/v1/trades").set("authorization", key).send({
    portfolioId,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "purchase",
    tradeDate: "2024-03-01",
    quantity: 1,
    price: 1,
  });
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([
    expect.objectContaining({ path: "tradeType", message: expect.stringContaining("Buy") }),
  ]);
});

it("a missing portfolioId is required, not 'Invalid input'", async () => {
  const res = await t.http.post("/v1/trades").set("authorization", key).send({
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-03-01",
    quantity: 1,
    price: 1,
  });
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([{ path: "portfolioId", message: "is required" }]);
});

it("a portfolio's entity type is read in any case too (as are cash transaction types, parcel methods and permissions)", async () => {
  const created = await t.http
    .post("/v1/portfolios")
    .set("authorization", key)
    .send({ name: "Fund", baseCurrencyCode: "AUD", entityType: "smsf" });
  expect(created.status).toBe(201);
  expect(created.body.entityType).toBe("SMSF");
});
