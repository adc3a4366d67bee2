import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { taxPlannerOverview } from "./tax-planner-overview.service";
import { taxPlannerWhatIf } from "./tax-planner-what-if.service";
import { taxPlanner } from "./tax-planner.service";

export const taxPlannerResolvers: Resolvers = {
  Query: {
    taxPlanner: (_parent, a, ctx) =>
      taxPlanner(
        ctx,
        a.portfolioId,
        dropNulls({ financialYear: a.financialYear, asOf: a.asOf, marginalTaxRate: a.marginalTaxRate }),
      ),
    taxPlannerWhatIf: (_parent, a, ctx) =>
      taxPlannerWhatIf(ctx, a.portfolioId, {
        ...dropNulls(a.input),
        sells: a.input.sells.map((s) => dropNulls(s)),
      }),
    taxPlannerOverview: (_parent, a, ctx) =>
      taxPlannerOverview(ctx, dropNulls({ financialYear: a.financialYear, asOf: a.asOf, clientId: a.clientId })),
  },
};
