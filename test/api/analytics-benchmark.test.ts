import { startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../support/kit";
import {
  canonicalAnswer,
  expectError,
  expectInvalid,
  expectInvalidOrBadUserInput,
  expectOk,
  gqlOutcome,
  restCall,
  type Json,
  type Outcome,
} from "../support/outcomes";

/**
 * GET /v1/portfolios/{p}/benchmark and GraphQL `benchmark` (REPORTS.md §3, DOMAIN.md §3): the
 * portfolio against a security with imported prices (its opening value and external flows
 * replayed as buys and sells of the security, fractional units, no costs) or against another
 * portfolio of the account (that portfolio's own returns over the same dates).
 *
 * The portfolio is mostly DOMAIN §3's worked example: buy 1,000 XYZ @ 2.00 on 2018-01-01, buy
 * 1,000 @ 2.20 on 2018-12-31, sell 2,000 @ 2.30 on 2019-12-31; no cash account, so the trades are
 * its flows (+2,000, +2,200, −4,600). Its own figures over 2018-01-01..2019-12-31 are DOMAIN §3's:
 * TWR 9.523809524 % (annualised 4.653623694 %), Modified Dietz 12.890693978 % (annualised
 * 6.445346989 %), XIRR 6.328548494 %, total return 400.
 *
 * The benchmark IDX.ASX (AUD, the exchange's currency) has imported closes 10 on 2017-12-31 and
 * 2018-01-01, 11 on 2018-12-31 and 12.1 on 2019-12-31 (between them the latest earlier close).
 */
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

async function navexa(k = key, name = "SMSF") {
  const portfolioId = await newPortfolio(t, k, { name });
  await newTrade(t, k, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2018-01-01",
    quantity: 1000,
    price: 2,
  });
  await newTrade(t, k, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2018-12-31",
    quantity: 1000,
    price: 2.2,
  });
  await newTrade(t, k, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: "2019-12-31",
    quantity: 2000,
    price: 2.3,
  });
  return portfolioId;
}

/** Imported closes over REST (POST /v1/market-prices/bulk, as test/api/prices-market-fx.test.ts). */
async function marketPrices(k: string, symbol: string, exchange: string, closes: [string, number][]) {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", k)
    .send(closes.map(([date, close]) => ({ symbol, exchange, date, close })));
  if (res.status !== 200) throw new Error(`setup market prices failed: ${res.status} ${res.text}`);
}

/** Imported rates ("1 base buys rate quote") over REST (POST /v1/fx-rates/bulk). */
async function fxRates(k: string, rows: { base: string; quote: string; date: string; rate: number }[]) {
  const res = await t.http.post("/v1/fx-rates/bulk").set("authorization", k).send(rows);
  if (res.status !== 200) throw new Error(`setup fx rates failed: ${res.status} ${res.text}`);
}

const IDX: [string, number][] = [
  ["2017-12-31", 10],
  ["2018-01-01", 10],
  ["2018-12-31", 11],
  ["2019-12-31", 12.1],
];

type Scope = Json & {
  timeWeightedReturn: Json;
  moneyWeightedReturn: Json;
  modifiedDietz: Json;
  totalReturnValue: string;
};
type Report = Json & {
  benchmark: Json;
  portfolio: Scope;
  benchmarkResult: Scope;
  excessReturn: Json;
  series: { date: string; portfolioCumulativePercent: string; benchmarkCumulativePercent: string }[];
};

const SCOPE =
  "{ timeWeightedReturn { cumulativePercent annualisedPercent } moneyWeightedReturn { annualisedPercent } modifiedDietz { cumulativePercent annualisedPercent } totalReturnValue }";
const REPORT = `{ portfolioId from to benchmark { type symbol exchange portfolioId name } portfolio ${SCOPE} benchmarkResult ${SCOPE}
  excessReturn { timeWeightedPercent moneyWeightedPercent } series { date portfolioCumulativePercent benchmarkCumulativePercent } }`;

/** Both transports' answers in one canonical form; the subject's absent fields (REST) and nulls (GraphQL) alike dropped. */
const canonical = (b: unknown) => {
  const r = canonicalAnswer(b) as Report;
  r.benchmark = Object.fromEntries(Object.entries(r.benchmark).filter(([, v]) => v !== null && v !== undefined));
  return r;
};

