import { createHash } from "node:crypto";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectOk, withApp } from "../support/outcomes";
import { apiKeysApi } from "./api-keys.transports";

/**
 * The account's API keys (README: Managing API keys) over REST and GraphQL on the same scenarios:
 * made with a name and shown once, listed without secrets, revoked (refused on the next request)
 * and rotated; the last account key stays; only account keys manage keys; another account's key
 * ids answer NOT_FOUND; a refused call writes nothing.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { unchanged } = withApp(() => t);
const { rest, graphql, statusOf } = apiKeysApi(t);
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe.each([rest, graphql])("API keys over $name", (tr) => {
  it("makes a key with a name, shown once and stored only as its SHA-256; it works at once", async () => {
    const made = expectOk(await tr.create(key, { name: "  Nightly import  " }), 201);
    expect(made).toEqual({
      key: expect.stringMatching(/^pfk_[A-Za-z0-9_-]{43}$/),
      id: expect.any(Number),
      name: "Nightly import",
      kind: "Account",
      clientId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      current: false,
    });
    const [row] = await t.db.sql<{ key_hash: string; label: string }>(
      "SELECT key_hash, label FROM api_key WHERE id = $1",
      [made.id],
    );
    expect(row).toEqual({ key_hash: sha256(made.key), label: "Nightly import" });
    expect(await statusOf(made.key)).toBe(200);
  });

  it("lists the account's keys without secrets, its clients' login keys included, marking the caller's", async () => {
    const p = await newPortfolio(t, key);
    const clientKey = await t.newClientKey(key, "Read", [p]);
    const made = expectOk(await tr.create(key, { name: "Server" }));
    const [client] = await t.db.sql<{ id: number }>("SELECT client_id AS id FROM api_key WHERE key_hash = $1", [
      sha256(clientKey),
    ]);
    const other = await t.newAccount("other");
    expectOk(await tr.create(other, { name: "Not mine" }));

    const listed = expectOk(await tr.list(key));
    expect(listed.map(({ name, kind, clientId, current }) => ({ name, kind, clientId, current }))).toEqual([
      { name: null, kind: "Account", clientId: null, current: true },
      { name: "test client", kind: "Client", clientId: Number(client.id), current: false },
      { name: "Server", kind: "Account", clientId: null, current: false },
    ]);
    expect(listed[2].id).toBe(made.id);
    expect(JSON.stringify(listed)).not.toContain(made.key);
    expect(JSON.stringify(listed)).not.toContain(sha256(made.key));
    // Seen from the new key, it is the current one.
    expect(expectOk(await tr.list(made.key)).map((k) => k.current)).toEqual([false, false, true]);
  });

  it("refuses a bad name with the field named, and writes nothing", async () => {
    await unchanged(async () => {
      for (const input of [
        { name: "" },
        { name: "   " },
        { name: "x".repeat(201) },
        { name: "a\u0007b" },
        { name: "two\nlines" },
      ])
        expectInvalid(await tr.create(key, input), "name");
      if (tr.name === "REST") {
        expectInvalid(await tr.create(key, {}), "name");
        expectInvalid(await tr.create(key, { name: 5 }), "name");
        expectInvalid(await tr.create(key, { name: "ok", scope: "all" }), "scope");
      }
    });
    expect(expectOk(await tr.create(key, { name: "x".repeat(200) })).name).toHaveLength(200);
  });

  it("revokes a key: it is refused (401) on its next request and leaves the list", async () => {
    const made = expectOk(await tr.create(key, { name: "Laptop" }));
    expect(await statusOf(made.key)).toBe(200);
    expect(expectOk(await tr.revoke(key, made.id), 204)).toBe(true);
    expect(await statusOf(made.key)).toBe(401);
    const gql = await t.gql(made.key, "{ apiKeys { id } }");
    expect({ status: gql.status, code: gql.body.errors?.[0]?.extensions?.code }).toEqual({
      status: 401,
      code: "UNAUTHENTICATED",
    });
    expect(expectOk(await tr.list(key)).map((k) => k.id)).not.toContain(made.id);
    expectError(await tr.revoke(key, made.id), "NOT_FOUND");
  });

  it("revokes one client login key, leaving the client's others", async () => {
    const p = await newPortfolio(t, key);
    const first = await t.newClientKey(key, "ReadWrite", [p]);
    const keys = expectOk(await tr.list(key));
    const target = keys.find((k) => k.kind === "Client")!;
    expectOk(await tr.revoke(key, target.id));
    expect(await statusOf(first)).toBe(401);
    expect(await statusOf(key)).toBe(200);
  });

  it("never revokes the account's last account key; with another key made, a key may revoke itself", async () => {
    const p = await newPortfolio(t, key);
    await t.newClientKey(key, "ReadWrite", [p]);
    const own = expectOk(await tr.list(key)).find((k) => k.current)!;
    await unchanged(async () => {
      const refused = await tr.revoke(key, own.id);
      expectError(refused, "CONFLICT");
      expect(refused.message).toMatch(/last account key/);
    });
    expect(await statusOf(key)).toBe(200);

    const spare = expectOk(await tr.create(key, { name: "Spare" }));
    expectOk(await tr.revoke(key, own.id));
    expect(await statusOf(key)).toBe(401);
    // The spare is now the last one.
    expectError(await tr.revoke(spare.key, spare.id), "CONFLICT");
    expect(await statusOf(spare.key)).toBe(200);
  });

  it("rotates a key: a new key of the same name, kind and client; the old one is refused", async () => {
    const made = expectOk(await tr.create(key, { name: "CI" }));
    const rotated = expectOk(await tr.rotate(key, made.id), 201);
    expect(rotated).toEqual({
      ...made,
      key: expect.any(String),
      id: expect.any(Number),
      createdAt: expect.any(String),
    });
    expect(rotated.key).not.toBe(made.key);
    expect(rotated.id).not.toBe(made.id);
    expect(await statusOf(made.key)).toBe(401);
    expect(await statusOf(rotated.key)).toBe(200);
    expectError(await tr.rotate(key, made.id), "NOT_FOUND");

    // The caller's own key, even the last account key: the new one replaces it.
    const own = expectOk(await tr.list(key)).find((k) => k.current)!;
    const mine = expectOk(await tr.rotate(key, own.id));
    expect(await statusOf(key)).toBe(401);
    expect(expectOk(await tr.list(mine.key)).filter((k) => k.kind === "Account").length).toBe(2);

    // A client's login key stays the client's.
    const p = await newPortfolio(t, mine.key);
    const clientKey = await t.newClientKey(mine.key, "Read", [p]);
    const client = expectOk(await tr.list(mine.key)).find((k) => k.kind === "Client")!;
    const newClient = expectOk(await tr.rotate(mine.key, client.id));
    expect(newClient).toMatchObject({ kind: "Client", clientId: client.clientId, name: client.name });
    expect(await statusOf(clientKey)).toBe(401);
    expect(await statusOf(newClient.key)).toBe(200);
  });

  it("refuses client login keys (403), Read or ReadWrite, and writes nothing", async () => {
    const p = await newPortfolio(t, key);
    const own = expectOk(await tr.list(key)).find((k) => k.current)!;
    for (const permission of ["Read", "ReadWrite"] as const) {
      const clientKey = await t.newClientKey(key, permission, [p]);
      await unchanged(async () => {
        expectError(await tr.list(clientKey), "FORBIDDEN");
        expectError(await tr.create(clientKey, { name: "Mine" }), "FORBIDDEN");
        expectError(await tr.revoke(clientKey, own.id), "FORBIDDEN");
        expectError(await tr.rotate(clientKey, own.id), "FORBIDDEN");
      });
    }
  });

  it("answers another account's key ids as missing ones (404), and writes nothing", async () => {
    const other = await t.newAccount("other");
    const theirs = expectOk(await tr.create(other, { name: "Theirs" }));
    await unchanged(async () => {
      for (const id of [theirs.id, 2147483647]) {
        expectError(await tr.revoke(key, id), "NOT_FOUND");
        expectError(await tr.rotate(key, id), "NOT_FOUND");
      }
      for (const id of ["0", "abc", "1.5"]) expectInvalid(await tr.revoke(key, id), "keyId");
    });
    expect(await statusOf(theirs.key)).toBe(200);
  });
});

describe("secrets are never stored with an Idempotency-Key", () => {
  it("REST and GraphQL: the answer holding a new key is not kept; a retry is refused, not replayed", async () => {
    const res = await t.http
      .post("/v1/api-keys")
      .set("authorization", key)
      .set("idempotency-key", "create-1")
      .send({ name: "Once" });
    expect(res.status).toBe(201);
    const retry = await t.http
      .post("/v1/api-keys")
      .set("authorization", key)
      .set("idempotency-key", "create-1")
      .send({ name: "Once" });
    expect({ status: retry.status, code: retry.body.code }).toEqual({ status: 409, code: "CONFLICT" });

    const made = await t.http
      .post("/graphql")
      .set("authorization", key)
      .set("idempotency-key", "rotate-1")
      .send({ query: `mutation { rotateApiKey(id: ${res.body.id}) { key } }` });
    const rotated = made.body.data.rotateApiKey.key as string;
    expect(rotated).toMatch(/^pfk_/);
    const stored = await t.db.sql<{ body: unknown; status: number }>(
      "SELECT body, status FROM idempotency_key ORDER BY id",
    );
    expect(stored).toEqual([
      { body: null, status: 201 },
      { body: null, status: 200 },
    ]);
    expect(await statusOf(res.body.key)).toBe(401);
    expect(await statusOf(rotated)).toBe(200);
  });
});
