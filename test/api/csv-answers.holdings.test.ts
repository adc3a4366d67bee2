import { parse } from "csv-parse/sync";
import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";

/**
 * Reports a user opens in a spreadsheet answer CSV when asked (`Accept: text/csv` or
 * `?format=csv`; docs/data.md §5): the same rows as the JSON answer, numbers as numbers, and a
 * text cell that could run as a formula guarded with a leading `'`.
 */
const t = useTestApp();
let key: string;
let portfolioId: number;

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
  await newTrade(t, key, {
    portfolioId,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10.5,
    price: 152.39,
    brokerage: 9.95,
  });
});

const rowsOf = (text: string): Record<string, string>[] => parse(text, { columns: true });

describe("the holdings list as CSV", () => {
  it("?format=csv answers the JSON's holdings as rows, numbers as numbers", async () => {
    const json = (await t.http.get(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", key).expect(200))
      .body;
    const res = await t.http
      .get(`/v1/portfolios/${portfolioId}/holdings?format=csv`)
      .set("authorization", key)
      .expect(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe("attachment; filename=holdings.csv");
    const [row] = rowsOf(res.text);
    expect(rowsOf(res.text)).toHaveLength(json.length);
    // 10.5 × 152.39 = 1,600.095, + 9.95 brokerage = 1,610.045: written in full, as the JSON number is.
    expect(row).toMatchObject({
      id: String(json[0].id),
      symbol: "CBA",
      exchange: "ASX",
      quantity: "10.5",
      costBase: "1610.045",
      priceSource: json[0].priceSource,
      priceStale: String(json[0].priceStale),
      pendingCorporateActions: "0",
    });
    expect(Number(row.marketValue)).toBe(json[0].marketValue);
  });

  it("Accept: text/csv answers CSV; */* and none answer JSON", async () => {
    const csv = await t.http
      .get(`/v1/portfolios/${portfolioId}/holdings`)
      .set("authorization", key)
      .set("accept", "text/csv")
      .expect(200);
    expect(csv.text.split("\r\n")[0]).toMatch(/^id,symbol,exchange,name,/);
    for (const accept of ["*/*", "application/json", "application/json, text/csv"]) {
      const res = await t.http
        .get(`/v1/portfolios/${portfolioId}/holdings`)
        .set("authorization", key)
        .set("accept", accept)
        .expect(200);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
    }
  });

  it("the other query parameters still apply; a format other than csv or json is a 400", async () => {
    const res = await t.http
      .get(`/v1/portfolios/${portfolioId}/holdings?format=csv&date=2024-01-09`)
      .set("authorization", key)
      .expect(200);
    // Valued the day before the buy: no units, so no open holding.
    expect(rowsOf(res.text)).toEqual([]);
    const bad = await t.http.get(`/v1/portfolios/${portfolioId}/holdings?format=xml`).set("authorization", key);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: "format" })]);
  });

  it("a text cell that would run as a formula is written with a leading '", async () => {
    const { holdingId } = await newTrade(t, key, {
      portfolioId,
      symbol: "BHP",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 1,
      price: 45,
    });
    for (const notes of ['=HYPERLINK("http://x.test","y")', "+1+1", "-2+3", "@SUM(A1)", "\tx"]) {
      await t.http.put(`/v1/holdings/${holdingId}`).set("authorization", key).send({ notes }).expect(200);
      const res = await t.http
        .get(`/v1/portfolios/${portfolioId}/holdings?format=csv`)
        .set("authorization", key)
        .expect(200);
      const bhp = rowsOf(res.text).find((r) => r.symbol === "BHP")!;
      expect(bhp.notes).toBe(`'${notes}`);
    }
  });

  it("another account's portfolio is not found, in CSV as in JSON", async () => {
    const other = await t.newAccount();
    const res = await t.http.get(`/v1/portfolios/${portfolioId}/holdings?format=csv`).set("authorization", other);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});
