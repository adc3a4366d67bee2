import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { expectOk } from "../support/outcomes";
import { IDX, num, figures, benchmarkApi } from "./analytics-benchmark.transports";

/**
 * A security as the benchmark: the worked example replayed in its units (by hand), the opening value
 * invested the day before `from`, an outflow larger than it holds; both transports agree.
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

const { navexa, marketPrices, transports } = benchmarkApi(t, () => key);

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

    // The portfolio's side is docs/rules.md §11.5's worked example.
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
    // TWR, daily chain with inflows at the start of their day (docs/rules.md §10): 2018-01-01 (0 + 2,000 in)
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

    // Monthly points (docs/reports.md §1): from (2018-01-01), then the 24 month ends 2018-01-31..2019-12-31,
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
