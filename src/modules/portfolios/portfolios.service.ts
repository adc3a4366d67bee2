import type { Context } from "../../context";
import { DomainError, found, removed } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { assertAdviser, assertCanWrite, portfolioWhere, findScopedPortfolio } from "../ledger/portfolio-access";
import { CreatePortfolioInput, DEFAULT_YEAR_END, UpdatePortfolioBody } from "./portfolios.schemas";

export interface PortfolioView {
  id: number;
  name: string;
  dateCreated: Date;
  baseCurrencyCode: string;
  taxResidency: string;
  entityType: "Individual" | "Trust" | "SMSF" | "Company";
  financialYearEnd: string;
}

const select = {
  id: true,
  name: true,
  createdAt: true,
  baseCurrencyCode: true,
  taxResidency: true,
  entityType: true,
  financialYearEnd: true,
} as const;

type Row = {
  id: number;
  name: string;
  createdAt: Date;
  baseCurrencyCode: string;
  taxResidency: string;
  entityType: PortfolioView["entityType"];
  financialYearEnd: string;
};

const view = ({ createdAt, ...row }: Row): PortfolioView => ({
  id: row.id,
  name: row.name,
  dateCreated: createdAt,
  baseCurrencyCode: row.baseCurrencyCode,
  taxResidency: row.taxResidency,
  entityType: row.entityType,
  financialYearEnd: row.financialYearEnd,
});

export async function listPortfolios(ctx: Context): Promise<PortfolioView[]> {
  const rows = await ctx.db.portfolio.findMany({ where: portfolioWhere(ctx), select, orderBy: { id: "asc" } });
  return rows.map(view);
}

/** The portfolio, or null when it does not exist or belongs to another account. */
export async function findPortfolio(ctx: Context, id: unknown): Promise<PortfolioView | null> {
  const row = await findScopedPortfolio(ctx, id, ctx.db, select);
  return row ? view(row) : null;
}

/** Another account's portfolio answers NOT_FOUND, exactly as a missing one (docs/conventions.md §2.3). */
export async function getPortfolio(ctx: Context, id: unknown): Promise<PortfolioView> {
  return found(await findPortfolio(ctx, id), `Portfolio ${String(id)}`);
}

export async function createPortfolio(ctx: Context, input: unknown): Promise<PortfolioView> {
  assertAdviser(ctx, "create portfolios");
  const data = parseInput(CreatePortfolioInput, input, "The portfolio");
  const row = await ctx.db.portfolio.create({
    data: {
      accountId: ctx.account.id,
      name: data.name,
      baseCurrencyCode: data.baseCurrencyCode,
      taxResidency: data.taxResidency,
      entityType: data.entityType,
      financialYearEnd: data.financialYearEnd ?? DEFAULT_YEAR_END[data.taxResidency] ?? "12-31",
    },
    select,
  });
  return view(row);
}

export async function updatePortfolio(ctx: Context, id: unknown, input: unknown): Promise<PortfolioView> {
  const portfolioId = parseId(id, "portfolioId");
  const data = parseInput(UpdatePortfolioBody, input, "The portfolio");
  assertCanWrite(ctx);
  const current = await getPortfolio(ctx, portfolioId);
  if (data.baseCurrencyCode && data.baseCurrencyCode !== current.baseCurrencyCode) {
    // Every stored amount is in the base currency; changing it would silently relabel them.
    throw new DomainError(
      "BUSINESS_RULE",
      `The base currency of a portfolio is fixed at creation (${current.baseCurrencyCode}).`,
    );
  }
  const row = await ctx.db.portfolio.update({
    where: { id: portfolioId, accountId: ctx.account.id },
    data: {
      name: data.name,
      entityType: data.entityType,
      taxResidency: data.taxResidency,
      financialYearEnd: data.financialYearEnd,
    },
    select,
  });
  return view(row);
}

/** Removes the portfolio and everything under it (foreign keys cascade). */
export async function deletePortfolio(ctx: Context, id: unknown): Promise<true> {
  const portfolioId = parseId(id, "portfolioId");
  assertAdviser(ctx, "delete portfolios");
  return removed(
    await ctx.db.portfolio.deleteMany({ where: { id: portfolioId, ...portfolioWhere(ctx) } }),
    `Portfolio ${portfolioId}`,
  );
}

/** The portfolio view's select and mapping, for modules that list portfolios (a client's). */
export { select as PORTFOLIO_SELECT, view as toPortfolioView };
