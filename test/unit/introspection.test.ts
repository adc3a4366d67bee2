import { parse } from "graphql";
import { isIntrospectionOnly } from "../../src/graphql/introspection";
import { presentedKey } from "../../src/context";
import { fragmentChain } from "../../bench/abuse";

const only = (query: string, operationName?: string) => isIntrospectionOnly(parse(query), operationName);

describe("key-less GraphQL is limited to introspection", () => {
  it("recognises schema exploration", () => {
    expect(only("{ __schema { types { name } } }")).toBe(true);
    expect(only("query IntrospectionQuery { __schema { queryType { name } } }")).toBe(true);
    expect(only('{ __type(name: "Portfolio") { fields { name } } __typename }')).toBe(true);
    expect(only("query Q { ...F } fragment F on Query { __schema { types { name } } }")).toBe(true);
  });

  it("refuses anything that reaches data", () => {
    expect(only("{ __typename sources { id } }")).toBe(false);
    expect(only("query Q { ...F } fragment F on Query { portfolios { id } }")).toBe(false);
    expect(only("mutation { __typename }")).toBe(false);
    expect(only("query A { __typename } query B { sources { id } }", "B")).toBe(false);
    expect(only("query A { __typename } query B { sources { id } }")).toBe(false);
    expect(only("query A { __typename }", "B")).toBe(false);
    expect(only("query Q { ...Missing }")).toBe(false);
  });

  it("walks 3,000 chained fragments without exhausting the stack", () => {
    const chain = parse(fragmentChain(3_000), { maxTokens: 100_000 });
    expect(isIntrospectionOnly(chain)).toBe(true);
    expect(isIntrospectionOnly(parse(fragmentChain(3_000, "sources { id }"), { maxTokens: 100_000 }))).toBe(false);
  });

  it("ends on a fragment cycle (which validation refuses anyway)", () => {
    expect(only("query Q { ...A } fragment A on Query { ...B __typename } fragment B on Query { ...A }")).toBe(true);
    expect(only("query Q { ...A } fragment A on Query { ...B } fragment B on Query { ...A sources { id } }")).toBe(
      false,
    );
  });
});

describe("API key headers (API.md §1 auth)", () => {
  it("accepts the three forms", () => {
    expect(presentedKey({ authorization: "abc" })).toBe("abc");
    expect(presentedKey({ authorization: "Bearer abc" })).toBe("abc");
    expect(presentedKey({ authorization: "bearer  abc " })).toBe("abc");
    expect(presentedKey({ "x-api-key": "abc" })).toBe("abc");
    expect(presentedKey({})).toBeUndefined();
    expect(presentedKey({ authorization: "" })).toBeUndefined();
  });
});