const transports: { name: string; benchmark(k: string, p: number, query: Json): Promise<Outcome<Report>> }[] = [
  {
    name: "REST",
    benchmark: (k, p, query) =>
      restCall(t.http.get(`/v1/portfolios/${p}/benchmark`).query(query).set("authorization", k), 200, canonical),
  },
  {
    name: "GraphQL",
    benchmark: async (k, p, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $s: String, $e: String, $b: ID, $from: Date, $to: Date, $i: TimeseriesInterval) { benchmark(portfolioId: $p, symbol: $s, exchange: $e, benchmarkPortfolioId: $b, from: $from, to: $to, interval: $i) ${REPORT} }`,
          {
            p: String(p),
            s: query.symbol,
            e: query.exchange,
            b: query.benchmarkPortfolioId === undefined ? undefined : String(query.benchmarkPortfolioId),
            from: query.from,
            to: query.to,
            i: query.interval,
          },
        ),
        "benchmark",
        canonical,
      ),
  },
];

const num = (v: unknown) => Number(v);
/** Every figure of a scope, as numbers (null stays null), to compare two scopes to 1e-9. */
const figures = (s: Scope) => [
  s.timeWeightedReturn.cumulativePercent,
  s.timeWeightedReturn.annualisedPercent,
  s.moneyWeightedReturn.annualisedPercent,
  s.modifiedDietz.cumulativePercent,
  s.modifiedDietz.annualisedPercent,
  s.totalReturnValue,
];
function expectSameFigures(actual: Scope, expected: Scope) {
  const a = figures(actual);
  const e = figures(expected);
  for (let i = 0; i < e.length; i++) {
    if (e[i] === null) expect(a[i]).toBeNull();
    else expect(num(a[i])).toBeCloseTo(num(e[i]), 9);
  }
}
/** The 422 the rule names: BUSINESS_RULE on the field symbol. */
function expectNoBenchmarkPrice(o: Outcome<unknown>) {
  expectError(o, "BUSINESS_RULE");
  if (!o.ok) expect(o.errors?.map((e) => e.path)).toContain("symbol");
}

describe.each(transports)("benchmark over $name", (tr) => {
  it("a security replaying the worked example: units, EMV, TWR, Modified Dietz, XIRR, excess and monthly series by hand", async () => {
    const p = await navexa();
    await marketPrices(key, "IDX", "ASX", IDX);
    const r = expectOk(
      await tr.benchmark(key, p, {
        symbol: "IDX",
        exchange: "ASX",
        from: "2018-01-01",
        to: "2019-12-31",
        interval: "month",
      }),
    );
    expect(r).toMatchObject({
      portfolioId: p,
      from: "2018-01-01",
      to: "2019-12-31",
      benchmark: { type: "Security", symbol: "IDX", exchange: "ASX", name: expect.any(String) },
    });

    // The portfolio's side is DOMAIN §3's worked example.
    expect(r.portfolio.totalReturnValue).toBe("400");
    expect(num(r.portfolio.timeWeightedReturn.cumulativePercent)).toBeCloseTo(9.523809524, 8);
    expect(num(r.portfolio.timeWeightedReturn.annualisedPercent)).toBeCloseTo(4.653623694, 8);
    expect(num(r.portfolio.moneyWeightedReturn.annualisedPercent)).toBeCloseTo(6.328548494, 8);
    expect(num(r.portfolio.modifiedDietz.cumulativePercent)).toBeCloseTo(12.890693978, 8);
    expect(num(r.portfolio.modifiedDietz.annualisedPercent)).toBeCloseTo(6.445346989, 8);

    // The replay: BMV 0 (nothing held on 2017-12-31), so no opening units.
    //   2018-01-01 +2,000 at 10 → 200 units; 2018-12-31 +2,200 at 11 → 200 more, 400;
    //   2019-12-31 −4,600 at 12.1 → −380.1652892562 units, 19.8347107438 left.
    //   EMV = 19.8347107438 × 12.1 = 400 × 12.1 − 4,600 = 240 (exact).
    //   totalReturnValue = 240 − 0 − (2,000 + 2,200 − 4,600) = 640
    //   (= 200 units × (12.1 − 10) + 200 units × (12.1 − 11) = 420 + 220).
    expect(r.benchmarkResult.totalReturnValue).toBe("640");
    // TWR, daily chain with inflows at the start of their day (DOMAIN §3): 2018-01-01 (0 + 2,000 in)
    //   closes at 2,000: r = 0. 2018-12-31: the 2,200 comes in at the start of the day, before the
    //   close moves from 10 to 11: (400 × 11) / (2,000 + 2,200) = 4,400 / 4,200. 2019-12-31: the
    //   4,600 leaves at the end of the day: (240 + 4,600) / 4,400 = 1.1.
    //   Cumulative 4,400/4,200 × 1.1 − 1 = 4,840/4,200 − 1 = 15.238095238 %
    //   (not the security's 21 %: the second 2,200 earns the 10 → 11 day as if invested at 10).
    //   Annualised over 730 days: (4,840/4,200)^(365/730) − 1 = 7.349008024 %.
    expect(num(r.benchmarkResult.timeWeightedReturn.cumulativePercent)).toBeCloseTo(15.238095238, 8);
    expect(num(r.benchmarkResult.timeWeightedReturn.annualisedPercent)).toBeCloseTo(7.349008024, 8);
    // Modified Dietz: the portfolio's flows, so its denominator 2,000 + 2,200 × 366/730 = 3,103.0137
    //   (= 2,265,200 / 730); 640 / 3,103.0137 = 467,200 / 2,265,200 = 20.625110366 %, annualised
    //   × 365/730 = 10.312555183 %.
    expect(num(r.benchmarkResult.modifiedDietz.cumulativePercent)).toBeCloseTo(20.625110366, 8);
    expect(num(r.benchmarkResult.modifiedDietz.annualisedPercent)).toBeCloseTo(10.312555183, 8);
    // XIRR of −2,000 (2018-01-01), −2,200 (2018-12-31), +4,600 + 240 (2019-12-31):
    //   2,000 x^(729/365) + 2,200 x = 4,840. Were the first exponent 2, x = 1.1 exactly
    //   (2,000 × 1.21 + 2,200 × 1.1 = 4,840); with 729/365 the root is x = 1.100095834, 10.009583429 %.
    expect(num(r.benchmarkResult.moneyWeightedReturn.annualisedPercent)).toBeCloseTo(10.009583429, 7);
    // Excess: TWR 9.523809524 − 15.238095238 = (4,600 − 4,840) / 4,200 = −5.714285714 points;
    //   XIRR 6.328548494 − 10.009583429 = −3.681034935 points.
    expect(num(r.excessReturn.timeWeightedPercent)).toBeCloseTo(-5.714285714, 8);
    expect(num(r.excessReturn.moneyWeightedPercent)).toBeCloseTo(-3.681034935, 7);

    // Monthly points (REPORTS §1): from (2018-01-01), then the 24 month ends 2018-01-31..2019-12-31,
    // the last also `to`. Both chains are 0 until 2018-12-31; then the portfolio is
    // (2,000 × 2.2 + 1,000 × 2.2) / 4,200 − 1 = 4.761904762 % and the benchmark 4,400/4,200 − 1,
    // the same; on 2019-12-31 9.523809524 % and 15.238095238 %.
    expect(r.series).toHaveLength(25);
    expect(r.series[0].date).toBe("2018-01-01");
    expect(r.series[1].date).toBe("2018-01-31");
    expect(r.series[2].date).toBe("2018-02-28");
    expect(r.series.at(-1)!.date).toBe("2019-12-31");
    for (const point of r.series) {
      const [portfolio, benchmark] =
        point.date < "2018-12-31"
          ? [0, 0]
          : point.date < "2019-12-31"
            ? [(4400 / 4200 - 1) * 100, (4400 / 4200 - 1) * 100]
            : [9.523809524, 15.238095238];
      expect([point.date, num(point.portfolioCumulativePercent)]).toEqual([point.date, expect.closeTo(portfolio, 8)]);
      expect([point.date, num(point.benchmarkCumulativePercent)]).toEqual([point.date, expect.closeTo(benchmark, 8)]);
    }
  });

  it("invests the opening value at the close of the day before from", async () => {
    const p = await navexa();
    await marketPrices(key, "IDX", "ASX", IDX);
    // 2019 only (365 days): BMV at the close of 2018-12-31 = 2,000 × 2.2 = 4,400 → 4,400 / 11 = 400
    //   units; the 2019-12-31 sale of 4,600 sells 4,600 / 12.1; EMV = 400 × 12.1 − 4,600 = 240.
    //   totalReturnValue 240 − 4,400 + 4,600 = 440.
    //   TWR: (240 + 4,600) / 4,400 = 10 %, annualised over 365 days: 10 %.
    //   Modified Dietz: 440 / (4,400 + (−4,600) × 0/365) = 10 %; annualised × 365/365 = 10 %.
    //   XIRR: −4,400 on 2018-12-31, +4,840 on 2019-12-31 (365 days): 10 %.
    // The portfolio: 4,600/4,400 − 1 = 4.545454545 % by all three; total return 200.
    const r = expectOk(
      await tr.benchmark(key, p, { symbol: "IDX", exchange: "ASX", from: "2019-01-01", to: "2019-12-31" }),
    );
    expect(r.benchmarkResult.totalReturnValue).toBe("440");
    expect(r.portfolio.totalReturnValue).toBe("200");
    for (const [side, expected] of [
      [r.benchmarkResult, 10],
      [r.portfolio, (4600 / 4400 - 1) * 100],
    ] as const) {
      expect(num(side.timeWeightedReturn.cumulativePercent)).toBeCloseTo(expected, 8);
      expect(num(side.timeWeightedReturn.annualisedPercent)).toBeCloseTo(expected, 8);
      expect(num(side.modifiedDietz.cumulativePercent)).toBeCloseTo(expected, 8);
      expect(num(side.modifiedDietz.annualisedPercent)).toBeCloseTo(expected, 8);
      expect(num(side.moneyWeightedReturn.annualisedPercent)).toBeCloseTo(expected, 7);
    }
    expect(num(r.excessReturn.timeWeightedPercent)).toBeCloseTo(4.545454545 - 10, 8);
    // 365 days: daily points by default, 2019-01-01..2019-12-31.
    expect(r.series).toHaveLength(365);
    expect(r.series[0]).toMatchObject({
      date: "2019-01-01",
      portfolioCumulativePercent: "0",
      benchmarkCumulativePercent: "0",
    });
    expect(r.series.at(-1)!.date).toBe("2019-12-31");
  });

  it("an outflow larger than the benchmark holds sells all of it and pays out no more (no short position)", async () => {
    // The portfolio buys 100 AAA @ 10 on 2024-01-02 (1,000 in) and sells them @ 20 on 2024-01-03
    // (2,000 out); FLAT stays at 1.00. The replay buys 1,000 units on 2024-01-02 and, asked for
    // 2,000 on 2024-01-03, sells all 1,000 for 1,000: its flows are +1,000 and −1,000, EMV 0.
    //   totalReturnValue 0 − 0 − (1,000 − 1,000) = 0; TWR 0 (the price never moved); and on
    //   2024-01-04 FLAT rises to 1.10 with nothing held: still 0 (short, it would have read +10 %).
    const portfolioId = await newPortfolio(t, key, { name: "Day trade" });
    await newTrade(t, key, {
      portfolioId,
      symbol: "AAA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-02",
      quantity: 100,
      price: 10,
    });
    await newTrade(t, key, {
      portfolioId,
      symbol: "AAA",
      exchange: "ASX",
      tradeType: "Sell",
      tradeDate: "2024-01-03",
      quantity: 100,
      price: 20,
    });
    await marketPrices(key, "FLAT", "ASX", [
      ["2024-01-01", 1],
      ["2024-01-04", 1.1],
    ]);
    const r = expectOk(
      await tr.benchmark(key, portfolioId, { symbol: "FLAT", exchange: "ASX", from: "2024-01-01", to: "2024-01-05" }),
    );
    expect(r.benchmarkResult.totalReturnValue).toBe("0");
    expect(num(r.benchmarkResult.timeWeightedReturn.cumulativePercent)).toBe(0);
    expect(r.series.map((x) => num(x.benchmarkCumulativePercent))).toEqual([0, 0, 0, 0, 0]);
    // The portfolio made 1,000: 2,000 / 1,000 − 1 = 100 % on 2024-01-03.
    expect(r.portfolio.totalReturnValue).toBe("1000");
    expect(num(r.portfolio.timeWeightedReturn.cumulativePercent)).toBeCloseTo(100, 9);
  });

  it("another portfolio of the account: its own figures over the same dates, as its performance report gives them", async () => {
    const p = await navexa();
    // The benchmark portfolio: 500 BBB @ 4 on 2017-06-30 (before from), sold @ 5 on 2019-06-30.
    //   BMV (2017-12-31) 2,000 at the last trade price; one flow −2,500 on 2019-06-30 (end of day).
    //   TWR: (0 + 2,500) / 2,000 = 25 %; annualised over 730 days √1.25 − 1 = 11.803398875 %.
    //   Modified Dietz: 0 − 2,000 + 2,500 = 500 over 2,000 − 2,500 × 184/730 (the sale weighs
    //   2019-07-01..12-31, 184 days) = 1,000,000/730: 36.5 %; annualised × 365/730 = 18.25 %.
    //   XIRR: −2,000 on 2017-12-31, +2,500 546 days later: 1.25^(365/546) − 1 = 16.087154553 %.
    const q = await newPortfolio(t, key, { name: "Index fund" });
    await newTrade(t, key, {
      portfolioId: q,
      symbol: "BBB",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2017-06-30",
      quantity: 500,
      price: 4,
    });
    await newTrade(t, key, {
      portfolioId: q,
      symbol: "BBB",
      exchange: "ASX",
      tradeType: "Sell",
      tradeDate: "2019-06-30",
      quantity: 500,
      price: 5,
    });
    const r = expectOk(
      await tr.benchmark(key, p, { benchmarkPortfolioId: q, from: "2018-01-01", to: "2019-12-31", interval: "month" }),
    );
    expect(r.benchmark).toEqual({ type: "Portfolio", portfolioId: q, name: "Index fund" });
    expect(r.benchmarkResult.totalReturnValue).toBe("500");
    expect(num(r.benchmarkResult.timeWeightedReturn.cumulativePercent)).toBeCloseTo(25, 8);
    expect(num(r.benchmarkResult.timeWeightedReturn.annualisedPercent)).toBeCloseTo(11.803398875, 8);
    expect(num(r.benchmarkResult.modifiedDietz.cumulativePercent)).toBeCloseTo(36.5, 8);
    expect(num(r.benchmarkResult.modifiedDietz.annualisedPercent)).toBeCloseTo(18.25, 8);
    expect(num(r.benchmarkResult.moneyWeightedReturn.annualisedPercent)).toBeCloseTo(16.087154553, 7);
    expect(num(r.excessReturn.timeWeightedPercent)).toBeCloseTo(9.523809524 - 25, 8);
    expect(num(r.excessReturn.moneyWeightedPercent)).toBeCloseTo(6.328548494 - 16.087154553, 7);
    // Series: the benchmark is 0 until the sale day's close, 25 % from 2019-06-30 on.
    for (const point of r.series)
      expect([point.date, num(point.benchmarkCumulativePercent)]).toEqual([
        point.date,
        expect.closeTo(point.date < "2019-06-30" ? 0 : 25, 8),
      ]);

    // Each side equals that portfolio's own performance report over the same dates.
    const own = async (id: number) => {
      const res = await t.http
        .get(`/v1/portfolios/${id}/performance`)
        .query({ from: "2018-01-01", to: "2019-12-31" })
        .set("authorization", key);
      expect(res.status).toBe(200);
      const b = canonicalAnswer(res.body) as Json & { totalReturn: Json };
      return {
        timeWeightedReturn: b.timeWeightedReturn,
        moneyWeightedReturn: b.moneyWeightedReturn,
        modifiedDietz: b.modifiedDietz,
        totalReturnValue: b.totalReturn.totalReturnValue,
      } as Scope;
    };
    expectSameFigures(r.benchmarkResult, await own(q));
    expectSameFigures(r.portfolio, await own(p));
    // Asked again once both series are cached over other spans, the same answer.
    expect(
      expectOk(
        await tr.benchmark(key, p, {
          benchmarkPortfolioId: q,
          from: "2018-01-01",
          to: "2019-12-31",
          interval: "month",
        }),
      ),
    ).toEqual(r);
  });

  it("422 on symbol when the benchmark has no price on or before the first day money is in it", async () => {
    const p = await navexa();
    // No prices at all.
    expectNoBenchmarkPrice(
      await tr.benchmark(key, p, { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
    );
    // The first close is after the first flow (2018-01-01).
    await marketPrices(key, "LATE", "ASX", [
      ["2018-06-30", 10],
      ["2019-12-31", 12],
    ]);
    expectNoBenchmarkPrice(
      await tr.benchmark(key, p, { symbol: "LATE", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
    );
    // Money is in it from the opening: BMV 4,400 on 2018-12-31 needs a close on or before that day.
    await marketPrices(key, "NEW", "ASX", [
      ["2019-01-01", 10],
      ["2019-12-31", 12],
    ]);
    expectNoBenchmarkPrice(
      await tr.benchmark(key, p, { symbol: "NEW", exchange: "ASX", from: "2019-01-01", to: "2019-12-31" }),
    );
    // Closes only after `to`: none for the period.
    expectNoBenchmarkPrice(
      await tr.benchmark(key, p, { symbol: "LATE", exchange: "ASX", from: "2018-01-01", to: "2018-03-31" }),
    );
    // Before the first flow an empty replay needs no price: prices from 2017-12-31 serve a period
    // from 2017-12-01, the figures those of the replay (640 of return).
    await marketPrices(key, "IDX", "ASX", IDX);
    expect(
      expectOk(await tr.benchmark(key, p, { symbol: "IDX", exchange: "ASX", from: "2017-12-01", to: "2019-12-31" }))
        .benchmarkResult.totalReturnValue,
    ).toBe("640");
  });

  it("refuses (400 naming the field) both benchmarks, neither, half a security, malformed dates, from after to, an unknown interval", async () => {
    const p = await navexa();
    const q = await newPortfolio(t, key, { name: "Other" });
    await marketPrices(key, "IDX", "ASX", IDX);
    const ok = { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" };
    expectInvalid(await tr.benchmark(key, p, { ...ok, benchmarkPortfolioId: q }), "benchmarkPortfolioId");
    expectInvalid(await tr.benchmark(key, p, { from: "2018-01-01", to: "2019-12-31" }), "symbol");
    expectInvalid(await tr.benchmark(key, p, { ...ok, exchange: undefined }), "exchange");
    expectInvalid(await tr.benchmark(key, p, { ...ok, symbol: undefined }), "symbol");
    expectInvalid(await tr.benchmark(key, p, { ...ok, from: "2019-01-02", to: "2019-01-01" }), "from");
    expectInvalidOrBadUserInput(await tr.benchmark(key, p, { ...ok, interval: "year" }), "interval");
    if (tr.name === "REST") {
      expectInvalid(await tr.benchmark(key, p, { ...ok, from: "2019-02-30" }), "from");
      expectInvalid(await tr.benchmark(key, p, { ...ok, to: "31/12/2019" }), "to");
      expectInvalid(await tr.benchmark(key, p, { benchmarkPortfolioId: "abc" }), "benchmarkPortfolioId");
    }
    // The valid request still answers.
    expectOk(await tr.benchmark(key, p, ok));
  });

  it("names the security as the market prices do: codes upper-cased, a malformed symbol 400", async () => {
    const p = await navexa();
    // POST /v1/market-prices/bulk upper-cases symbol and exchange, and GET /v1/market-prices finds
    // them by lower-case codes too (test/api/prices-market-fx.test.ts): so does the benchmark.
    await marketPrices(key, "idx", "asx", IDX);
    const upper = expectOk(
      await tr.benchmark(key, p, { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
    );
    // Symbol and exchange are read as every other input naming a security reads them (the
    // securities module's schemas upper-case them): "idx"/"asx" is IDX.ASX.
    const lower = expectOk(
      await tr.benchmark(key, p, { symbol: "idx", exchange: "asx", from: "2018-01-01", to: "2019-12-31" }),
    );
    expect(lower).toEqual(upper);
    expect(lower.benchmark).toMatchObject({ symbol: "IDX", exchange: "ASX" });
    expectInvalid(await tr.benchmark(key, p, { symbol: "I D X", exchange: "ASX" }), "symbol");
  });

  it("tenancy: another account's benchmark portfolio, or another account's key on the portfolio: 404", async () => {
    const p = await navexa();
    await marketPrices(key, "IDX", "ASX", IDX);
    const intruder = await t.newAccount("intruder");
    const theirs = await navexa(intruder, "Theirs");
    await marketPrices(intruder, "IDX", "ASX", IDX);
    expectError(
      await tr.benchmark(key, p, { benchmarkPortfolioId: theirs, from: "2018-01-01", to: "2019-12-31" }),
      "NOT_FOUND",
    );
    expectError(
      await tr.benchmark(key, p, { benchmarkPortfolioId: 999999, from: "2018-01-01", to: "2019-12-31" }),
      "NOT_FOUND",
    );
    expectError(
      await tr.benchmark(intruder, p, { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
      "NOT_FOUND",
    );
    expectError(
      await tr.benchmark(intruder, p, { benchmarkPortfolioId: theirs, from: "2018-01-01", to: "2019-12-31" }),
      "NOT_FOUND",
    );
    // A client key sees only its client's portfolios, as benchmark too.
    const unassigned = await newPortfolio(t, key, { name: "Not the client's" });
    const reader = await t.newClientKey(key, "Read", [p]);
    expectError(
      await tr.benchmark(reader, p, { benchmarkPortfolioId: unassigned, from: "2018-01-01", to: "2019-12-31" }),
      "NOT_FOUND",
    );
    // Another account's prices are not the benchmark's: only the intruder has ONLY.
    await marketPrices(intruder, "ONLY", "ASX", IDX);
    expectNoBenchmarkPrice(
      await tr.benchmark(key, p, { symbol: "ONLY", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
    );
  });

  it("a Read client key reads it, against a security and against another of its portfolios", async () => {
    const p = await navexa();
    const q = await navexa(key, "Twin");
    await marketPrices(key, "IDX", "ASX", IDX);
    const reader = await t.newClientKey(key, "Read", [p, q]);
    const r = expectOk(
      await tr.benchmark(reader, p, { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31" }),
    );
    expect([r.portfolio.totalReturnValue, r.benchmarkResult.totalReturnValue]).toEqual(["400", "640"]);
    // A twin of the portfolio: no excess at all.
    const twin = expectOk(
      await tr.benchmark(reader, p, { benchmarkPortfolioId: q, from: "2018-01-01", to: "2019-12-31" }),
    );
    expectSameFigures(twin.benchmarkResult, twin.portfolio);
    expect(num(twin.excessReturn.timeWeightedPercent)).toBeCloseTo(0, 12);
    expect(num(twin.excessReturn.moneyWeightedPercent)).toBeCloseTo(0, 12);
  });

  it("a USD benchmark of an AUD portfolio buys its units at price × the day's rate", async () => {
    // The portfolio: XYZ.ASX at 2 throughout: +2,000 on 2024-01-02, +1,000 on 2024-04-01; every
    // return 0. QQQ.NASDAQ is in USD (NASDAQ's currency): closes 400 (2024-01-01), 500 (2024-04-01),
    // 500 (2024-06-30); USD→AUD 1.25 (2024-01-01), 1.6 (2024-04-01), 1.5 (2024-06-30).
    //   2024-01-02: 2,000 / (400 × 1.25 = 500) = 4 units; 2024-04-01: 1,000 / (500 × 1.6 = 800) =
    //   1.25 units, 5.25 in all. EMV 5.25 × 500 × 1.5 = 3,937.5; return 3,937.5 − 3,000 = 937.5.
    //   (Bought at the price alone, the units would be 5 + 2 = 7.)
    //   TWR: 2024-04-01 (2,000 + 1,000 in at the start) closes at 5.25 × 800 = 4,200: × 1.4;
    //   2024-06-30: 3,937.5 / 4,200 = 0.9375; 1.4 × 0.9375 − 1 = 31.25 %. 181 days: no annualised.
    //   Modified Dietz over T = 181 days: 937.5 / (2,000 + 1,000 × 91/181) = 37.458609272 %.
    //   XIRR: −2,000 (2024-01-02), −1,000 (+90 days), +3,937.5 (+180 days): 92.473581431 %.
    const p = await newPortfolio(t, key, { name: "AUD" });
    await newTrade(t, key, {
      portfolioId: p,
      symbol: "XYZ",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-02",
      quantity: 1000,
      price: 2,
    });
    await newTrade(t, key, {
      portfolioId: p,
      symbol: "XYZ",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-04-01",
      quantity: 500,
      price: 2,
    });
    const closes: [string, number][] = [
      ["2024-01-01", 400],
      ["2024-04-01", 500],
      ["2024-06-30", 500],
    ];
    await marketPrices(key, "QQQ", "NASDAQ", closes);
    await fxRates(key, [
      { base: "USD", quote: "AUD", date: "2024-01-01", rate: 1.25 },
      { base: "USD", quote: "AUD", date: "2024-04-01", rate: 1.6 },
      { base: "USD", quote: "AUD", date: "2024-06-30", rate: 1.5 },
    ]);
    const query = { from: "2024-01-02", to: "2024-06-30" };
    const r = expectOk(await tr.benchmark(key, p, { symbol: "QQQ", exchange: "NASDAQ", ...query }));
    expect(r.portfolio.totalReturnValue).toBe("0");
    expect(num(r.portfolio.timeWeightedReturn.cumulativePercent)).toBeCloseTo(0, 9);
    expect(r.benchmarkResult.totalReturnValue).toBe("937.5");
    expect(num(r.benchmarkResult.timeWeightedReturn.cumulativePercent)).toBeCloseTo(31.25, 8);
    expect(r.benchmarkResult.timeWeightedReturn.annualisedPercent).toBeNull();
    expect(num(r.benchmarkResult.modifiedDietz.cumulativePercent)).toBeCloseTo(37.458609272, 8);
    expect(r.benchmarkResult.modifiedDietz.annualisedPercent).toBeNull();
    expect(num(r.benchmarkResult.moneyWeightedReturn.annualisedPercent)).toBeCloseTo(92.473581431, 6);
    expect(num(r.excessReturn.timeWeightedPercent)).toBeCloseTo(-31.25, 8);
    // Daily points (181 days): 0 to 2024-03-31, 40 % on 2024-04-01 until 2024-06-29, 31.25 % on 2024-06-30.
    expect(r.series).toHaveLength(181);
    const at = (date: string) => num(r.series.find((s) => s.date === date)!.benchmarkCumulativePercent);
    expect([at("2024-03-31"), at("2024-04-01"), at("2024-06-29"), at("2024-06-30")]).toEqual([
      expect.closeTo(0, 9),
      expect.closeTo(40, 8),
      expect.closeTo(40, 8),
      expect.closeTo(31.25, 8),
    ]);

    // The currency from a holding of the symbol: GLB.ASX held in USD in another portfolio of the
    // account is a USD security though ASX trades in AUD, so the same closes give the same figures.
    const other = await newPortfolio(t, key, { name: "Holds GLB" });
    await newTrade(t, key, {
      portfolioId: other,
      symbol: "GLB",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-02",
      quantity: 1,
      price: 400,
      currencyCode: "USD",
      exchangeRate: 1.25,
    });
    await marketPrices(key, "GLB", "ASX", closes);
    const held = expectOk(await tr.benchmark(key, p, { symbol: "GLB", exchange: "ASX", ...query }));
    expectSameFigures(held.benchmarkResult, r.benchmarkResult);
  });
});

test("REST and GraphQL answer the same report", async () => {
  const p = await navexa();
  await marketPrices(key, "IDX", "ASX", IDX);
  const query = { symbol: "IDX", exchange: "ASX", from: "2018-01-01", to: "2019-12-31", interval: "week" };
  const [rest, graphql] = [
    expectOk(await transports[0].benchmark(key, p, query)),
    expectOk(await transports[1].benchmark(key, p, query)),
  ];
  expect(graphql).toEqual(rest);
  // Weekly points: from, the 104 Sundays 2018-01-07..2019-12-29, and to.
  expect(rest.series).toHaveLength(106);
});
