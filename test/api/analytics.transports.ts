import type { TestApp } from "../support/app";
import { canonicalAnswer, gqlOutcome, restCall, type Json, type Outcome } from "../support/outcomes";

/**
 * What the performance suites share: the report over REST and GraphQL in one canonical form, and
 * the identity every scenario asserts (docs/reports.md §2).
 */
export type Report = Json & {
  totalReturn: Json;
  holdings: (Json & { totalReturn: Json })[];
  groups?: (Json & { totalReturn: Json })[];
};

export const SUMMARY =
  "{ totalReturnValue totalReturnPercent capitalGainValue capitalGainPercent dividendReturnValue dividendReturnPercent currencyGainValue currencyGainPercent isAnnualized }";
export const REPORT = `{ portfolioId portfolioName baseCurrencyCode from to hasHoldings openingValue totalValue netFlows
  totalReturn ${SUMMARY}
  timeWeightedReturn { cumulativePercent annualisedPercent } moneyWeightedReturn { annualisedPercent } modifiedDietz { cumulativePercent annualisedPercent }
  holdings { id symbol name exchange currencyCode quantity currentPrice marketValue holdingWeight groupedByValue totalReturn ${SUMMARY} }
  groups { label marketValue weight totalReturn ${SUMMARY} } }`;

/** Both transports' answers in one canonical form (numbers as strings, ids as numbers), generatedDate aside. */
export const canonicalReport = (b: unknown): Report => {
  const { generatedDate: _g, ...rest } = canonicalAnswer(b) as Json;
  if (rest.groups === undefined || rest.groups === null) delete rest.groups;
  return rest as Report;
};

export interface PerformanceTransport {
  name: string;
  performance(k: string, p: number, query: Json): Promise<Outcome<Report>>;
}

/** GET /performance and GraphQL `performance` of the app `app()` returns (the suite's, once started). */
export function performanceTransports(app: () => TestApp): PerformanceTransport[] {
  return [
    {
      name: "REST",
      performance: (k, p, query) =>
        restCall(
          app().http.get(`/v1/portfolios/${p}/performance`).query(query).set("authorization", k),
          200,
          canonicalReport,
        ),
    },
    {
      name: "GraphQL",
      performance: async (k, p, query) =>
        gqlOutcome(
          await app().gql(
            k,
            `query($p: ID!, $from: Date, $to: Date, $g: String, $l: Boolean, $c: Boolean, $a: Boolean) { performance(portfolioId: $p, from: $from, to: $to, groupBy: $g, showLocalCurrency: $l, includeClosed: $c, annualise: $a) ${REPORT} }`,
            {
              p: String(p),
              from: query.from,
              to: query.to,
              g: query.groupBy,
              l: query.showLocalCurrency,
              c: query.includeClosed,
              a: query.annualise,
            },
          ),
          "performance",
          canonicalReport,
        ),
    },
  ];
}

const num = (v: unknown) => Number(v);

/** A summary's parts add up: capital + dividend + currency = total, in value and in percent. */
export function expectComponentsAddUp(s: Json) {
  expect(num(s.capitalGainValue) + num(s.dividendReturnValue) + num(s.currencyGainValue)).toBeCloseTo(
    num(s.totalReturnValue),
    8,
  );
  if (s.totalReturnPercent !== null)
    expect(num(s.capitalGainPercent) + num(s.dividendReturnPercent) + num(s.currencyGainPercent)).toBeCloseTo(
      num(s.totalReturnPercent),
      9,
    );
}

/**
 * totalReturnValue = EMV − BMV − net flows = capital + dividend + currency, to the cent
 * (docs/reports.md §2).
 */
export function expectIdentity(r: Report) {
  expect(num(r.totalReturn.totalReturnValue)).toBeCloseTo(num(r.totalValue) - num(r.openingValue) - num(r.netFlows), 8);
  expectComponentsAddUp(r.totalReturn);
}
