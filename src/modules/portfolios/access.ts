import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { DomainError } from "../../lib/errors";

/**
 * Who may see and change what (API.md §1 tenancy). Everything belongs to one account; a client
 * login key sees only the portfolios assigned to its client, and may change them only with the
 * ReadWrite permission. Account-wide resources (clients, keys, custom groups, prices) are the
 * adviser's: a client key may read what its portfolios need but never change them.
 */
export function portfolioScope(ctx: Context): Prisma.PortfolioWhereInput {
  return ctx.principal.kind === "client"
    ? { accountId: ctx.account.id, clientId: ctx.principal.clientId }
    : { accountId: ctx.account.id };
}

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
