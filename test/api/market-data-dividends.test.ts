import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";
import { chart, FakeMarket, rbaFile } from "../support/fake-market";

/**
 * Provider dividends become each account's own unconfirmed income records (docs/data.md §3):
 * per-unit amount × units at the start of the ex-date, origin Provider, estimates listed; one per
 * (holding, ex-date) for good: updated while unconfirmed and unedited, never after, and never
 * made again once deleted.
 */
const market = new FakeMarket();
const t = useTestApp({
  marketData: {
    provider: "yahoo",
    fxProvider: "rba",
    url: "http://yahoo.test",
    fxUrl: "http://rba.test/f11.1-data.csv",
    http: market.http,
  },
});

interface Income {
  id: number;
  holdingId: number;
  exDividendDate: string;
  paidDate: string;
  frankedAmount: number;
  unfrankedAmount: number;
  frankingCredits: number;
  foreignIncome: number;
  withholdingTax: number;
  grossAmount: number;
  isConfirmed: boolean;
  origin: string;
  estimated: string[];
}

let key: string;
let portfolioId: number;

const trade = (k: string, p: number, tradeType: string, tradeDate: string, quantity: number, extra = {}) =>
  newTrade(t, k, {
    portfolioId: p,
    symbol: "VAS",
    exchange: "ASX",
    tradeType,
    tradeDate,
    quantity,
    price: 90,
    ...extra,
  });
const refresh = async (k = key) => {
  await t.http.post("/v1/market-data/refresh").set("authorization", k).send({}).expect(202);
  await t.marketData.idle();
};
const incomeOf = async (holdingId: number, k = key): Promise<Income[]> =>
  (await t.http.get(`/v1/holdings/${holdingId}/income`).set("authorization", k).expect(200)).body;

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
  // VAS pays 0.90 a unit, ex 2024-07-01; a second dividend of 0.80 ex 2024-10-01.
  market.answer("/v8/finance/chart/VAS.AX", {
    status: 200,
    body: chart(
      "VAS.AX",
      "AUD",
      [
        ["2024-06-27", 96.52],
        ["2024-07-01", 95.95],
        ["2024-10-01", 99.1],
      ],
      {
        dividends: [
          ["2024-07-01", 0.9],
          ["2024-10-01", 0.8],
        ],
      },
      "ETF",
    ),
  });
});

