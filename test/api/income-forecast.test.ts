import { useTestApp, ledgerFingerprint } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import {
  canonicalAnswer,
  expectError,
  expectInvalid,
  expectOk,
  gqlOutcome,
  restCall,
  type Json,
  type Outcome,
} from "../support/outcomes";

/**
 * The income forecast (docs/reports.md §6.2) over REST and GraphQL.
 *
 * From 2026-07-01 for 12 months (to 2027-06-30), AUD portfolio:
 *   XYZ (ASX) buy 1,000 @ 10 on 2025-06-02.
 *     A DRP dividend ex 2025-08-20 paid 2025-09-25: 500 franked, credits 214.2857, reinvested as 50
 *     units at 10 (1,050 units from 2025-09-25). Per unit entitled: 500 ÷ 1,000 = 0.5.
 *     A dividend ex 2026-02-18 paid 2026-03-20: 420 franked, credits 180 on 1,050 units: 0.4 and
 *     0.17142857 a unit → 420 and 179.9999985 → 180 on 1,050 units.
 *     The provider announces 0.60 a unit ex 2026-08-24: 4 days from the August repeat (2026-08-20),
 *     which it replaces, paid 36 days on as its twin (2026-09-29): cash 0.6 × 1,050 = 630; franking
 *     per unit 0.6 × 214.2857 ÷ 500 = 0.25714284 → × 1,050 = 269.999982 → 270.
 *   ABC (ASX) buy 200 @ 5 on 2025-01-10, a dividend of 40 ex 2025-09-01, sold out on 2026-05-01: nothing.
 *   AAPL (NASDAQ, USD) buy 300 @ 200 USD at 1.5 on 2025-06-02; a dividend ex 2025-11-07 paid
 *     2025-11-14 of 72 USD foreign income, 10.80 withheld: net 61.20 ÷ 300 = 0.204 a unit. USD/AUD
 *     1.52 on 2026-06-30 (from's rate): 0.204 × 300 × 1.52 = 93.024 AUD.
 * Totals: cash 630 + 93.024 + 420 = 1,143.024; franking 270 + 180 = 450; grossed up 1,593.024.
 * Market value at the close of 2026-06-30: XYZ 1,050 × 12 = 12,600; AAPL 300 × 210 × 1.52 = 95,760;
 * 108,360. Yield 1,143.024 ÷ 108,360 × 100.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const post = (k: string, path: string, body: unknown) =>
  t.http
    .post(path)
    .set("authorization", k)
    .send(body as object);

async function ledger(k = key) {
  const portfolioId = await newPortfolio(t, k, { name: "Income" });
  const buy = (
    symbol: string,
    exchange: string,
    tradeDate: string,
    quantity: number,
    price: number,
    extra: Json = {},
  ) => newTrade(t, k, { portfolioId, symbol, exchange, tradeType: "Buy", tradeDate, quantity, price, ...extra });
  const xyz = await buy("XYZ", "ASX", "2025-06-02", 1000, 10);
  const abc = await buy("ABC", "ASX", "2025-01-10", 200, 5);
  const aapl = await buy("AAPL", "NASDAQ", "2025-06-02", 300, 200, { currencyCode: "USD", exchangeRate: 1.5 });
  await newTrade(t, k, {
    portfolioId,
    holdingId: abc.holdingId,
    tradeType: "Sell",
    tradeDate: "2026-05-01",
    quantity: 200,
    price: 6,
  });
  const income = (body: Json) => postCreated(t, k, "/v1/income", body);
  await income({
    holdingId: xyz.holdingId,
    exDividendDate: "2025-08-20",
    paidDate: "2025-09-25",
    frankedAmount: 500,
    frankingCredits: 214.2857,
    isReinvested: true,
    drpQuantity: 50,
    drpPrice: 10,
  });
  await income({
    holdingId: xyz.holdingId,
    exDividendDate: "2026-02-18",
    paidDate: "2026-03-20",
    frankedAmount: 420,
    frankingCredits: 180,
    isConfirmed: true,
  });
  await income({ holdingId: abc.holdingId, exDividendDate: "2025-09-01", paidDate: "2025-09-20", unfrankedAmount: 40 });
  await income({
    holdingId: aapl.holdingId,
    exDividendDate: "2025-11-07",
    paidDate: "2025-11-14",
    currencyCode: "USD",
    exchangeRate: 1.45,
    foreignIncome: 72,
    withholdingTax: 10.8,
  });
  expect(
    (
      await post(k, "/v1/market-prices/bulk", [
        { symbol: "XYZ", exchange: "ASX", date: "2026-06-30", close: 12 },
        { symbol: "AAPL", exchange: "NASDAQ", date: "2026-06-30", close: 210 },
      ])
    ).status,
  ).toBe(200);
  expect(
    (await post(k, "/v1/fx-rates/bulk", [{ base: "USD", quote: "AUD", date: "2026-06-30", rate: 1.52 }])).status,
  ).toBe(200);
  // The provider's announcement, as a market-data refresh stores it (docs/data.md §3).
  await t.db.prisma.providerDividend.upsert({
    where: { symbol_exchange_exDate: { symbol: "XYZ", exchange: "ASX", exDate: new Date("2026-08-24") } },
    create: { symbol: "XYZ", exchange: "ASX", exDate: new Date("2026-08-24"), amount: "0.6", currencyCode: "AUD" },
    update: { amount: "0.6", currencyCode: "AUD" },
  });
  return { portfolioId, xyz: xyz.holdingId, aapl: aapl.holdingId };
}

const FIELDS = `portfolioId from to currency total { cash frankingCredits grossedUp } marketValue yieldPercent
  months { month cash frankingCredits }
  payments { holdingId symbol exchange incomeId exDividendDate paidDate currencyCode perUnit frankingPerUnit units exchangeRate cash frankingCredits basis }`;

const transports: { name: string; forecast(k: string, p: number, query: Json): Promise<Outcome<Json>> }[] = [
  {
    name: "REST",
    forecast: (k, p, query) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/income-forecast`).query(query).set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
  },
  {
    name: "GraphQL",
    forecast: async (k, p, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $from: Date, $months: Int) { incomeForecast(portfolioId: $p, from: $from, months: $months) { ${FIELDS} } }`,
          {
            p: String(p),
            from: query.from,
            months: query.months,
          },
        ),
        "incomeForecast",
        (b) => canonicalAnswer(b) as Json,
      ),
  },
];

const MONTHS = [
  "2026-07",
  "2026-08",
  "2026-09",
  "2026-10",
  "2026-11",
  "2026-12",
  "2027-01",
  "2027-02",
  "2027-03",
  "2027-04",
  "2027-05",
  "2027-06",
];

describe.each(transports)("over $name", (tr) => {
  it("the year from 1 July 2026: the announced dividend in place of its twin, the USD one at from's rate, zeros kept", async () => {
    const s = await ledger();
    const r = expectOk(await tr.forecast(key, s.portfolioId, { from: "2026-07-01" }));
    const { yieldPercent, ...rest } = r;
    expect(Number(yieldPercent)).toBeCloseTo((1143.024 / 108360) * 100, 9);
    expect(rest).toEqual({
      portfolioId: s.portfolioId,
      from: "2026-07-01",
      to: "2027-06-30",
      currency: "AUD",
      total: { cash: "1143.024", frankingCredits: "450", grossedUp: "1593.024" },
      marketValue: "108360",
      months: MONTHS.map((month) => ({
        month,
        cash: month === "2026-09" ? "630" : month === "2026-11" ? "93.024" : month === "2027-03" ? "420" : "0",
        frankingCredits: month === "2026-09" ? "270" : month === "2027-03" ? "180" : "0",
      })),
      payments: [
        expect.objectContaining({
          holdingId: s.xyz,
          symbol: "XYZ",
          exDividendDate: "2026-08-24",
          paidDate: "2026-09-29",
          perUnit: "0.6",
          frankingPerUnit: "0.25714284",
          units: "1050",
          cash: "630",
          frankingCredits: "270",
          basis: "Announced",
        }),
        expect.objectContaining({
          holdingId: s.aapl,
          symbol: "AAPL",
          exchange: "NASDAQ",
          exDividendDate: "2026-11-07",
          paidDate: "2026-11-14",
          currencyCode: "USD",
          perUnit: "0.204",
          units: "300",
          exchangeRate: "1.52",
          cash: "93.024",
          frankingCredits: "0",
          basis: "Trailing",
        }),
        expect.objectContaining({
          holdingId: s.xyz,
          exDividendDate: "2027-02-18",
          paidDate: "2027-03-20",
          perUnit: "0.4",
          frankingPerUnit: "0.17142857",
          units: "1050",
          cash: "420",
          frankingCredits: "180",
          basis: "Trailing",
        }),
      ],
    });
  });

  it("refuses bad input with 400 naming it, and writes nothing", async () => {
    const s = await ledger();
    const before = await ledgerFingerprint(t.db);
    expectInvalid(await tr.forecast(key, s.portfolioId, { months: 0 }), "months");
    expectInvalid(await tr.forecast(key, s.portfolioId, { months: 25 }), "months");
    expectInvalid(await tr.forecast(key, s.portfolioId, { from: "2026-02-30" }), "from");
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("another account's portfolio is not found; a Read client key gets the owner's answer", async () => {
    const s = await ledger();
    expectError(await tr.forecast(await t.newAccount("intruder"), s.portfolioId, { from: "2026-07-01" }), "NOT_FOUND");
    const reader = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect(expectOk(await tr.forecast(reader, s.portfolioId, { from: "2026-07-01" }))).toEqual(
      expectOk(await tr.forecast(key, s.portfolioId, { from: "2026-07-01" })),
    );
  });

  it("a portfolio without trades answers twelve zero months and no yield", async () => {
    const p = await newPortfolio(t, key, { name: "Empty" });
    const r = expectOk(await tr.forecast(key, p, { from: "2026-07-01", months: 12 }));
    expect(r).toMatchObject({
      total: { cash: "0", frankingCredits: "0", grossedUp: "0" },
      yieldPercent: null,
      payments: [],
    });
    expect((r.months as Json[]).map((m) => m.month)).toEqual(MONTHS);
  });
});

describe("REST specifics", () => {
  it("both transports agree, and the same request gives byte-identical JSON", async () => {
    const s = await ledger();
    const [rest, gql] = await Promise.all(
      transports.map((tr) => tr.forecast(key, s.portfolioId, { from: "2026-07-01", months: 6 })),
    );
    expect(expectOk(gql)).toEqual(expectOk(rest));
    const text = async () =>
      (await t.http.get(`/v1/portfolios/${s.portfolioId}/income-forecast?from=2026-07-01`).set("authorization", key))
        .text;
    expect(await text()).toBe(await text());
  });

  it("unknown and malformed parameters: 400 problem+json", async () => {
    const s = await ledger();
    for (const q of ["months=abc", "months=1.5", "colour=red", "from=2026-7-1"]) {
      const res = await t.http.get(`/v1/portfolios/${s.portfolioId}/income-forecast?${q}`).set("authorization", key);
      expect([q, res.status, res.headers["content-type"]]).toEqual([
        q,
        400,
        expect.stringMatching(/^application\/problem\+json/),
      ]);
    }
  });

  it("income in NZD without any NZD rate to AUD: 422 naming the currency", async () => {
    const portfolioId = await newPortfolio(t, key, { name: "No rate" });
    const h = await newTrade(t, key, {
      portfolioId,
      symbol: "XYZ",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2025-06-02",
      quantity: 10,
      price: 1,
    });
    await postCreated(t, key, "/v1/income", {
      holdingId: h.holdingId,
      exDividendDate: "2025-08-20",
      paidDate: "2025-09-25",
      currencyCode: "NZD",
      exchangeRate: 0.9,
      unfrankedAmount: 5,
    });
    const res = await t.http
      .get(`/v1/portfolios/${portfolioId}/income-forecast?from=2026-07-01`)
      .set("authorization", key);
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/NZD/);
  });
});
