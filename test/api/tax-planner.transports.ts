import type { TestApp } from "../support/app";
import { canonicalAnswer, gqlOutcome, restCall, type Json, type Outcome } from "../support/outcomes";

/**
 * The tax planner's three reads over REST and GraphQL (tax-planner.test.ts,
 * tax-planner-what-if.test.ts): the plan, the what-if and the book's overview, each answer in
 * canonical form so both transports compare figure for figure.
 */
const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
const PLAN = `portfolioId financialYear asOf endOfYear entityType discountPercent marginalTaxRate realisedToDate { ${SUMMARY} }
  unrealised { gains losses }
  harvest { holdingId symbol exchange acquisitionTradeId acquisitionDate quantity costBase marketValue unrealisedLoss netCapitalGainReduction taxSaved washSaleRisk }
  waitForDiscount { holdingId symbol exchange acquisitionTradeId acquisitionDate quantity unrealisedGain discountEligibleFrom daysToWait gainIfSoldNow gainIfSoldWhenEligible taxSaved }
  projectedNetCapitalGain estimatedTax warnings { code holdingId message }`;
const WHAT_IF = `portfolioId financialYear asOf entityType discountPercent marginalTaxRate before { ${SUMMARY} } after { ${SUMMARY} }
  difference { netCapitalGain netCapitalLossesCarriedForward estimatedTax }
  sells { holdingId symbol exchange date quantity price method proceeds costBase capitalGain parcels { acquisitionTradeId acquisitionDate quantity costBase proceeds capitalGain isDiscountable } }`;
const OVERVIEW = `portfolioId name entityType realisedNetCapitalGain unrealisedLosses largestHarvestReduction`;

/** FY2026 read at 2026-05-15 at a 37 % marginal rate: the ledger's story (test/scenarios/tax-planner-ledger.ts). */
export const AS_OF = { financialYear: 2026, asOf: "2026-05-15", marginalTaxRate: "37" };

export interface PlannerTransport {
  name: string;
  planner(k: string, p: number, query: Json): Promise<Outcome<Json>>;
  whatIf(k: string, p: number, input: Json): Promise<Outcome<Json>>;
  overview(k: string, query: Json): Promise<Outcome<Json[]>>;
}

const canonical = (b: never) => canonicalAnswer(b) as Json;
const idsToText = (input: Json): Json => ({
  ...input,
  sells: (input.sells as Json[] | undefined)?.map((s) => ({
    ...s,
    holdingId: s.holdingId === undefined ? undefined : String(s.holdingId),
    parcels: (s.parcels as Json[] | undefined)?.map((p) => ({ ...p, tradeId: String(p.tradeId) })),
  })),
});

/** [REST, GraphQL] over the suite's app (called inside tests only). */
export function plannerTransports(t: TestApp): [PlannerTransport, PlannerTransport] {
  return [
    {
      name: "REST",
      planner: (k, p, query) =>
        restCall(t.http.get(`/v1/portfolios/${p}/tax-planner`).query(query).set("authorization", k), 200, canonical),
      whatIf: (k, p, input) =>
        restCall(
          t.http.post(`/v1/portfolios/${p}/tax-planner/what-if`).set("authorization", k).send(input),
          200,
          canonical,
        ),
      overview: (k, query) =>
        restCall(t.http.get(`/v1/tax-planner`).query(query).set("authorization", k), 200, (b: never) =>
          (b as Json[]).map((r) => canonicalAnswer(r) as Json),
        ),
    },
    {
      name: "GraphQL",
      planner: async (k, p, query) =>
        gqlOutcome(
          await t.gql(
            k,
            `query($p: ID!, $fy: Int, $asOf: Date, $rate: Decimal) { taxPlanner(portfolioId: $p, financialYear: $fy, asOf: $asOf, marginalTaxRate: $rate) { ${PLAN} } }`,
            { p: String(p), fy: query.financialYear, asOf: query.asOf, rate: query.marginalTaxRate },
          ),
          "taxPlanner",
          canonical,
        ),
      whatIf: async (k, p, input) =>
        gqlOutcome(
          await t.gql(
            k,
            `query($p: ID!, $input: TaxPlannerWhatIfInput!) { taxPlannerWhatIf(portfolioId: $p, input: $input) { ${WHAT_IF} } }`,
            { p: String(p), input: idsToText(input) },
          ),
          "taxPlannerWhatIf",
          canonical,
        ),
      overview: async (k, query) =>
        gqlOutcome(
          await t.gql(
            k,
            `query($fy: Int, $asOf: Date, $c: ID) { taxPlannerOverview(financialYear: $fy, asOf: $asOf, clientId: $c) { ${OVERVIEW} } }`,
            {
              fy: query.financialYear,
              asOf: query.asOf,
              c: query.clientId === undefined ? undefined : String(query.clientId),
            },
          ),
          "taxPlannerOverview",
          (b: never) => (b as Json[]).map((r) => canonicalAnswer(r) as Json),
        ),
    },
  ];
}