describe("dividends from the provider", () => {
  it("make one unconfirmed record per ex-date on the units held at its start", async () => {
    // 100 bought 2024-06-20; 50 more on the ex-date itself (2024-07-01) do not count for it.
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    await trade(key, portfolioId, "Buy", "2024-07-01", 50);
    await refresh();
    const records = await incomeOf(holdingId);
    // 0.90 × 100 = 90 (ex 07-01); 0.80 × 150 = 120 (ex 10-01). No confirmed record: unfranked.
    expect(records).toEqual([
      expect.objectContaining({
        exDividendDate: "2024-07-01",
        paidDate: "2024-07-01",
        unfrankedAmount: 90,
        frankedAmount: 0,
        frankingCredits: 0,
        isConfirmed: false,
        origin: "Provider",
        estimated: ["paidDate", "frankedAmount", "frankingCredits"],
      }),
      expect.objectContaining({ exDividendDate: "2024-10-01", unfrankedAmount: 120, origin: "Provider" }),
    ]);
    const status = (await t.http.get("/v1/market-data/status").set("authorization", key).expect(200)).body;
    expect(status.lastRun.counts).toMatchObject({ dividends: 2, incomeRecords: 2 });
  });

  it("carry the franked share of the holding's latest confirmed record", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-01-10", 100);
    // Confirmed: franked 80, unfranked 20, credits 34.2857 (paid 2024-03-28).
    const own = await t.http
      .post("/v1/income")
      .set("authorization", key)
      .send({
        holdingId,
        exDividendDate: "2024-03-01",
        paidDate: "2024-03-28",
        frankedAmount: 80,
        unfrankedAmount: 20,
        frankingCredits: 34.2857,
      })
      .expect(201);
    await t.http.put(`/v1/income/${own.body.id}/confirm`).set("authorization", key).expect(200);
    await refresh();
    const [, july] = await incomeOf(holdingId);
    // 90 × 80 % = 72 franked, 18 unfranked; credits 72 × 34.2857 / 80 = 30.857130 → 30.8571.
    expect(july).toMatchObject({
      frankedAmount: 72,
      unfrankedAmount: 18,
      frankingCredits: 30.8571,
      origin: "Provider",
    });
  });

  it("a refresh again changes nothing; a back-dated trade updates an unconfirmed record", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    await refresh();
    const before = await incomeOf(holdingId);
    await refresh();
    expect(await incomeOf(holdingId)).toEqual(before);
    // 20 more bought back on 2024-06-25, before both ex-dates: 0.90 × 120 = 108; 0.80 × 120 = 96.
    await trade(key, portfolioId, "Buy", "2024-06-25", 20);
    await refresh();
    const after = await incomeOf(holdingId);
    expect(after.map((r) => [r.id, r.unfrankedAmount])).toEqual([
      [before[0].id, 108],
      [before[1].id, 96],
    ]);
  });

  it("never touch a confirmed or edited record, and never make again a deleted one", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    await refresh();
    const [july, october] = await incomeOf(holdingId);
    // Confirm July (its estimates accepted); edit October (it becomes the user's).
    const confirmed = await t.http.put(`/v1/income/${july.id}/confirm`).set("authorization", key).expect(200);
    expect(confirmed.body).toMatchObject({ isConfirmed: true, estimated: [], origin: "Provider" });
    const edited = await t.http
      .put(`/v1/income/${october.id}`)
      .set("authorization", key)
      .send({ holdingId, exDividendDate: "2024-10-01", paidDate: "2024-10-20", frankedAmount: 80, unfrankedAmount: 0 })
      .expect(200);
    expect(edited.body).toMatchObject({ origin: "User", estimated: [], isConfirmed: false });
    await trade(key, portfolioId, "Buy", "2024-06-25", 20);
    await refresh();
    const kept = await incomeOf(holdingId);
    expect(kept.map((r) => [r.id, r.grossAmount])).toEqual([
      [july.id, 90],
      [october.id, 80],
    ]);
    // Deleted, it stays deleted.
    await t.http.delete(`/v1/income/${october.id}`).set("authorization", key).expect(204);
    await refresh();
    expect((await incomeOf(holdingId)).map((r) => r.id)).toEqual([july.id]);
  });

  it("a sale back-dated before the ex-date removes an unconfirmed record", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    await refresh();
    // Everything sold on 2024-06-28: no units at either ex-date.
    await trade(key, portfolioId, "Sell", "2024-06-28", 100, { price: 97 });
    await refresh();
    expect(await incomeOf(holdingId)).toEqual([]);
  });

  it("every account holding the security gets its own records, and sees only them", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    const other = await t.newAccount();
    const theirs = await newPortfolio(t, other);
    const { holdingId: theirHolding } = await trade(other, theirs, "Buy", "2024-09-01", 10);
    await refresh(); // one account's request refreshes the security for every holder
    expect((await incomeOf(holdingId)).length).toBe(2);
    // Bought 2024-09-01: only October's, 0.80 × 10 = 8.
    expect((await incomeOf(theirHolding, other)).map((r) => r.grossAmount)).toEqual([8]);
    await t.http.get(`/v1/holdings/${theirHolding}/income`).set("authorization", key).expect(404);
  });

  it("GraphQL shows origin and estimates", async () => {
    const { holdingId } = await trade(key, portfolioId, "Buy", "2024-06-20", 100);
    await refresh();
    const res = await t.gql(
      key,
      `{ holding(id: ${holdingId}) { income { exDividendDate origin estimated isConfirmed } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.holding.income[0]).toEqual({
      exDividendDate: "2024-07-01",
      origin: "Provider",
      estimated: ["paidDate", "frankedAmount", "frankingCredits"],
      isConfirmed: false,
    });
  });

  it("a US security's dividend is foreign income, converted at the FX rule's rate", async () => {
    market
      .answer("/v8/finance/chart/AAPL", {
        status: 200,
        body: chart("AAPL", "USD", [["2024-08-12", 217.53]], { dividends: [["2024-08-12", 0.25]] }),
      })
      .answer("/f11.1-data.csv", { status: 200, body: rbaFile([["2024-08-09", 0.6575, 0.6021]]) });
    const { holdingId } = await newTrade(t, key, {
      portfolioId,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2024-08-01",
      quantity: 40,
      price: 200,
      currencyCode: "USD",
      exchangeRate: 1.5,
    });
    await refresh();
    const [record] = await incomeOf(holdingId);
    // 0.25 × 40 = 10 USD of foreign income; no confirmed record: no withholding. The rate on
    // 2024-08-12 is the latest on or before it: AUD/USD 0.6575 (08-09) inverted, 1/0.6575.
    expect(record).toMatchObject({
      foreignIncome: 10,
      withholdingTax: 0,
      origin: "Provider",
      estimated: ["paidDate", "withholdingTax", "exchangeRate"],
    });
    expect(Number((record as unknown as { exchangeRate: number }).exchangeRate)).toBeCloseTo(1 / 0.6575, 8);
  });

  it("a foreign record made on the trade's rate takes the rate that arrives later, while unconfirmed", async () => {
    // No rates yet (the RBA file is empty): the FX rule falls back to the portfolio's last USD
    // trade dated on or before the ex-date, the buy at 1.5 AUD a USD.
    market
      .answer("/v8/finance/chart/AAPL", {
        status: 200,
        body: chart("AAPL", "USD", [["2024-08-12", 217.53]], { dividends: [["2024-08-12", 0.25]] }),
      })
      .answer("/f11.1-data.csv", { status: 200, body: rbaFile([]) });
    const { holdingId } = await newTrade(t, key, {
      portfolioId,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2024-08-01",
      quantity: 40,
      price: 200,
      currencyCode: "USD",
      exchangeRate: 1.5,
    });
    await refresh();
    const [first] = await incomeOf(holdingId);
    expect(Number((first as unknown as { exchangeRate: number }).exchangeRate)).toBe(1.5);
    // The account imports its own rate for the ex-date: AUD/USD 0.64, so 1/0.64 = 1.5625 AUD a USD.
    await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "AUD", quote: "USD", date: "2024-08-12", rate: 0.64 }])
      .expect(200);
    await refresh();
    const [second] = await incomeOf(holdingId);
    expect(second.id).toBe(first.id);
    expect(Number((second as unknown as { exchangeRate: number }).exchangeRate)).toBeCloseTo(1.5625, 10);
    // Confirmed, it keeps its rate whatever arrives after.
    await t.http.put(`/v1/income/${second.id}/confirm`).set("authorization", key).expect(200);
    await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "AUD", quote: "USD", date: "2024-08-12", rate: 0.5 }])
      .expect(200);
    await refresh();
    const [third] = await incomeOf(holdingId);
    expect(Number((third as unknown as { exchangeRate: number }).exchangeRate)).toBeCloseTo(1.5625, 10);
  });
});
