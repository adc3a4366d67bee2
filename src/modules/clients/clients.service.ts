import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { notFound } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { generateKey, hashKey } from "../accounts/accounts.service";
import { assertAdviser } from "../ledger/portfolio-access";
import { PORTFOLIO_SELECT, toPortfolioView, type PortfolioView } from "../portfolios/portfolios.service";
import { AssignClientPortfoliosInput, CreateClientInput, type Permission, UpdateClientBody } from "./clients.schemas";
import { write } from "../ledger/write";

/**
 * An adviser's clients (docs/conventions.md §2.4). Clients, their portfolio assignments and their login
 * keys are the adviser's to manage: every use case here refuses a client login key (FORBIDDEN).
 */
export interface ClientView {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  permission: Permission;
}

const select = {
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  permission: true,
} satisfies Prisma.ClientSelect;

/**
 * Locks the client row for the rest of the transaction, so assignments and key creation for one
 * client run one after the other and never meet a half-deleted client. NOT_FOUND when the client
 * is missing or another account's.
 */
async function lockClient(tx: Prisma.TransactionClient, ctx: Context, clientId: number): Promise<void> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT id FROM client WHERE id = ${clientId} AND account_id = ${ctx.account.id} FOR UPDATE`;
  if (rows.length === 0) throw notFound(`Client ${clientId}`);
}

export async function listClients(ctx: Context): Promise<ClientView[]> {
  assertAdviser(ctx, "list clients");
  return ctx.db.client.findMany({ where: { accountId: ctx.account.id }, select, orderBy: { id: "asc" } });
}

/** The client, or null when it does not exist or belongs to another account. */
export async function findClient(ctx: Context, id: unknown): Promise<ClientView | null> {
  const clientId = parseId(id, "clientId");
  assertAdviser(ctx, "read clients");
  return ctx.db.client.findFirst({ where: { id: clientId, accountId: ctx.account.id }, select });
}

export async function getClient(ctx: Context, id: unknown): Promise<ClientView> {
  const client = await findClient(ctx, id);
  if (!client) throw notFound(`Client ${String(id)}`);
  return client;
}

export async function createClient(ctx: Context, input: unknown): Promise<ClientView> {
  const data = parseInput(CreateClientInput, input, "The client");
  assertAdviser(ctx, "create clients");
  return ctx.db.client.create({
    data: {
      accountId: ctx.account.id,
      firstName: data.firstName,
      lastName: data.lastName,
      email: data.email ?? null,
      permission: data.permission,
    },
    select,
  });
}

export async function updateClient(ctx: Context, id: unknown, input: unknown): Promise<ClientView> {
  const clientId = parseId(id, "clientId");
  const data = parseInput(UpdateClientBody, input, "The client");
  assertAdviser(ctx, "change clients");
  const current = await getClient(ctx, clientId);
  const updated = await ctx.db.client.update({
    where: { id: current.id },
    data: { firstName: data.firstName, lastName: data.lastName, email: data.email, permission: data.permission },
    select,
  });
  ctx.keys.changed(`client:${current.id}`); // its login keys' permission
  return updated;
}

/**
 * Deletes the client. Its portfolios stay, unassigned (portfolio.client_id is SET NULL by its
 * foreign key), and its login keys go with it (api_key.client_id cascades).
 */
export async function deleteClient(ctx: Context, id: unknown): Promise<true> {
  const clientId = parseId(id, "clientId");
  assertAdviser(ctx, "delete clients");
  const { count } = await ctx.db.client.deleteMany({ where: { id: clientId, accountId: ctx.account.id } });
  if (count === 0) throw notFound(`Client ${clientId}`);
  ctx.keys.changed(`client:${clientId}`); // its login keys went with it
  return true;
}

/** GET /v1/clients/{c}/portfolios: the client's portfolios, in the shape of GET /v1/portfolios. */
export async function listClientPortfolios(ctx: Context, id: unknown): Promise<PortfolioView[]> {
  const client = await getClient(ctx, id);
  const rows = await ctx.db.portfolio.findMany({
    where: { accountId: ctx.account.id, clientId: client.id },
    select: PORTFOLIO_SELECT,
    orderBy: { id: "asc" },
  });
  return rows.map(toPortfolioView);
}

/** The portfolios of several clients of the caller's account, for a DataLoader (Client.portfolios). */
export async function portfoliosByClientIds(
  ctx: Context,
  clientIds: readonly number[],
): Promise<Map<number, PortfolioView[]>> {
  assertAdviser(ctx, "read clients");
  const rows = await ctx.db.portfolio.findMany({
    where: { accountId: ctx.account.id, clientId: { in: [...clientIds] } },
    select: { ...PORTFOLIO_SELECT, clientId: true },
    orderBy: { id: "asc" },
  });
  const byClient = new Map<number, PortfolioView[]>(clientIds.map((id) => [id, []]));
  for (const row of rows) byClient.get(row.clientId!)?.push(toPortfolioView(row));
  return byClient;
}

/**
 * PUT /v1/clients/{c}/portfolios: the listed portfolios become the client's (a portfolio of
 * another client moves), the client's others are unassigned, and the permission is set when
 * given. Every id must be a portfolio of this account (NOT_FOUND naming the first that is not).
 */
export async function assignClientPortfolios(ctx: Context, id: unknown, input: unknown): Promise<PortfolioView[]> {
  const clientId = parseId(id, "clientId");
  const data = parseInput(AssignClientPortfoliosInput, input, "The assignment");
  assertAdviser(ctx, "assign portfolios to clients");
  await write(ctx, async (tx) => {
    await lockClient(tx, ctx, clientId);
    // Every portfolio this changes, locked in id order before the updates: two assignments moving
    // portfolios between clients in opposite directions queue instead of deadlocking.
    const found = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM portfolio WHERE account_id = ${ctx.account.id} AND (id = ANY(${data.portfolioIds}::int[]) OR client_id = ${clientId})
      ORDER BY id FOR NO KEY UPDATE`;
    const known = new Set(found.map((p) => p.id));
    const missing = data.portfolioIds.find((p) => !known.has(p));
    if (missing !== undefined) throw notFound(`Portfolio ${missing}`);
    await tx.portfolio.updateMany({
      where: { accountId: ctx.account.id, clientId, id: { notIn: data.portfolioIds } },
      data: { clientId: null },
    });
    await tx.portfolio.updateMany({
      where: { accountId: ctx.account.id, id: { in: data.portfolioIds } },
      data: { clientId },
    });
    if (data.permission) await tx.client.update({ where: { id: clientId }, data: { permission: data.permission } });
  });
  if (data.permission) ctx.keys.changed(`client:${clientId}`);
  return listClientPortfolios(ctx, clientId);
}

/**
 * POST /v1/clients/{c}/api-keys: a login key that acts as the client (docs/conventions.md §2.4). The key
 * is answered once; only its SHA-256 is stored.
 */
export async function createClientApiKey(ctx: Context, id: unknown): Promise<{ key: string }> {
  const clientId = parseId(id, "clientId");
  assertAdviser(ctx, "create client keys");
  const key = generateKey();
  await write(ctx, async (tx) => {
    await lockClient(tx, ctx, clientId);
    await tx.apiKey.create({
      data: { accountId: ctx.account.id, clientId, keyHash: hashKey(key), label: `client ${clientId}` },
    });
  });
  return { key };
}

/** DELETE /v1/clients/{c}/api-keys: revokes every login key of the client; they answer 401 from now on. */
export async function revokeClientApiKeys(ctx: Context, id: unknown): Promise<true> {
  const clientId = parseId(id, "clientId");
  assertAdviser(ctx, "revoke client keys");
  await write(ctx, async (tx) => {
    await lockClient(tx, ctx, clientId);
    await tx.apiKey.deleteMany({ where: { accountId: ctx.account.id, clientId } });
  });
  ctx.keys.changed(`client:${clientId}`);
  return true;
}
