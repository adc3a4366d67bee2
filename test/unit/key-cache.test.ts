import { hashKey, type AuthenticatedKey } from "../../src/modules/accounts/accounts.service";
import { KeyCache } from "../../src/modules/accounts/key-cache";

/**
 * The key cache's rules (src/modules/accounts/key-cache.ts), over a lookup that counts its calls:
 * what a change notification drops, that nothing is trusted while notifications cannot be heard,
 * and that a lookup overlapping a change is not remembered.
 */
const keys: Record<string, AuthenticatedKey> = {
  owner: { keyId: 1, account: { id: 10, name: "Smith" } },
  client: { keyId: 2, account: { id: 10, name: "Smith" }, client: { id: 20, permission: "ReadWrite" } },
  other: { keyId: 3, account: { id: 11, name: "Jones" } },
};

function harness() {
  const byHash = new Map(Object.entries(keys).map(([key, auth]) => [hashKey(key), auth]));
  const looked: string[] = [];
  let gate: Promise<void> | undefined;
  const cache = new KeyCache(async (keyHash) => {
    looked.push(keyHash);
    await gate;
    const auth = byHash.get(keyHash);
    return auth ? structuredClone(auth) : null;
  });
  /** How many of `presented` went to the database this time. */
  const lookups = async (...presented: string[]) => {
    const before = looked.length;
    for (const key of presented) await cache.authenticate(key);
    return looked.length - before;
  };
  return { cache, lookups, hold: (until: Promise<void>) => (gate = until), release: () => (gate = undefined) };
}

it("looks every key up until notifications are heard, then remembers known and unknown keys", async () => {
  const h = harness();
  expect(await h.lookups("owner", "owner")).toBe(2);
  h.cache.listening(true);
  expect(await h.lookups("owner", "owner", "nobody", "nobody")).toBe(2);
  expect(await h.cache.authenticate("owner")).toEqual(keys.owner);
  expect(await h.cache.authenticate("nobody")).toBeNull();
});

it("drops what a change may have made wrong, and only that", async () => {
  const h = harness();
  h.cache.listening(true);
  const all = ["owner", "client", "other", "nobody"];
  await h.lookups(...all);

  h.cache.changed("api_key:2"); // the client's key revoked or changed
  expect(await h.lookups(...all)).toBe(1);
  h.cache.changed("client:20"); // its client's permission changed, or the client deleted
  expect(await h.lookups(...all)).toBe(1);
  h.cache.changed("account:11"); // an account renamed or deleted
  expect(await h.lookups(...all)).toBe(1);
  h.cache.changed("api_key:new"); // a key made: an unknown one may be valid now
  expect(await h.lookups(...all)).toBe(1);
  h.cache.changed("*"); // a TRUNCATE
  expect(await h.lookups(...all)).toBe(4);
  h.cache.changed("something:else"); // a notification this version does not know
  expect(await h.lookups(...all)).toBe(4);
});

it("forgets everything when notifications stop, and trusts nothing until they are heard again", async () => {
  const h = harness();
  h.cache.listening(true);
  await h.lookups("owner");
  h.cache.listening(false);
  expect(await h.lookups("owner", "owner")).toBe(2);
  h.cache.listening(true);
  expect(await h.lookups("owner", "owner")).toBe(1);
});

it("does not remember a lookup that a change overlapped: it may predate the change", async () => {
  const h = harness();
  h.cache.listening(true);
  let open!: () => void;
  h.hold(new Promise<void>((resolve) => (open = resolve)));
  const pending = h.cache.authenticate("client");
  h.cache.changed("api_key:3"); // any change, heard while the lookup runs
  open();
  await pending;
  h.release();
  expect(await h.lookups("client")).toBe(1);
  expect(await h.lookups("client")).toBe(0);
});

it("hands out a remembered lookup that no request can change", async () => {
  const h = harness();
  h.cache.listening(true);
  const auth = (await h.cache.authenticate("client"))!;
  expect(Object.isFrozen(auth) && Object.isFrozen(auth.account) && Object.isFrozen(auth.client)).toBe(true);
});

describe("settled: every change committed before it has been heard", () => {
  it("waits for its own barrier to come back through the channel, which changes nothing", async () => {
    const cache = new KeyCache(async () => keys.owner);
    cache.listening(true);
    await cache.authenticate("owner");
    const sent: string[] = [];
    // The channel delivers in order: an earlier change, then the barrier. Delivered by hand, once
    // the test has seen settled() still waiting (two timers racing each other failed under load).
    let deliver: (() => void) | undefined;
    const settled = cache.settled(async (payload) => {
      sent.push(payload);
      deliver = () => {
        cache.changed("client:99");
        cache.changed(payload);
      };
    });
    let done = false;
    void settled.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    deliver!();
    await settled;
    expect(sent).toEqual([expect.stringMatching(/^barrier:\d+$/)]);
    // Neither the barrier nor another process's barrier dropped the remembered key.
    cache.changed("barrier:123456");
    expect(cache.lookups).toEqual({ hits: 0, misses: 1 });
    await cache.authenticate("owner");
    expect(cache.lookups).toEqual({ hits: 1, misses: 1 });
  });

  it("answers at once, sending nothing, while notifications cannot be heard", async () => {
    const cache = new KeyCache(async () => null);
    const send = jest.fn(async () => undefined);
    await cache.settled(send);
    expect(send).not.toHaveBeenCalled();
  });
});
