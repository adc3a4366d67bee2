import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { notFound } from "../../lib/errors";
import { parseId } from "../../lib/validation";
import { PORTFOLIO_TAX_SELECT, type PortfolioForLedger } from "../holdings/holding-values";
import { portfolioScope } from "./access";

/**
 * The one way a service loads "a portfolio of the caller" (API.md §1 tenancy): by id, within the
 * caller's account and, for a client login key, its client. What it answers carries a brand no
 * other code can forge, so a function that must only ever see the caller's portfolio says so in
 * its parameter type (`ScopedPortfolio`) instead of trusting its caller to have checked.
 */
declare const SCOPED: unique symbol;

/** A row loaded through `portfolioScope`: the caller may see it. */
export type Scoped<T> = T & { readonly [SCOPED]: true };

/** A portfolio of the caller, with what the ledger rules read (base currency, year end, methods). */
export type ScopedPortfolio = Scoped<PortfolioForLedger>;

const scoped = <T>(row: T) => row as Scoped<T>;

/**
 * The caller's portfolio `portfolioId` (parsed: a path segment or a body field), or NOT_FOUND,
 * which another account's or another client's portfolio answers exactly as a missing one does.
 * `select` picks other columns (a view); without it, the ledger's.
 */
export async function scopedPortfolio(
  ctx: Context,
  portfolioId: unknown,
  db?: Prisma.TransactionClient,
): Promise<ScopedPortfolio>;
export async function scopedPortfolio<S extends Prisma.PortfolioSelect>(
  ctx: Context,
  portfolioId: unknown,
  db: Prisma.TransactionClient | undefined,
  select: S,
): Promise<Scoped<Prisma.PortfolioGetPayload<{ select: S }>>>;
export async function scopedPortfolio(
  ctx: Context,
  portfolioId: unknown,
  db: Prisma.TransactionClient = ctx.db,
  select: Prisma.PortfolioSelect = PORTFOLIO_TAX_SELECT,
): Promise<unknown> {
  const row = await findScopedPortfolio(ctx, portfolioId, db, select);
  if (!row) throw notFound(`Portfolio ${parseId(portfolioId, "portfolioId")}`);
  return row;
}

/** scopedPortfolio, or null instead of NOT_FOUND (GraphQL's nullable `portfolio(id)`). */
export async function findScopedPortfolio(
  ctx: Context,
  portfolioId: unknown,
  db?: Prisma.TransactionClient,
): Promise<ScopedPortfolio | null>;
export async function findScopedPortfolio<S extends Prisma.PortfolioSelect>(
  ctx: Context,
  portfolioId: unknown,
  db: Prisma.TransactionClient | undefined,
  select: S,
): Promise<Scoped<Prisma.PortfolioGetPayload<{ select: S }>> | null>;
export async function findScopedPortfolio(
  ctx: Context,
  portfolioId: unknown,
  db: Prisma.TransactionClient = ctx.db,
  select: Prisma.PortfolioSelect = PORTFOLIO_TAX_SELECT,
): Promise<unknown> {
  const id = parseId(portfolioId, "portfolioId");
  const row = await db.portfolio.findFirst({ where: { id, ...portfolioScope(ctx) }, select });
  return row ? scoped(row) : null;
}

/**
 * Those of `portfolioIds` the caller may see (a DataLoader's batch), in id order; the others are
 * simply absent, as GraphQL's relation fields want.
 */
export async function scopedPortfolios(
  ctx: Context,
  portfolioIds: readonly number[],
  db: Prisma.TransactionClient = ctx.db,
): Promise<ScopedPortfolio[]> {
  const rows = await db.portfolio.findMany({
    where: { id: { in: [...portfolioIds] }, ...portfolioScope(ctx) },
    select: PORTFOLIO_TAX_SELECT,
    orderBy: { id: "asc" },
  });
  return rows.map(scoped);
}
