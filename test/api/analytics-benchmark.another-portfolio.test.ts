import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { canonicalAnswer, expectOk, type Json } from "../support/outcomes";
import { IDX, type Scope, num, figures, expectSameFigures, benchmarkApi } from "./analytics-benchmark.transports";

/**
 * Another portfolio of the account as the benchmark: its own figures over the same dates.
 *
 * GET /v1/portfolios/{p}/benchmark and GraphQL `benchmark` (docs/reports.md §3, docs/rules.md §11): the
 * portfolio against a security with imported prices (its opening value and external flows
 * replayed as buys and sells of the security, fractional units, no costs) or against another
 * portfolio of the account (that portfolio's own returns over the same dates).
 *
 * The portfolio is mostly docs/rules.md §11.5's worked example: buy 1,000 XYZ @ 2.00 on 2018-01-01, buy
 * 1,000 @ 2.20 on 2018-12-31, sell 2,000 @ 2.30 on 2019-12-31; no cash account, so the trades are
 * its flows (+2,000, +2,200, −4,600). Its own figures over 2018-01-01..2019-12-31 are docs/rules.md §11.5's:
 * TWR 9.523809524 % (annualised 4.653623694 %), Modified Dietz 12.890693978 % (annualised
 * 6.445346989 %), XIRR 6.328548494 %, total return 400.
 *
 * The benchmark IDX.ASX (AUD, the exchange's currency) has imported closes 10 on 2017-12-31 and
 * 2018-01-01, 11 on 2018-12-31 and 12.1 on 2019-12-31 (between them the latest earlier close).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { navexa, transports } = benchmarkApi(t, () => key);

describe.each(transports)("benchmark over $name", (tr) => {
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
});
