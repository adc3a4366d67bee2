import { parse } from "csv-parse/sync";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { useTestApp } from "../support/app";
import type { Json } from "../support/outcomes";

/**
 * The tax reports answer CSV when asked (docs/data.md §5), for an accountant's spreadsheet: parsed
 * back, every row is one of the JSON answer's finest rows and every value is the JSON's.
 *
 * Ledger (Individual, FIFO, AUD): CBA buy 100 @ 10 on 2023-05-02, buy 50 @ 20 on 2024-08-01, sell
 * 120 @ 16 on 2025-03-03, each with 9.95 brokerage: the sale takes the first parcel whole (held
 * more than 12 months: discountable) and 20 units of the second (not); a buy of 10 @ 17 on
 * 2025-03-20 leaves two CBA parcels open. USX (NYSE, USD) buy 10 @ 100 at 1.5 on 2024-01-10. On
 * 2025-03-31 CBA closes at 18, USX at 110, 1 USD buys 1.6 AUD. FY2025 income: a franked CBA
 * dividend (700), a USD foreign dividend, an unconfirmed one (left out), and 12.50 interest on a
 * cash account named like a formula.
 */
const t = useTestApp();
let key: string;
let portfolioId: number;

const income = async (body: Json, confirm = true) => {
  const { id } = await postCreated<{ id: number }>(t, key, "/v1/income", body);
  if (confirm) expect((await t.http.put(`/v1/income/${id}/confirm`).set("authorization", key)).status).toBe(200);
  return id;
};

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key, { name: "Investor" });
  const cba = (tradeType: string, tradeDate: string, quantity: number, price: number) =>
    newTrade(t, key, {
      portfolioId,
      symbol: "CBA",
      exchange: "ASX",
      tradeType,
      tradeDate,
      quantity,
      price,
      brokerage: 9.95,
    });
  const { holdingId: cbaId } = await cba("Buy", "2023-05-02", 100, 10);
  await cba("Buy", "2024-08-01", 50, 20);
  await cba("Sell", "2025-03-03", 120, 16);
  await cba("Buy", "2025-03-20", 10, 17);
  const { holdingId: usxId } = await newTrade(t, key, {
    portfolioId,
    symbol: "USX",
    exchange: "NYSE",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
    currencyCode: "USD",
    exchangeRate: 1.5,
  });
  const closes = [
    { symbol: "CBA", exchange: "ASX", date: "2025-03-31", close: 18 },
    { symbol: "USX", exchange: "NYSE", date: "2025-03-31", close: 110 },
  ];
  expect((await t.http.post("/v1/market-prices/bulk").set("authorization", key).send(closes)).status).toBe(200);
  const rates = [{ base: "USD", quote: "AUD", date: "2025-03-31", rate: 1.6 }];
  expect((await t.http.post("/v1/fx-rates/bulk").set("authorization", key).send(rates)).status).toBe(200);

  await income({ holdingId: cbaId, exDividendDate: "2024-08-20", paidDate: "2024-09-12", frankedAmount: 700 });
  await income({ holdingId: cbaId, exDividendDate: "2025-02-20", paidDate: "2025-03-12", unfrankedAmount: 99 }, false);
  await income({
    holdingId: usxId,
    exDividendDate: "2024-11-01",
    paidDate: "2024-11-20",
    foreignIncome: 100,
    foreignTaxPaid: 15,
    currencyCode: "USD",
    exchangeRate: 1.5,
  });
  const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId,
    name: "=Saver",
    currencyCode: "AUD",
  });
  for (const [type, date, amount] of [
    ["Deposit", "2024-07-01", 5000],
    ["InterestPayment", "2025-01-31", 12.5],
  ])
    await postCreated(t, key, "/v1/cash-transactions", { cashAccountId: cash.id, type, date, amount });
});

type Row = Record<string, string>;
const rowsOf = (text: string): Row[] => parse(text, { columns: true });
/** A JSON value as the CSV writes it: numbers in full, null empty, a formula-like text guarded. */
const cell = (v: unknown) =>
  v === null || v === undefined ? "" : typeof v === "string" && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
/** Each of `expected`'s fields is the row's value under that header. */
const expectRow = (row: Row, expected: Json) => {
  for (const [field, value] of Object.entries(expected))
    expect({ field, value: row[field] }).toEqual({ field, value: cell(value) });
};

const REPORTS = {
  "capital gains": { path: "capital-gains", query: "financialYear=2025", fileName: "capital-gains.csv" },
  "unrealised gains": {
    path: "unrealised-capital-gains",
    query: "date=2025-03-31",
    fileName: "unrealised-capital-gains.csv",
  },
  "taxable income": { path: "taxable-income", query: "financialYear=2025", fileName: "taxable-income.csv" },
} as const;
type Report = keyof typeof REPORTS;
const urlOf = (report: Report, p = portfolioId) =>
  `/v1/portfolios/${p}/reports/${REPORTS[report].path}?${REPORTS[report].query}`;

async function both(report: Report) {
  const json = (await t.http.get(urlOf(report)).set("authorization", key).expect(200)).body as Json;
  const res = await t.http
    .get(`${urlOf(report)}&format=csv`)
    .set("authorization", key)
    .expect(200);
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.headers["content-disposition"]).toBe(`attachment; filename=${REPORTS[report].fileName}`);
  return { json, text: res.text, rows: rowsOf(res.text) };
}

