import { isIntrospectionOnly } from "../../src/graphql/server";
import { presentedKey } from "../../src/context";

describe("key-less GraphQL is limited to introspection", () => {
  it("recognises schema exploration", () => {
    expect(isIntrospectionOnly("{ __schema { types { name } } }")).toBe(true);
    expect(isIntrospectionOnly("query IntrospectionQuery { __schema { queryType { name } } }")).toBe(true);
    expect(isIntrospectionOnly('{ __type(name: "Portfolio") { fields { name } } __typename }')).toBe(true);
    expect(isIntrospectionOnly("query Q { ...F } fragment F on Query { __schema { types { name } } }")).toBe(true);
  });

  it("refuses anything that reaches data", () => {
    expect(isIntrospectionOnly("{ __typename sources { id } }")).toBe(false);
    expect(isIntrospectionOnly("query Q { ...F } fragment F on Query { portfolios { id } }")).toBe(false);
    expect(isIntrospectionOnly("mutation { __typename }")).toBe(false);
    expect(isIntrospectionOnly("query A { __typename } query B { sources { id } }", "B")).toBe(false);
    expect(isIntrospectionOnly("query A { __typename } query B { sources { id } }")).toBe(false);
    expect(isIntrospectionOnly("{ not graphql")).toBe(false);
    expect(isIntrospectionOnly(undefined)).toBe(false);
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
