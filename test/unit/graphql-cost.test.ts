import { getIntrospectionQuery, getOperationAST, parse } from "graphql";
import { aliasedCreates, aliasedNestedLists } from "../../bench/abuse";
import { DEFAULT_GRAPHQL_LIMITS } from "../../src/config";
import { operationCost } from "../../src/graphql/cost";
import { tokensFor } from "../../src/graphql/limits";
import { buildSchema } from "../../src/graphql/schema";

const schema = buildSchema();
const cost = (query: string, variables?: Record<string, unknown>) => {
  const document = parse(query, { maxTokens: 100_000 });
  return operationCost(schema, document, getOperationAST(document)!, variables);
};

describe("operation cost: objects an operation may load, from the SDL", () => {
  it("scalars are free; an object costs 1; an unpaged list multiplies by 10", () => {
    expect(cost("{ __typename }").cost).toBe(0);
    expect(cost('{ portfolio(id: "1") { id name } }').cost).toBe(1);
    expect(cost("{ portfolios { id } }").cost).toBe(10);
    expect(cost("{ portfolios { id holdings { id } } }").cost).toBe(10 * (1 + 10));
  });

  it("a paged list multiplies by its limit: given, from a variable, or the service's default page", () => {
    expect(cost('{ holding(id: "1") { trades { id } } }').cost).toBe(1 + 500);
    expect(cost('{ holding(id: "1") { trades(limit: 20) { id } } }').cost).toBe(1 + 20);
    expect(cost('query Q($n: Int) { holding(id: "1") { trades(limit: $n) { id } } }', { n: 3 }).cost).toBe(1 + 3);
    expect(cost('query Q($n: Int = 7) { holding(id: "1") { trades(limit: $n) { id } } }').cost).toBe(1 + 7);
    expect(cost('query Q($n: Int) { holding(id: "1") { trades(limit: $n) { id } } }').cost).toBe(1 + 500);
    expect(cost('{ searchSecurities(q: "bhp") { symbol } }').cost).toBe(20);
    expect(cost("{ portfolios { holdings { trades { id } } } }").cost).toBe(10 * (1 + 10 * (1 + 500)));
  });

  it("fragments count at every spread, and a fragment spread many times is walked once", () => {
    const direct = cost("{ portfolios { holdings { id } } }").cost;
    expect(cost("{ portfolios { ...P } } fragment P on Portfolio { holdings { id } }").cost).toBe(direct);
    expect(cost("{ portfolios { ... on Portfolio { holdings { id } } } }").cost).toBe(direct);
    // Ten levels, each spreading the next twice: 2^10 paths, but each fragment is costed once.
    const levels = Array.from(
      { length: 10 },
      (_, i) => `fragment F${i} on Query { a${i}: sources { id } ...F${i + 1} ...F${i + 1} }`,
    );
    const bomb = `{ ...F0 } ${levels.join(" ")} fragment F10 on Query { __typename }`;
    expect(cost(bomb).cost).toBe(10 * (2 ** 10 - 1));
  });

  it("the abusive queries are far over the limit; the full introspection query is not", () => {
    expect(cost(aliasedNestedLists(1_000)).cost).toBe(1_000 * 50_110);
    expect(
      cost(
        getIntrospectionQuery({
          descriptions: true,
          specifiedByUrl: true,
          directiveIsRepeatable: true,
          schemaDescription: true,
          inputValueDeprecation: true,
        }),
      ).cost,
    ).toBeLessThan(DEFAULT_GRAPHQL_LIMITS.maxCost / 10);
  });

  it("counts the writes of a mutation by response name, through fragments", () => {
    expect(cost(aliasedCreates(1_000)).mutationFields).toBe(1_000);
    expect(cost('mutation { deletePortfolio(id: "1") }').mutationFields).toBe(1);
    expect(
      cost(
        'mutation { ...W __typename } fragment W on Mutation { a: deletePortfolio(id: "1") b: deletePortfolio(id: "2") }',
      ).mutationFields,
    ).toBe(2);
    expect(cost("{ portfolios { id } }").mutationFields).toBe(0);
  });
});

describe("rate-limit tokens of an operation", () => {
  const limits = { ...DEFAULT_GRAPHQL_LIMITS, costPerToken: 4_000 };
  it("ceil(cost / costPerToken), at least 1, capped at the burst; one per write, not capped", () => {
    expect(tokensFor(0, 0, limits, 50)).toBe(1);
    expect(tokensFor(4_000, 0, limits, 50)).toBe(1);
    expect(tokensFor(4_001, 0, limits, 50)).toBe(2);
    expect(tokensFor(200_000, 0, limits, 20)).toBe(20);
    expect(tokensFor(12, 10, limits, 50)).toBe(10);
    expect(tokensFor(12, 100, limits, 50)).toBe(100);
  });
});
