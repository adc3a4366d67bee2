import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { capitalGainsReport } from "./capital-gains.service";
import { myTaxReport } from "./mytax.service";
import { simulateSell } from "./simulate-sell.service";
import { taxableIncomeReport } from "./taxable-income.service";
import { unrealisedCapitalGainsReport } from "./unrealised.service";

export const taxResolvers: Resolvers = {
  Query: {
    capitalGainsReport: (_parent, a, ctx) =>
      capitalGainsReport(ctx, a.portfolioId, dropNulls({ financialYear: a.financialYear })),
    unrealisedCapitalGainsReport: (_parent, a, ctx) =>
      unrealisedCapitalGainsReport(
        ctx,
        a.portfolioId,
        dropNulls({ date: a.date, includeCarriedForward: a.includeCarriedForward }),
      ),
    taxableIncomeReport: (_parent, a, ctx) =>
      taxableIncomeReport(ctx, a.portfolioId, dropNulls({ financialYear: a.financialYear })),
    myTaxReport: (_parent, a, ctx) => myTaxReport(ctx, a.portfolioId, dropNulls({ financialYear: a.financialYear })),
    simulateSell: (_parent, a, ctx) => simulateSell(ctx, a.portfolioId, dropNulls(a.input)),
  },
};
