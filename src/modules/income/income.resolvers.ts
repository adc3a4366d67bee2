import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { confirmIncome, createIncome, deleteIncome, findIncome, updateIncome } from "./income.service";
import { updateProRataDistributions } from "./pro-rata-distributions.service";
import { importIncome } from "./income-import.service";

/**
 * The import's body as REST takes it: CSV text or the JSON array of rows (components passed as
 * given). Both or neither is handed on as an object, which the service refuses as it refuses such a REST body.
 */
const importBody = ({ rows, csv }: { rows?: { components?: unknown }[] | null; csv?: string | null }) =>
  (rows == null) === (csv == null)
    ? { rows, csv }
    : (csv ?? rows!.map((row) => ({ ...dropNulls(row), components: row.components })));

/** Components travel as REST's JSON object (the IncomeComponents scalar), so they pass straight through. */
export const incomeResolvers: Resolvers = {
  Query: {
    income: (_parent, args, ctx) => findIncome(ctx, args.id),
  },
  Mutation: {
    createIncome: (_parent, a, ctx) => createIncome(ctx, { ...dropNulls(a.input), components: a.input.components }),
    updateIncome: (_parent, a, ctx) =>
      updateIncome(ctx, a.id, { ...dropNulls(a.input), components: a.input.components }),
    confirmIncome: (_parent, a, ctx) => confirmIncome(ctx, a.id),
    importIncome: (_parent, { portfolioId, input }, ctx) =>
      importIncome(ctx, portfolioId, importBody(input), { dryRun: input.dryRun }),
    deleteIncome: (_parent, a, ctx) => deleteIncome(ctx, a.id),
    updateProRataDistributions: (_parent, a, ctx) =>
      updateProRataDistributions(ctx, a.holdingId, { financialYear: a.financialYear, components: a.components }),
  },
  Holding: {
    income: (holding, _args, ctx) => ctx.loaders.incomeByHoldingId.load(holding.id),
  },
};
