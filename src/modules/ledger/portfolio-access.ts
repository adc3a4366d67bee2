import { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { DomainError, notFound } from "../../lib/domain-errors";
import { readBySlices } from "../../lib/id-slices";
import { parseId } from "../../lib/validation";
import type { PortfolioTaxInfo } from "./load";

/**
 * The one scoped portfolio loader: who may see and change which portfolio, and the portfolio as
 * every ledger read and report takes it. Every other read of something under a portfolio is
 * scoped through `portfolioWhere` (holdings, trades, income: their `…Where` builds on it).
 */

/** The portfolio columns the ledger rules read (base currency, year end, methods, entity type). */
export const PORTFOLIO_LEDGER_SELECT = {
  id: true,
  baseCurrencyCode: true,
  financialYearEnd: true,
  defaultMethod: true,
  entityType: true,
  accountId: true,
} as const;
export type PortfolioForLedger = PortfolioTaxInfo & { baseCurrencyCode: string; accountId: number };

/**
 * Who may see and change what (docs/conventions.md §2.3, §2.4). Everything belongs to one
 * account; a client login key sees only the portfolios assigned to its client, and may change them only with the
 * ReadWrite permission. Account-wide resources (clients, keys, custom groups, prices) are the
 * adviser's: a client key may read what its portfolios need but never change them.
 */
export function portfolioWhere(ctx: Context): Prisma.PortfolioWhereInput {
  return ctx.principal.kind === "client"
    ? { accountId: ctx.account.id, clientId: ctx.principal.clientId }
    : { accountId: ctx.account.id };
}

/** `portfolioWhere` for a raw statement: the portfolio row named `alias` is one the caller may see. */
export function portfolioScopeSql(ctx: Context, alias: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(`${alias}.${name}`);
  return ctx.principal.kind === "client"
    ? Prisma.sql`${column("account_id")} = ${ctx.account.id} AND ${column("client_id")} = ${ctx.principal.clientId}`
    : Prisma.sql`${column("account_id")} = ${ctx.account.id}`;
}

/**
 * The portfolios of an adviser's book (the overviews): the caller's, narrowed to one client's by
 * `clientId`. Both conditions hold together, so neither can widen the other. A client id the
 * account does not have, or a client key naming another client, answers NOT_FOUND.
 */
export async function bookWhere(ctx: Context, clientId: number | undefined): Promise<Prisma.PortfolioWhereInput> {
  if (clientId === undefined) return portfolioWhere(ctx);
  const ownClient = ctx.principal.kind !== "client" || ctx.principal.clientId === clientId;
  const client =
    ownClient &&
    (await ctx.db.client.findFirst({ where: { id: clientId, accountId: ctx.account.id }, select: { id: true } }));
  if (!client) throw notFound(`Client ${clientId}`);
  return { AND: [portfolioWhere(ctx), { clientId }] };
}

/**
 * A use case that reads one record of the caller's by its id (a path segment or a body field), or
 * answers NOT_FOUND; through `db`, a transaction's client when a write reads its rows back.
 */
export type ScopedLookup<T> = (ctx: Context, id: unknown, db?: Prisma.TransactionClient) => Promise<T>;

/** A write to a portfolio or anything under it. */
export function assertCanWrite(ctx: Context): void {
  if (ctx.principal.kind === "client" && ctx.principal.permission !== "ReadWrite") {
    throw new DomainError("FORBIDDEN", "This key has Read permission on its portfolios; changes need ReadWrite.");
  }
}

/** An operation reserved to the account's own keys (not client login keys). */
export function assertAdviser(ctx: Context, what: string): void {
  if (ctx.principal.kind === "client") throw new DomainError("FORBIDDEN", `A client key cannot ${what}.`);
}

/**
 * The one way a service loads "a portfolio of the caller" (docs/conventions.md §2.3): by id,
 * within the caller's account and, for a client login key, its client. What it answers carries a brand no
 * other code can forge, so a function that must only ever see the caller's portfolio says so in
 * its parameter type (`ScopedPortfolio`) instead of trusting its caller to have checked.
 */
declare const SCOPED: unique symbol;

/** A row loaded through `portfolioWhere`: the caller may see it. */
export type Scoped<T> = T & { readonly [SCOPED]: true };

/** A portfolio of the caller, with what the ledger rules read (base currency, year end, methods). */
export type ScopedPortfolio = Scoped<PortfolioForLedger>;

const scoped = <T>(row: T) => row as Scoped<T>;

/**
 * A lookup of the caller's portfolio `portfolioId` (parsed: a path segment or a body field).
 * `select` picks other columns (a view); without it, the ledger's. `Missing` is what it answers for
 * a portfolio the caller may not see, or that does not exist.
 */
interface PortfolioLookup<Missing> {
  (ctx: Context, portfolioId: unknown, db?: Prisma.TransactionClient): Promise<ScopedPortfolio | Missing>;
  <S extends Prisma.PortfolioSelect>(
    ctx: Context,
    portfolioId: unknown,
    db: Prisma.TransactionClient | undefined,
    select: S,
  ): Promise<Scoped<Prisma.PortfolioGetPayload<{ select: S }>> | Missing>;
}

/** scopedPortfolio, or null instead of NOT_FOUND (GraphQL's nullable `portfolio(id)`). */
export const findScopedPortfolio = (async (
  ctx: Context,
  portfolioId: unknown,
  db: Prisma.TransactionClient = ctx.db,
  select: Prisma.PortfolioSelect = PORTFOLIO_LEDGER_SELECT,
): Promise<unknown> => {
  const id = parseId(portfolioId, "portfolioId");
  const row = await db.portfolio.findFirst({ where: { id, ...portfolioWhere(ctx) }, select });
  return row ? scoped(row) : null;
}) as PortfolioLookup<null>;

/**
 * The caller's portfolio, or NOT_FOUND, which another account's or another client's portfolio
 * answers exactly as a missing one does.
 */
export const scopedPortfolio = (async (
  ctx: Context,
  portfolioId: unknown,
  db?: Prisma.TransactionClient,
  select: Prisma.PortfolioSelect = PORTFOLIO_LEDGER_SELECT,
): Promise<unknown> => {
  const row = await findScopedPortfolio(ctx, portfolioId, db, select);
  if (!row) throw notFound(`Portfolio ${parseId(portfolioId, "portfolioId")}`);
  return row;
}) as PortfolioLookup<never>;

/**
 * Those of `portfolioIds` the caller may see (a DataLoader's batch), in id order; the others are
 * simply absent, as GraphQL's relation fields want.
 */
export async function scopedPortfolios(
  ctx: Context,
  portfolioIds: readonly number[],
  db: Prisma.TransactionClient = ctx.db,
): Promise<ScopedPortfolio[]> {
  const ids = [...portfolioIds].sort((a, b) => a - b);
  const rows = await readBySlices(ids, (slice) =>
    db.portfolio.findMany({
      where: { id: { in: slice }, ...portfolioWhere(ctx) },
      select: PORTFOLIO_LEDGER_SELECT,
      orderBy: { id: "asc" },
    }),
  );
  return rows.map(scoped);
}