it("capital gains: one row per parcel sold, the disposal's fields as the JSON has them", async () => {
  const { json, text, rows } = await both("capital gains");
  const disposals = json.disposals as Json[];
  expect(disposals).toHaveLength(2);
  expect(disposals.map((d) => d.isDiscountable)).toEqual([true, false]);
  expect(text.split("\r\n")[0]).toBe(
    "disposalDate,eventType,holdingId,symbol,exchange,saleTradeId,method,acquisitionTradeId,acquisitionDate,quantity,proceeds,costBase,capitalGain,isDiscountable",
  );
  expect(rows).toHaveLength(disposals.length);
  rows.forEach((row, i) => {
    expect(Object.keys(row).sort()).toEqual(Object.keys(disposals[i]).sort());
    expectRow(row, disposals[i]);
  });
  expect(rows.map((r) => [r.saleTradeId === rows[0].saleTradeId, r.quantity, r.isDiscountable])).toEqual([
    [true, "100", "true"],
    [true, "20", "false"],
  ]);
});

it("unrealised gains: one row per open parcel with its holding, summing to the holding's figures", async () => {
  const { json, rows } = await both("unrealised gains");
  const holdings = json.holdings as (Json & { parcels: Json[] })[];
  expect(json.unpricedHoldings).toEqual([]);
  expect(holdings.map((h) => [h.symbol, h.parcels.length])).toEqual([
    ["CBA", 2],
    ["USX", 1],
  ]);
  const expected = holdings.flatMap(({ holdingId, symbol, exchange, nextDiscountDate, parcels }) =>
    parcels.map((p) => ({ holdingId, symbol, exchange, nextDiscountDate, ...p })),
  );
  expect(rows).toHaveLength(expected.length);
  rows.forEach((row, i) => {
    expect(Object.keys(row).sort()).toEqual(Object.keys(expected[i]).sort());
    expectRow(row, expected[i]);
  });
  for (const h of holdings) {
    const own = rows.filter((r) => r.holdingId === String(h.holdingId));
    const sum = (field: string) => Math.round(own.reduce((s, r) => s + Number(r[field]), 0) * 1e4) / 1e4;
    expect([sum("quantity"), sum("proceeds"), sum("costBase"), sum("capitalGain")]).toEqual([
      h.quantity,
      h.marketValue,
      h.costBase,
      h.unrealisedGain,
    ]);
  }
});

it("taxable income: one row per income record, then the interest, each label a column summing to the totals", async () => {
  const { json, text, rows } = await both("taxable income");
  const income = json.rows as (Json & { labels: Json })[];
  const interest = json.interest as (Json & { labels: Json })[];
  expect(income).toHaveLength(2);
  expect(interest).toHaveLength(1);
  const labels = Object.keys(json.totals as Json);
  expect(text.split("\r\n")[0]).toBe(
    ["incomeId,holdingId,symbol,exchange,exDividendDate,paidDate,cashAccountId,name", ...labels].join(","),
  );
  const expected = [...income, ...interest];
  expect(rows).toHaveLength(expected.length);
  rows.forEach((row, i) => {
    const { labels: own, ...fields } = expected[i];
    expectRow(row, fields);
    for (const label of labels) expect({ label, value: row[label] }).toEqual({ label, value: cell(own[label]) });
  });
  expect(rows[2]).toMatchObject({ incomeId: "", symbol: "", name: "'=Saver", "10L": "12.5" });
  for (const [label, total] of Object.entries(json.totals as Json))
    expect({ label, sum: Math.round(rows.reduce((s, r) => s + Number(r[label]), 0) * 1e4) / 1e4 }).toEqual({
      label,
      sum: total,
    });
});

describe.each(Object.keys(REPORTS) as Report[])("%s as CSV", (report) => {
  it("Accept: text/csv answers the same text as ?format=csv; no Accept answers JSON", async () => {
    const byQuery = await t.http
      .get(`${urlOf(report)}&format=csv`)
      .set("authorization", key)
      .expect(200);
    const byAccept = await t.http.get(urlOf(report)).set("authorization", key).set("accept", "text/csv").expect(200);
    expect(byAccept.headers["content-disposition"]).toBe(`attachment; filename=${REPORTS[report].fileName}`);
    expect(byAccept.text).toBe(byQuery.text);
    const plain = await t.http.get(urlOf(report)).set("authorization", key).expect(200);
    expect(plain.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("another account's portfolio: 404 problem+json, asked as CSV either way", async () => {
    const other = await t.newAccount();
    const theirs = await newPortfolio(t, other);
    for (const res of [
      await t.http.get(`${urlOf(report, theirs)}&format=csv`).set("authorization", key),
      await t.http.get(urlOf(report, theirs)).set("authorization", key).set("accept", "text/csv"),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.headers["content-disposition"]).toBeUndefined();
    }
  });

  it("a bad query is a 400 problem+json with the CSV format too; so is a format other than csv or json", async () => {
    const bad = report === "unrealised gains" ? "date=2025-02-30" : "financialYear=25";
    for (const url of [
      `/v1/portfolios/${portfolioId}/reports/${REPORTS[report].path}?${bad}&format=csv`,
      `${urlOf(report)}&format=xlsx`,
    ]) {
      const res = await t.http.get(url).set("authorization", key);
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
  });
});
