import fs from "node:fs";
import path from "node:path";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { GraphQLScalarType } from "graphql";
import type { Resolvers } from "../../generated/graphql/resolvers";
import { PROJECT_ROOT } from "../lib/paths";
import { allocationModelResolvers } from "../modules/allocation-models/allocation-models.resolvers";
import { rebalancingResolvers } from "../modules/rebalancing/rebalancing.resolvers";
import { cashResolvers } from "../modules/cash/cash.resolvers";
import { clientResolvers } from "../modules/clients/clients.resolvers";
import { apiKeyResolvers } from "../modules/accounts/api-keys.resolvers";
import { customGroupResolvers } from "../modules/custom-groups/custom-groups.resolvers";
import { holdingResolvers } from "../modules/holdings/holdings.resolvers";
import { incomeResolvers } from "../modules/income/income.resolvers";
import { portfolioResolvers } from "../modules/portfolios/portfolios.resolvers";
import { priceResolvers } from "../modules/prices/prices.resolvers";
import { marketDataResolvers } from "../modules/market-data/market-data.resolvers";
import { corporateActionResolvers } from "../modules/market-data/corporate-actions.resolvers";
import { securityResolvers } from "../modules/securities/securities.resolvers";
import { sourceResolvers } from "../modules/sources/sources.resolvers";
import { taxSettingsResolvers } from "../modules/tax-settings/tax-settings.resolvers";
import { taxResolvers } from "../modules/tax/tax.resolvers";
import { taxPlannerResolvers } from "../modules/planning/tax-planner.resolvers";
import { incomeForecastResolvers } from "../modules/planning/income-forecast.resolvers";
import { analyticsResolvers } from "../modules/analytics/analytics.resolvers";
import { tradeResolvers } from "../modules/trades/trades.resolvers";
import { transactionResolvers } from "../modules/transactions/transactions.resolvers";
import { DateScalar, DateTimeScalar, DecimalScalar, IncomeComponentsScalar, TaxLabelsScalar } from "./scalars";

/**
 * A scalar's parsing and serialising without its own description. graphql-tools copies every
 * property of a scalar resolver onto the SDL's type, a description too, and schema.graphql is the
 * one source of what the server describes (test/api/sdl-served.test.ts compares the two).
 */
function withoutDescription(scalar: GraphQLScalarType): GraphQLScalarType {
  const behaviour = new GraphQLScalarType(scalar.toConfig());
  delete (behaviour as { description?: unknown }).description;
  return behaviour;
}

/** SDL-first: schema.graphql is the contract; each module contributes its resolvers. */
export function buildSchema() {
  const typeDefs = fs.readFileSync(path.join(PROJECT_ROOT, "schema.graphql"), "utf8");
  const resolvers: Resolvers[] = [
    {
      Decimal: withoutDescription(DecimalScalar),
      DateTime: withoutDescription(DateTimeScalar),
      Date: withoutDescription(DateScalar),
      IncomeComponents: withoutDescription(IncomeComponentsScalar),
      TaxLabels: withoutDescription(TaxLabelsScalar),
    },
    sourceResolvers,
    portfolioResolvers,
    holdingResolvers,
    tradeResolvers,
    incomeResolvers,
    cashResolvers,
    priceResolvers,
    marketDataResolvers,
    corporateActionResolvers,
    securityResolvers,
    transactionResolvers,
    clientResolvers,
    apiKeyResolvers,
    customGroupResolvers,
    taxSettingsResolvers,
    taxResolvers,
    taxPlannerResolvers,
    incomeForecastResolvers,
    analyticsResolvers,
    allocationModelResolvers,
    rebalancingResolvers,
  ];
  return makeExecutableSchema({
    typeDefs,
    resolvers: resolvers as never,
    resolverValidationOptions: { requireResolversToMatchSchema: "error" },
  });
}
