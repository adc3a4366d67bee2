import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { confirmIncome, createIncome, deleteIncome, findIncome, updateIncome, updateProRataDistributions } from "./income.service";

/** Components travel as [{name, amount}] in GraphQL (a record has no GraphQL type). */
const componentList = (c: Record<string, unknown> | null) => (c ? Object.entries(c).map(([name, amount]) => ({ name, amount: amount as string })) : null);
const fromList = (list: { name: string; amount: unknown }[] | null | undefined) => (list ? Object.fromEntries(list.map((c) => [c.name, c.amount])) : list);

export const incomeResolvers: Resolvers = {
  Query: {
    income: (_parent, args, ctx) => findIncome(ctx, args.id),
  },
  Mutation: {
    createIncome: (_parent, a, ctx) => createIncome(ctx, { ...dropNulls(a.input), components: fromList(a.input.components) }),
    updateIncome: (_parent, a, ctx) => updateIncome(ctx, a.id, { ...dropNulls(a.input), components: fromList(a.input.components) }),
    confirmIncome: (_parent, a, ctx) => confirmIncome(ctx, a.id),
    deleteIncome: (_parent, a, ctx) => deleteIncome(ctx, a.id),
    updateProRataDistributions: (_parent, a, ctx) => updateProRataDistributions(ctx, a.holdingId, { financialYear: a.financialYear, components: fromList(a.components) }),
  },
  Income: {
    components: (income) => componentList(income.components),
  },
  Holding: {
    income: (holding, _args, ctx) => ctx.loaders.incomeByHoldingId.load(holding.id),
  },
};
