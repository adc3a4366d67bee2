/**
 * The benchmark report (GET /v1/portfolios/{p}/benchmark, GraphQL `benchmark`) over REST and GraphQL
 * in one canonical form, the REST setup (imported closes and rates) and the figure checks the
 * analytics-benchmark.*.test.ts stories share. Importing it registers no hook: a suite hands its
 * app over, `benchmarkApi(t, () => key)`.
 */
import { navexaWorkedExample } from "../scenarios/navexa-worked-example";
import { canonicalAnswer, gqlOutcome, restCall, type Json, type Outcome } from "../support/outcomes";
import type { TestApp } from "../support/app";

export const IDX: [string, number][] = [
  ["2017-12-31", 10],
  ["2018-01-01", 10],
  ["2018-12-31", 11],
  ["2019-12-31", 12.1],
];

export type Scope = Json & {
  timeWeightedReturn: Json;
  moneyWeightedReturn: Json;
  modifiedDietz: Json;
  totalReturnValue: string;
};

export type Report = Json & {
  benchmark: Json;
  portfolio: Scope;
  benchmarkResult: Scope;
  excessReturn: Json;
  series: { date: string; portfolioCumulativePercent: string; benchmarkCumulativePercent: string }[];
};

export const SCOPE =
  "{ timeWeightedReturn { cumulativePercent annualisedPercent } moneyWeightedReturn { annualisedPercent } modifiedDietz { cumulativePercent annualisedPercent } totalReturnValue }";
export const REPORT = `{ portfolioId from to benchmark { type symbol exchange portfolioId name } portfolio ${SCOPE} benchmarkResult ${SCOPE}
  excessReturn { timeWeightedPercent moneyWeightedPercent } series { date portfolioCumulativePercent benchmarkCumulativePercent } }`;

/** Both transports' answers in one canonical form; the subject's absent fields (REST) and nulls (GraphQL) alike dropped. */
export const canonical = (b: unknown) => {
  const r = canonicalAnswer(b) as Report;
  r.benchmark = Object.fromEntries(Object.entries(r.benchmark).filter(([, v]) => v !== null && v !== undefined));
  return r;
};

export const num = (v: unknown) => Number(v);
/** Every figure of a scope, as numbers (null stays null), to compare two scopes to 1e-9. */
export const figures = (s: Scope) => [
  s.timeWeightedReturn.cumulativePercent,
  s.timeWeightedReturn.annualisedPercent,
  s.moneyWeightedReturn.annualisedPercent,
  s.modifiedDietz.cumulativePercent,
  s.modifiedDietz.annualisedPercent,
  s.totalReturnValue,
];
export function expectSameFigures(actual: Scope, expected: Scope) {
  const a = figures(actual);
  const e = figures(expected);
  for (let i = 0; i < e.length; i++) {
    if (e[i] === null) expect(a[i]).toBeNull();
    else expect(num(a[i])).toBeCloseTo(num(e[i]), 9);
  }
}

/** The transports and the setup over the suite's app (read inside tests only). */
export function benchmarkApi(t: TestApp, key: () => string) {
  const navexa = (k = key(), name = "SMSF") => navexaWorkedExample(t, k, name);

  /** Imported closes over REST (POST /v1/market-prices/bulk, as test/api/prices-market-fx.test.ts). */
  async function marketPrices(k: string, symbol: string, exchange: string, closes: [string, number][]) {
    const res = await t.http
      .post("/v1/market-prices/bulk")
      .set("authorization", k)
      .send(closes.map(([date, close]) => ({ symbol, exchange, date, close })));
    if (res.status !== 200) throw new Error(`setup market prices failed: ${res.status} ${res.text}`);
  }

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
  return { navexa, marketPrices, transports };
}
