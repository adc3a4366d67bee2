import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { DomainError, notFound } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { assertAdviser } from "../ledger/portfolio-access";
import { write, type WriteTx } from "../ledger/write";
import { generateKey, hashKey } from "./accounts.service";
import { CreateApiKeyInput, type ApiKeyKind } from "./api-keys.schemas";

/**
 * The account's API keys as the account manages them (README: Managing API keys): its own keys
 * and its clients' login keys, listed without secrets, made, revoked and rotated. Only an account
 * key may manage keys (a client login key: FORBIDDEN); another account's key ids are NOT_FOUND.
 * A key is answered once, when it is made; only its SHA-256 is stored.
 */
export interface ApiKeyView {
  id: number;
  name: string | null;
  kind: ApiKeyKind;
  clientId: number | null;
  createdAt: Date;
  /** The key the request was made with. */
  current: boolean;
}

/** A key just made: the view, and the key itself, which is never shown again. */
export type NewApiKeyView = { key: string } & ApiKeyView;

const select = { id: true, label: true, clientId: true, createdAt: true } satisfies Prisma.ApiKeySelect;
type ApiKeyRow = Prisma.ApiKeyGetPayload<{ select: typeof select }>;

const toView = (ctx: Context, row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.label,
  kind: row.clientId === null ? "Account" : "Client",
  clientId: row.clientId,
  createdAt: row.createdAt,
  current: row.id === ctx.principal.keyId,
});

/**
 * Serialises the account's key changes for the rest of the transaction, so two revocations of its
 * last two account keys cannot both see the other one still there. FOR NO KEY UPDATE: the account
 * row's foreign-key readers (every insert that names the account) do not wait on it.
 */
async function lockAccountKeys(tx: WriteTx, ctx: Context): Promise<void> {
  await tx.$queryRaw`SELECT id FROM account WHERE id = ${ctx.account.id} FOR NO KEY UPDATE`;
}

/** GET /v1/api-keys: every key of the account, its clients' login keys included, by id. */
export async function listApiKeys(ctx: Context): Promise<ApiKeyView[]> {
  assertAdviser(ctx, "list API keys");
  const rows = await ctx.db.apiKey.findMany({ where: { accountId: ctx.account.id }, select, orderBy: { id: "asc" } });
  return rows.map((row) => toView(ctx, row));
}

/** POST /v1/api-keys: a new key that acts as the account. */
export async function createApiKey(ctx: Context, input: unknown): Promise<NewApiKeyView> {
  const data = parseInput(CreateApiKeyInput, input, "The API key");
  assertAdviser(ctx, "create API keys");
  const key = generateKey();
  const row = await write(ctx, (tx) =>
    tx.apiKey.create({ data: { accountId: ctx.account.id, keyHash: hashKey(key), label: data.name }, select }),
  );
  ctx.log.info({ apiKeyId: row.id }, "API key created");
  return { key, ...toView(ctx, row) };
}

/**
 * DELETE /v1/api-keys/{keyId}: the key answers 401 from its next request on. The account's last
 * account key is refused (CONFLICT): without it nothing could manage the account over the API.
 * That key is always the caller's own, since only account keys get here.
 */
export async function revokeApiKey(ctx: Context, id: unknown): Promise<true> {
  const keyId = parseId(id, "keyId");
  assertAdviser(ctx, "revoke API keys");
  await write(ctx, async (tx) => {
    await lockAccountKeys(tx, ctx);
    const keys = await tx.apiKey.findMany({
      where: { accountId: ctx.account.id, OR: [{ id: keyId }, { clientId: null }] },
      select: { id: true, clientId: true },
    });
    const target = keys.find((k) => k.id === keyId);
    if (!target) throw notFound(`API key ${keyId}`);
    if (target.clientId === null && keys.filter((k) => k.clientId === null).length === 1) {
      throw new DomainError(
        "CONFLICT",
        `API key ${keyId} is the account's last account key: revoking it would leave no key to manage the account. Create another key first, or rotate this one to replace it.`,
      );
    }
    await tx.apiKey.delete({ where: { id: keyId } });
  });
  ctx.keys.changed(`api_key:${keyId}`);
  ctx.log.info({ apiKeyId: keyId }, "API key revoked");
  return true;
}

/**
 * POST /v1/api-keys/{keyId}/rotate: a new key in place of the old one, with its name, kind and
 * client, in one transaction: the old key answers 401 from the moment the new one exists. The new
 * key has a new id (the old id is gone with the old key).
 */
export async function rotateApiKey(ctx: Context, id: unknown): Promise<NewApiKeyView> {
  const keyId = parseId(id, "keyId");
  assertAdviser(ctx, "rotate API keys");
  const key = generateKey();
  const row = await write(ctx, async (tx) => {
    await lockAccountKeys(tx, ctx);
    const old = await tx.apiKey.findFirst({
      where: { id: keyId, accountId: ctx.account.id },
      select: { clientId: true, label: true },
    });
    if (!old) throw notFound(`API key ${keyId}`);
    await tx.apiKey.delete({ where: { id: keyId } });
    return tx.apiKey.create({
      data: { accountId: ctx.account.id, clientId: old.clientId, label: old.label, keyHash: hashKey(key) },
      select,
    });
  });
  ctx.keys.changed(`api_key:${keyId}`);
  ctx.log.info({ apiKeyId: keyId, newApiKeyId: row.id }, "API key rotated");
  return { key, ...toView(ctx, row) };
}
