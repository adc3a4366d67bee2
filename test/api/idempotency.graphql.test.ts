import request from "supertest";
import { useTestApp } from "../support/app";
import { replayed, idempotencyRequests } from "./idempotency.requests";

/**
 * `Idempotency-Key` on GraphQL mutations: replayed like REST's, one namespace with REST, queries run
 * afresh, secrets never stored, INTERNAL failures give the key up.
 *
 * `Idempotency-Key` on POST (docs/conventions.md §7.2): a retry with the same key (same account, 24 h)
 * answers the first answer again and writes nothing; over REST and GraphQL mutations, across
 * concurrent requests, with expiry, abandoned runs and 5xx giving the key up.
 */

const t = useTestApp();
let key: string;
const { count, createPortfolio } = idempotencyRequests(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

describe("GraphQL", () => {
  const CREATE = `mutation Create($input: CreatePortfolioInput!) { createPortfolio(input: $input) { id name } }`;
  const gql = (idemKey: string, query: string, variables?: object) =>
    t.http
      .post("/graphql")
      .set("authorization", key)
      .set("content-type", "application/json")
      .set("Idempotency-Key", idemKey)
      .send({ query, variables });

  it("a mutation retried with its key answers the first answer and does not run again", async () => {
    const first = await gql("gql-create", CREATE, { input: { name: "Super" } });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await gql("gql-create", CREATE, { input: { name: "Super" } });
    expect(again.status).toBe(200);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await count("portfolio")).toBe(1);
    const other = await gql("gql-create", CREATE, { input: { name: "Other" } });
    expect(other.status).toBe(422);
    // A GraphQL response, as GraphQL clients read errors (docs/conventions.md §9.3), not problem+json.
    expect(other.headers["content-type"]).toMatch(/^application\/json/);
    expect(other.body.errors).toEqual([
      {
        message: expect.stringContaining("different request"),
        extensions: expect.objectContaining({ code: "IDEMPOTENCY_KEY_REUSED" }),
      },
    ]);
    expect(await count("portfolio")).toBe(1);
  });

  it("the mount decides the transport, not the URL: /GraphQL is GraphQL too (a query is not stored, a secret never)", async () => {
    const query = `{ portfolios { id } }`;
    const res = await t.http
      .post("/GraphQL")
      .set("authorization", key)
      .set("content-type", "application/json")
      .set("Idempotency-Key", "upper")
      .send({ query });
    expect(res.status).toBe(200);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("a REST key and a GraphQL key with the same string are one namespace, different requests", async () => {
    await createPortfolio("one-key");
    const res = await gql("one-key", CREATE, { input: { name: "Retirement" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await count("portfolio")).toBe(1);
  });

  it("a query does not use the key: it runs afresh each time", async () => {
    await createPortfolio(undefined);
    const list = `{ portfolios { id name } }`;
    const first = await gql("reading", list);
    expect(first.body.data.portfolios).toHaveLength(1);
    await createPortfolio(undefined, { name: "Second" });
    const again = await gql("reading", list);
    expect(replayed(again)).toBeUndefined();
    expect(again.body.data.portfolios).toHaveLength(2);
    expect(await count("idempotency_key")).toBe(0);
  });

  it("a mutation behind a fragment that returns an API key is not stored either", async () => {
    const client = await t.http
      .post("/v1/clients")
      .set("authorization", key)
      .send({ firstName: "Ann", lastName: "Lee" });
    const query = `mutation { ...K } fragment K on Mutation { createClientApiKey(id: ${client.body.id}) }`;
    const first = await gql("gql-login", query);
    expect(first.body.data.createClientApiKey).toMatch(/^pfk_/);
    const again = await gql("gql-login", query);
    expect(again.status).toBe(409);
    const rows = await t.db.sql<{ body: unknown }>(`SELECT body FROM idempotency_key`);
    expect(rows).toEqual([{ body: null }]);
  });

  it("a mutation that failed with INTERNAL gives the key up", async () => {
    await t.db.sql(
      `CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure' USING ERRCODE = 'XX000'; END $$`,
    );
    await t.db.sql(`CREATE TRIGGER test_fail BEFORE INSERT ON portfolio FOR EACH ROW EXECUTE FUNCTION test_fail()`);
    try {
      const failed = await gql("gql-flaky", CREATE, { input: { name: "Super" } });
      expect(failed.body.errors[0].extensions.code).toBe("INTERNAL");
      expect(await count("idempotency_key")).toBe(0);
    } finally {
      await t.db.sql(`DROP TRIGGER test_fail ON portfolio`);
      await t.db.sql(`DROP FUNCTION test_fail()`);
    }
    const retry = await gql("gql-flaky", CREATE, { input: { name: "Super" } });
    expect(retry.body.data.createPortfolio.name).toBe("Super");
    expect(replayed(retry)).toBeUndefined();
  });
});
