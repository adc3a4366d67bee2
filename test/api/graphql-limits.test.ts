import { getIntrospectionQuery } from "graphql";
import type request from "supertest";
import { aliasedCreates, aliasedNestedLists, fragmentChain } from "../../bench/abuse";
import { DEFAULT_GRAPHQL_LIMITS } from "../../src/config";
import { useTestApp } from "../support/app";
import { measured } from "../support/kit";

/**
 * OWASP API4 on GraphQL: an operation too big to run is refused before it runs (HTTP 400, no
 * resolver, no SQL beyond the key lookup), with or without a key; and the rate limit counts the
 * work an operation asks for, not the request.
 */
const t = useTestApp();

const portfolioCount = async () => Number((await t.db.sql<{ n: string }>("SELECT count(*) AS n FROM portfolio"))[0].n);

function expectRefused(res: request.Response, code: string, limit?: string): void {
  expect(res.status).toBe(400);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe(code);
  if (limit) expect(res.body.errors[0].extensions.limit).toBe(limit);
}

describe("limits refuse an operation before it runs", () => {
  let key: string;
  /**
   * With a key, the key lookup is the one statement a request may send before GraphQL sees it;
   * none here, where the key was used just before (its lookup is cached).
   */
  let keyLookup: number;

  beforeEach(async () => {
    key = await t.newAccount();
    await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Existing" }).expect(201);
    const trivial = await measured(t.db, () => t.gql(key, "{ __typename }"));
    expect(trivial.res.status).toBe(200);
    keyLookup = trivial.statements;
    expect(keyLookup).toBe(0);
  });

  it("1,000 aliases of portfolios{holdings{trades}}: 400 at parse time (token limit), with or without a key", async () => {
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => t.gql(k, aliasedNestedLists(1_000)));
      expectRefused(res, "GRAPHQL_PARSE_FAILED");
      expect(res.body.errors[0].message).toMatch(/5000 tokens/);
      expect(statements).toBe(k ? keyLookup : 0);
    }
  });

  it("more aliases than allowed: 400 aliases, with or without a key", async () => {
    const query = aliasedNestedLists(DEFAULT_GRAPHQL_LIMITS.maxAliases + 1);
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => t.gql(k, query));
      expectRefused(res, "GRAPHQL_VALIDATION_FAILED", "aliases");
      expect(res.body.errors[0].message).toMatch(/Aliases limit of 50 exceeded, found 51/);
      expect(statements).toBe(k ? keyLookup : 0);
    }
  });

  it("a nested list costing more than the limit: 400 cost, with or without a key", async () => {
    // 10 portfolios × 10 holdings × 5,000 trades ≈ 500,000 objects.
    const query = "{ portfolios { id holdings { id trades(limit: 5000) { id } } } }";
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => t.gql(k, query));
      expectRefused(res, "GRAPHQL_VALIDATION_FAILED", "cost");
      expect(res.body.errors[0].message).toMatch(/Query cost limit of 200000 exceeded, estimated 500110/);
      expect(statements).toBe(k ? keyLookup : 0);
    }
    // The same query with the default page fits.
    const ok = await t.gql(key, "{ portfolios { id holdings { id trades { id } } } }");
    expect(ok.status).toBe(200);
    expect(ok.body.data.portfolios).toEqual([{ id: expect.any(String), holdings: [] }]);
  });

  it("the page size read from a variable counts too", async () => {
    const query = "query Q($n: Int) { portfolios { holdings { trades(limit: $n) { id } } } }";
    expectRefused(
      await t.http
        .post("/graphql")
        .set("authorization", key)
        .send({ query, variables: { n: 5000 } }),
      "GRAPHQL_VALIDATION_FAILED",
      "cost",
    );
    expect(
      (
        await t.http
          .post("/graphql")
          .set("authorization", key)
          .send({ query, variables: { n: 50 } })
      ).status,
    ).toBe(200);
  });

  it("nesting deeper than allowed: 400 depth, with or without a key", async () => {
    const deep = fragmentChain(DEFAULT_GRAPHQL_LIMITS.maxDepth + 5, "portfolios { id }");
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => t.gql(k, deep));
      expectRefused(res, "GRAPHQL_VALIDATION_FAILED", "depth");
      expect(statements).toBe(k ? keyLookup : 0);
    }
    // Introspection through __type is held to the depth limit too (graphql-js adds its own
    // introspection depth rule, which refuses the same query).
    const typeBomb = `{ __type(name: "Query") { ${"fields { type { ".repeat(8)}name${" } }".repeat(8)} } }`;
    const res = await t.gql(undefined, typeBomb);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(
      expect.objectContaining({ extensions: { code: "GRAPHQL_VALIDATION_FAILED", limit: "depth" } }),
    );
  });

  it("introspection nested inside __schema (exempt from depth) is refused by graphql-js's introspection depth rule", async () => {
    const schemaBomb = `{ __schema { types { ${"fields { type { ".repeat(6)}name${" } }".repeat(6)} } } }`;
    const { res, statements } = await measured(t.db, () => t.gql(undefined, schemaBomb));
    expectRefused(res, "GRAPHQL_VALIDATION_FAILED");
    expect(res.body.errors[0].message).toBe("Maximum introspection depth exceeded");
    expect(statements).toBe(0);
  });

  it("1,000 aliased createPortfolio: 400, nothing created, even with no rate limit", async () => {
    for (const n of [1_000, DEFAULT_GRAPHQL_LIMITS.maxAliases + 1]) {
      const { res, statements } = await measured(t.db, () => t.gql(key, aliasedCreates(n)));
      expectRefused(res, n === 1_000 ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED");
      expect(statements).toBe(keyLookup);
    }
    expect(await portfolioCount()).toBe(1);
  });

  it("3,000 chained fragments without a key: 400, not a stack overflow", async () => {
    for (const last of ["__typename", "portfolios { id }"]) {
      const { res, statements } = await measured(t.db, () => t.gql(undefined, fragmentChain(3_000, last)));
      expectRefused(res, "GRAPHQL_PARSE_FAILED");
      expect(statements).toBe(0);
    }
    const { res } = await measured(t.db, () => t.gql(key, fragmentChain(3_000)));
    expectRefused(res, "GRAPHQL_PARSE_FAILED");
  });

  it("a fragment cycle: 400 validation, nothing run", async () => {
    const cycle = "query Q { ...A } fragment A on Query { ...B } fragment B on Query { ...A portfolios { id } }";
    for (const k of [key, undefined]) {
      const { res, statements } = await measured(t.db, () => t.gql(k, cycle));
      expectRefused(res, "GRAPHQL_VALIDATION_FAILED");
      expect(statements).toBe(k ? keyLookup : 0);
    }
  });

  it("still serves ordinary queries, key-less introspection, and refuses key-less data with 401", async () => {
    // About 52,000: every portfolio with its models, holdings, a page of trades each, income and cash accounts.
    const res = await t.gql(
      key,
      "{ portfolios { id name allocationModels { buckets { label } } holdings { trades { id } income { id } } cashAccounts { id } } }",
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const schema = await t.gql(
      undefined,
      "{ __schema { types { name fields { name type { name ofType { name } } } } } }",
    );
    expect(schema.status).toBe(200);
    expect(schema.body.errors).toBeUndefined();
    const data = await t.gql(undefined, "{ portfolios { id } }");
    expect(data.status).toBe(401);
    expect(data.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("the rate limit counts work", () => {
  // A refill slow enough that no token comes back during a test, so counts are exact. Buckets
  // live as long as the app and key ids restart on a reset, so this app is never reset: each
  // test uses keys of its own.
  const BURST = 20;
  const limited = useTestApp({ rateLimitPerSecond: 0.001, rateLimitBurst: BURST, reset: "none" });

  const count = async () => Number((await limited.db.sql<{ n: string }>("SELECT count(*) AS n FROM portfolio"))[0].n);

  function expectRateLimited(res: request.Response): void {
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  }

  it("more aliased writes than the burst: 429 RATE_LIMITED with Retry-After, nothing created, nothing run", async () => {
    const key = await limited.newAccount();
    const before = await count();
    const { res, statements } = await measured(limited.db, () => limited.gql(key, aliasedCreates(BURST + 5)));
    expectRateLimited(res);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    expect(res.body.errors[0].message).toMatch(/costs 25 rate-limit tokens, more than the burst of 20/);
    // The key lookup; on PostgreSQL also the first token's draw from the shared bucket (the rest of
    // the price, more than a full bucket, is refused without another).
    expect(statements).toBe(limited.db.kind === "postgresql" ? 2 : 1);
    expect(await count()).toBe(before);
  });

  it("10 aliased writes spend 10 tokens", async () => {
    const key = await limited.newAccount();
    const before = await count();
    const first = await limited.gql(key, aliasedCreates(10, "First"));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data)).toHaveLength(10);
    // 10 of 20 are left: 11 writes do not fit, are refused whole, and spend only their first token.
    const over = await limited.gql(key, aliasedCreates(11, "Over"));
    expectRateLimited(over);
    expect(over.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    expect(over.body.errors[0].message).toMatch(/retry in \d+ s/);
    // 9 are left, and 9 writes fit exactly; then the bucket is empty.
    expect((await limited.gql(key, aliasedCreates(9, "Last"))).status).toBe(200);
    expectRateLimited(await limited.gql(key, "{ __typename }"));
    expect((await count()) - before).toBe(19);
  });

  it("a cheap query spends 1 token", async () => {
    const key = await limited.newAccount();
    for (let i = 0; i < BURST; i++)
      expect((await limited.gql(key, "{ portfolios { id holdings { id } } }")).status).toBe(200);
    expectRateLimited(await limited.gql(key, "{ __typename }"));
  });

  it("a query spends ceil(cost / costPerToken), capped at the burst", async () => {
    // Cost 50,110: 13 tokens, so a second one does not fit in the 7 left.
    const key = await limited.newAccount();
    const query = "{ portfolios { holdings { trades { id } } } }";
    expect((await limited.gql(key, query)).status).toBe(200);
    const refused = await limited.gql(key, query);
    expectRateLimited(refused);
    expect(refused.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    for (let i = 0; i < 6; i++) expect((await limited.gql(key, "{ __typename }")).status).toBe(200);
    expectRateLimited(await limited.gql(key, "{ __typename }"));
    // Cost 100,110 is 26 tokens, capped at the burst of 20: a full bucket covers it, and is emptied.
    const other = await limited.newAccount();
    expect((await limited.gql(other, "{ portfolios { holdings { trades(limit: 1000) { id } } } }")).status).toBe(200);
    expectRateLimited(await limited.gql(other, "{ __typename }"));
  });

  it("a key-less request spends from its address by cost too", async () => {
    // The full introspection query costs 16,424: 5 tokens, so four fit in 20 and a fifth does not.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.gql(undefined, getIntrospectionQuery())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
