import { LRUCache } from "lru-cache";
import type { Database } from "../../db";
import { authenticateKeyHash, hashKey, type AuthenticatedKey } from "./accounts.service";

/** The channel the triggers of migration api_key_change_notifications notify. */
export const KEY_CHANGES_CHANNEL = "api_key_changed";

/** Keys a process remembers: about 2 MB at most. */
const MAX_ENTRIES = 10_000;
/**
 * A known key is dropped by the notification of its change, whichever process makes it; the
 * time limit only bounds what a notification that never came (a bug, not an outage: an outage
 * empties the cache) could cost.
 */
const KNOWN_TTL_MS = 10 * 60_000;
/** An unknown key: a client sending a revoked or mistyped key pays one lookup per few seconds. */
const UNKNOWN_TTL_MS = 5_000;

/**
 * This process's memory of key lookups, so that a request with a key seen lately sends no
 * statement for it. It is right across processes because every change that alters a lookup's
 * answer notifies every process at commit (migration api_key_change_notifications): the key's
 * revocation or change, its client's permission or deletion, its account's rename or deletion,
 * and any new key (which an unknown key remembered earlier may now be). While notifications
 * cannot be heard (the listening connection is down or not yet up) the cache is bypassed, and it
 * starts empty when they can be again: a revocation reaches every process as fast as its
 * notification does, in milliseconds.
 */
export class KeyCache {
  private readonly entries = new LRUCache<string, { auth: AuthenticatedKey | null }>({ max: MAX_ENTRIES });
  private trusted = false;
  /** Counts the changes heard: a lookup that overlapped one may predate it, and is not kept. */
  private changes = 0;
  /** Lookups answered from memory, and those that went to the database (for the metrics). */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(private readonly lookup: (keyHash: string) => Promise<AuthenticatedKey | null>) {}

  /** authenticateKey, from memory when this process may trust it. */
  async authenticate(presentedKey: string): Promise<AuthenticatedKey | null> {
    const keyHash = hashKey(presentedKey);
    const hit = this.trusted ? this.entries.get(keyHash) : undefined;
    if (hit) {
      this.lookups.hits++;
      return hit.auth;
    }
    this.lookups.misses++;
    if (!this.trusted) return this.lookup(keyHash);
    const changes = this.changes;
    const auth = frozen(await this.lookup(keyHash));
    if (this.trusted && changes === this.changes)
      this.entries.set(keyHash, { auth }, { ttl: auth ? KNOWN_TTL_MS : UNKNOWN_TTL_MS });
    return auth;
  }

  /** Barriers sent by settled(), by payload: resolved when their own notification comes back. */
  private readonly barriers = new Map<string, () => void>();

  /**
   * Resolves once every change committed before the call has been heard, by sending a barrier
   * through the channel itself (PostgreSQL delivers a channel's notifications in commit order);
   * at once when this process is not listening, and after `timeoutMs` at the latest. For callers
   * that need the cache settled before they go on, such as a test counting statements.
   */
  async settled(send: (payload: string) => Promise<void>, timeoutMs = 2_000): Promise<void> {
    if (!this.trusted) return;
    const payload = `barrier:${++barrierCount}`;
    const heard = new Promise<void>((resolve) => this.barriers.set(payload, resolve));
    await send(payload);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([heard, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    this.barriers.delete(payload);
  }

  /** A notification: '<table>:<id>' of a changed api_key, client or account row, 'api_key:new', or '*'. */
  changed(payload: string): void {
    const barrier = this.barriers.get(payload);
    if (barrier) return barrier();
    if (payload.startsWith("barrier:")) return; // another process's barrier: no change
    this.changes++;
    const [table, id] = payload.split(":");
    const stale = staleAfter(table, id);
    // '*' (a TRUNCATE), or anything this version does not know: forget everything.
    if (!stale) return this.entries.clear();
    const drop: string[] = [];
    for (const [keyHash, { auth }] of this.entries.entries()) if (stale(auth)) drop.push(keyHash);
    for (const keyHash of drop) this.entries.delete(keyHash);
  }

  /** Whether notifications are heard: either way, what was remembered before may have been missed. */
  listening(on: boolean): void {
    this.changes++;
    this.entries.clear();
    this.trusted = on;
  }
}

/** A remembered lookup is shared by the requests that present its key: none may change it. */
function frozen(auth: AuthenticatedKey | null): AuthenticatedKey | null {
  if (!auth) return auth;
  Object.freeze(auth.account);
  if (auth.client) Object.freeze(auth.client);
  return Object.freeze(auth);
}

/** Which remembered lookups a change of `table`'s row `id` may have made wrong (undefined: any). */
function staleAfter(table: string, id: string | undefined): ((auth: AuthenticatedKey | null) => boolean) | undefined {
  if (!id) return undefined;
  if (table === "api_key") return id === "new" ? (auth) => auth === null : (auth) => auth?.keyId === Number(id);
  if (table === "client") return (auth) => auth?.client?.id === Number(id);
  if (table === "account") return (auth) => auth?.account.id === Number(id);
  return undefined;
}

const caches = new WeakMap<Database, KeyCache>();
let barrierCount = 0;

/** keyCacheOf(db).settled over db's own channel: every key change committed so far has been heard. */
export async function keyChangesHeard(db: Database): Promise<void> {
  await keyCacheOf(db).settled(async (payload) => {
    await db.prisma.$executeRaw`SELECT pg_notify(${KEY_CHANGES_CHANNEL}, ${payload})`;
  });
}

/**
 * The key cache of a database (one per process and database), listening for key changes from
 * the first call. Without a way to listen (a stand-in database) it never trusts itself: every
 * lookup goes to the database, as without a cache.
 */
export function keyCacheOf(db: Database): KeyCache {
  let cache = caches.get(db);
  if (!cache) {
    const created = new KeyCache((keyHash) => authenticateKeyHash(db.prisma, keyHash));
    db.listen?.(KEY_CHANGES_CHANNEL, {
      onMessage: (payload) => created.changed(payload),
      onState: (on) => created.listening(on),
    });
    caches.set(db, (cache = created));
  }
  return cache;
}
