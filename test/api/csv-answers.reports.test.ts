import { parse } from "csv-parse/sync";
import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";

/**
 * The portfolio's transactions and its performance by holding answer CSV when asked
 * (docs/data.md §5): parsed back, every row and every value is the JSON answer's.
 */
const t = useTestApp();
let key: string;
let portfolioId: number;

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
  const trade = (symbol: string, tradeType: string, tradeDate: string, quantity: number, price: number) =>
    newTrade(t, key, { portfolioId, symbol, exchange: "ASX", tradeType, tradeDate, quantity, price, brokerage: 9.5 });
  await trade("CBA", "Buy", "2023-08-01", 100, 100);
  await trade("CBA", "Sell", "2024-02-01", 40, 120);
  await trade("BHP", "Buy", "2023-09-01", 50, 44.25);
});

const rowsOf = (text: string): Record<string, string>[] => parse(text, { columns: true });
/** A JSON value as the CSV writes it: numbers in full, null empty. */
const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v));

it("transactions: the page's rows, with the page's headers", async () => {
  const url = `/v1/portfolios/${portfolioId}/transactions?limit=2`;
  const json = await t.http.get(url).set("authorization", key).expect(200);
  const csv = await t.http.get(url).set("authorization", key).set("accept", "text/csv").expect(200);
  expect(csv.headers["content-disposition"]).toBe("attachment; filename=transactions.csv");
  expect(csv.headers["x-total-count"]).toBe("3");
  expect(csv.headers.link).toBe(json.headers.link);
  const rows = rowsOf(csv.text);
  expect(rows).toHaveLength(2);
  rows.forEach((row, i) => {
    for (const [field, value] of Object.entries(json.body[i]))
      expect({ field, value: row[field] }).toEqual({ field, value: cell(value) });
  });
});

it("performance by holding: one row per holding, the return components flattened", async () => {
  const url = `/v1/portfolios/${portfolioId}/performance?from=2023-07-01&to=2024-06-30`;
  const json = (await t.http.get(url).set("authorization", key).expect(200)).body;
  const csv = await t.http.get(`${url}&format=csv`).set("authorization", key).expect(200);
  expect(csv.headers["content-disposition"]).toBe("attachment; filename=performance-by-holding.csv");
  const rows = rowsOf(csv.text);
  expect(rows.map((r) => r.symbol)).toEqual(json.holdings.map((h: { symbol: string }) => h.symbol));
  rows.forEach((row, i) => {
    const h = json.holdings[i];
    const { totalReturn, groupedByValue, ...own } = h;
    for (const [field, value] of Object.entries({ ...own, ...totalReturn, group: groupedByValue }))
      expect({ field, value: row[field] }).toEqual({ field, value: cell(value) });
  });
});
