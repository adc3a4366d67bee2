import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { expectOk } from "../support/outcomes";
import { IDX, num, figures, expectSameFigures, benchmarkApi } from "./analytics-benchmark.transports";

/**
 * A USD security as the benchmark of an AUD portfolio: its units bought at price × the day's rate.
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

const { marketPrices, transports } = benchmarkApi(t, () => key);

/** Imported rates ("1 base buys rate quote") over REST (POST /v1/fx-rates/bulk). */
async function fxRates(k: string, rows: { base: string; quote: string; date: string; rate: number }[]) {
  const res = await t.http.post("/v1/fx-rates/bulk").set("authorization", k).send(rows);
  if (res.status !== 200) throw new Error(`setup fx rates failed: ${res.status} ${res.text}`);
}

describe.each(transports)("benchmark over $name", (tr) => {
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
