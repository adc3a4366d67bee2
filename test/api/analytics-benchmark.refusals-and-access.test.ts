import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectInvalidOrBadUserInput, expectOk, type Outcome } from "../support/outcomes";
import { IDX, num, figures, expectSameFigures, benchmarkApi } from "./analytics-benchmark.transports";

/**
 * What the benchmark refuses (no price in reach, bad or missing fields, malformed symbols) and who may
 * read it (tenancy, a Read client key).
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

/** The 422 the rule names: BUSINESS_RULE on the field symbol. */
function expectNoBenchmarkPrice(o: Outcome<unknown>) {
  expectError(o, "BUSINESS_RULE");
  if (!o.ok) expect(o.errors?.map((e) => e.path)).toContain("symbol");
}

describe.each(transports)("benchmark over $name", (tr) => {
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
});
