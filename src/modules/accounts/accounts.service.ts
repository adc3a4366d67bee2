import crypto from "node:crypto";
import type { Logger } from "pino";
import type { PrismaClient } from "../../db";
import { DomainError } from "../../lib/domain-errors";

/**
 * Accounts and their API keys. A key is shown once, when it is made; only its SHA-256 is stored,
 * so a leaked database does not leak working keys. These are system operations (the keys CLI, the
 * server's start-up, authentication), not request use cases, so they take the database directly.
 */
export interface AuthenticatedKey {
  keyId: number;
  account: { id: number; name: string };
  /** Set for a client login key: it acts as that client (docs/conventions.md §2.4). */
  client?: { id: number; permission: "Read" | "ReadWrite" };
}

// One-shot: a Hash object per request cost more than the digest itself.
export const hashKey = (key: string): string => crypto.hash("sha256", key, "hex");

/** 32 random bytes, URL-safe; the prefix makes a leaked key easy to recognise in a scan. */
export const generateKey = (): string => "pfk_" + crypto.randomBytes(32).toString("base64url");

const ACCOUNT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@&'-]{0,199}$/u;

/** Creates the account when it does not exist yet, then a new key for it. Returns the key once. */
export async function createAccountKey(
  db: PrismaClient,
  input: { accountName: string; label?: string },
): Promise<{ account: { id: number; name: string }; key: string }> {
  const name = input.accountName.trim();
  if (!ACCOUNT_NAME.test(name)) {
    throw new DomainError(
      "VALIDATION_FAILED",
      "An account name is 1 to 200 letters, digits, spaces or . _ @ & ' -, starting with a letter or digit.",
    );
  }
  const key = generateKey();
  const account = await db.account.upsert({
    where: { name },
    create: { name },
    update: {},
    select: { id: true, name: true },
  });
  await db.apiKey.create({ data: { accountId: account.id, keyHash: hashKey(key), label: input.label ?? null } });
  return { account, key };
}

export async function listAccounts(db: PrismaClient) {
  return db.account.findMany({
    orderBy: { id: "asc" },
    select: { id: true, name: true, createdAt: true, _count: { select: { apiKeys: true, portfolios: true } } },
  });
}

/** Resolves a presented key to its account, or null when no such key exists. One statement. */
export async function authenticateKey(db: PrismaClient, presentedKey: string): Promise<AuthenticatedKey | null> {
  return authenticateKeyHash(db, hashKey(presentedKey));
}

/**
 * authenticateKey for a key already hashed (the key cache keys its entries by the hash). Every
 * table it reads notifies a change that alters its answer (migration api_key_change_notifications):
 * a new read here must come with a new trigger there.
 */
export async function authenticateKeyHash(db: PrismaClient, keyHash: string): Promise<AuthenticatedKey | null> {
  const rows = await db.$queryRaw<
    {
      key_id: number;
      account_id: number;
      account_name: string;
      client_id: number | null;
      permission: "Read" | "ReadWrite" | null;
    }[]
  >`
    SELECT k.id AS key_id, a.id AS account_id, a.name AS account_name, c.id AS client_id, c.permission::text AS permission
    FROM api_key k
    JOIN account a ON a.id = k.account_id
    LEFT JOIN client c ON c.id = k.client_id
    WHERE k.key_hash = ${keyHash}`;
  const row = rows[0];
  if (!row) return null;
  return {
    keyId: row.key_id,
    account: { id: row.account_id, name: row.account_name },
    ...(row.client_id !== null ? { client: { id: row.client_id, permission: row.permission ?? "Read" } } : {}),
  };
}

/**
 * Start-up keys (docs/conventions.md §2.1): BOOTSTRAP_API_KEY makes sure account `default` exists with that
 * key; otherwise, on a first start with no account at all, an account `default` is created and
 * its key returned so the server can print it once. Safe when several processes start together:
 * the unique account name and key hash make the losers' inserts fail, and they carry on.
 */
export async function ensureBootstrapAccount(
  db: PrismaClient,
  bootstrapKey: string | undefined,
  log: Logger,
): Promise<{ createdKey?: string }> {
  try {
    if (bootstrapKey) {
      const keyHash = hashKey(bootstrapKey);
      const existing = await db.apiKey.findUnique({ where: { keyHash }, select: { id: true } });
      if (existing) return {};
      const account = await db.account.upsert({ where: { name: "default" }, create: { name: "default" }, update: {} });
      await db.apiKey.create({ data: { accountId: account.id, keyHash, label: "BOOTSTRAP_API_KEY" } });
      log.info({ accountId: account.id }, "bootstrap API key registered for account 'default'");
      return {};
    }
    if ((await db.account.count()) > 0) return {};
    const { key } = await createAccountKey(db, { accountName: "default", label: "first start" });
    return { createdKey: key };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return {};
    throw error;
  }
}
