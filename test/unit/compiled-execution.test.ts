import type { GatewayExecutor, GatewayGraphQLRequestContext } from "@apollo/server-gateway-interface";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { execute, getOperationAST, parse, type GraphQLSchema } from "graphql";
import { compileQuery } from "graphql-jit";
import { COMPILED_FIELDS, compiledExecution } from "../../src/graphql/compiled-execution";

jest.mock("graphql-jit", () => {
  const actual = jest.requireActual("graphql-jit");
  return { ...actual, compileQuery: jest.fn(actual.compileQuery) };
});

/**
 * The executor that runs operations compiled by graphql-jit (src/graphql/compiled-execution.ts):
 * the same answers and errors as graphql-js's execute, an operation text run by graphql-js the first
 * time it arrives and compiled, once, the second.
 */
class Refused extends Error {}
let calls = 0;
const schema = makeExecutableSchema({
  typeDefs: `type Query { item(id: Int!): Item, items: [Item!]! }
             type Item { id: Int!, name: String!, broken: String!, next: Item, self: Item }`,
  resolvers: {
    Query: {
      item: (_: unknown, { id }: { id: number }) => {
        calls++;
        if (id < 0) throw new Refused("no such item");
        return { id, name: `item ${id}` };
      },
      items: () => [1, 2, 3].map((id) => ({ id, name: `item ${id}` })),
    },
    Item: {
      broken: () => null,
      next: (item: { id: number }) => (item.id < 3 ? { id: item.id + 1, name: `item ${item.id + 1}` } : null),
      self: (item: unknown) => item,
    },
  },
});

async function executorOf(s: GraphQLSchema): Promise<GatewayExecutor> {
  const gateway = compiledExecution(s);
  let seen: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => (seen = apiSchema));
  expect(seen).toBe(s);
  const { executor } = await gateway.load({ apollo: {} });
  return executor!;
}

const run = (
  executor: GatewayExecutor,
  source: string,
  variables?: Record<string, unknown>,
  operationName: string | null = null,
) => {
  const document = parse(source);
  const operation = getOperationAST(document, operationName) ?? undefined;
  // As Apollo passes them: the request as sent, and the name of the operation it resolved (if any).
  return executor({
    source,
    document,
    operation,
    operationName: operation ? operationName : null,
    request: { query: source, variables, operationName: operationName ?? undefined },
    context: {},
  } as unknown as GatewayGraphQLRequestContext);
};
const interpreted = (source: string, variables?: Record<string, unknown>, operationName?: string) =>
  execute({ schema, document: parse(source), variableValues: variables, operationName });
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe("compiled execution", () => {
  it("answers as graphql-js does, first and compiled: data, a resolver's error with its path, a null in a non-null field", async () => {
    const executor = await executorOf(schema);
    for (const [source, variables] of [
      ["{ items { id name } }", undefined],
      ["query($id: Int!) { item(id: $id) { id name } }", { id: 7 }],
      ["query($id: Int!) { item(id: $id) { id } }", { id: -1 }],
      ["{ items { id broken } }", undefined],
    ] as const) {
      const expected = plain(await interpreted(source, variables));
      expect(plain(await run(executor, source, variables))).toEqual(expected);
      expect(plain(await run(executor, source, variables))).toEqual(expected);
    }
  });

  it("keeps the resolver's own error as originalError and gives every error extensions, as Apollo reads them", async () => {
    const executor = await executorOf(schema);
    await run(executor, "query($id: Int!) { item(id: $id) { id } }", { id: -1 });
    const { errors } = await run(executor, "query($id: Int!) { item(id: $id) { id } }", { id: -1 });
    expect(errors).toHaveLength(1);
    expect(errors![0].originalError).toBeInstanceOf(Refused);
    expect(errors![0].path).toEqual(["item"]);
    expect(errors![0].locations).toEqual([{ line: 1, column: 20 }]);
    expect(errors![0].extensions).toEqual({});
  });

  it("refuses a bad variable with graphql-js's own message (Apollo's BAD_USER_INPUT), resolving nothing", async () => {
    const executor = await executorOf(schema);
    const before = calls;
    const source = "query($id: Int!) { item(id: $id) { id } }";
    const expected = plain(await interpreted(source, { id: "seven" }));
    for (let i = 0; i < 2; i++) {
      const answer = await run(executor, source, { id: "seven" });
      expect(plain(answer)).toEqual(expected);
      expect(answer.errors![0].message).toMatch(/^Variable "\$id" got invalid value "seven"/);
    }
    expect(calls).toBe(before);
  });

  it("compiles a text the second time it arrives, once; a text seen once is never compiled", async () => {
    const executor = await executorOf(schema);
    const compile = jest.mocked(compileQuery);
    compile.mockClear();
    await run(executor, "{ items { id } }");
    expect(compile).not.toHaveBeenCalled();
    for (let i = 0; i < 3; i++) await run(executor, "{ items { id } }");
    await run(executor, "{ items { name } }");
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("leaves an operation name the document lacks to graphql-js, every time (Apollo answers it 400)", async () => {
    const executor = await executorOf(schema);
    const expected = plain(await interpreted("{ items { id } }", undefined, "Missing"));
    expect(expected.errors[0].message).toBe('Unknown operation named "Missing".');
    for (let i = 0; i < 2; i++)
      expect(plain(await run(executor, "{ items { id } }", undefined, "Missing"))).toEqual(expected);
  });

  it(`never compiles an operation past ${COMPILED_FIELDS} fields with its fragments spread out, however often it comes`, async () => {
    // F0 spreads F1 twice, F1 spreads F2 twice…: 13 lines of text, 3 × (2^13 - 1) fields spread out.
    const levels = 12;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Item { id next { ...F${i + 1} } self { ...F${i + 1} } }`,
    );
    const source = `{ items { ...F0 } } ${fragments.join(" ")} fragment F${levels} on Item { id }`;
    const executor = await executorOf(schema);
    const compile = jest.mocked(compileQuery);
    compile.mockClear();
    const expected = plain(await interpreted(source));
    for (let i = 0; i < 3; i++) expect(plain(await run(executor, source))).toEqual(expected);
    expect(compile).not.toHaveBeenCalled();
    // Under the bound, the same shape is compiled on its second arrival.
    const small = `{ items { ...F${levels - 3} } } ${fragments.slice(levels - 3).join(" ")} fragment F${levels} on Item { id }`;
    const smallExpected = plain(await interpreted(small));
    for (let i = 0; i < 2; i++) expect(plain(await run(executor, small))).toEqual(smallExpected);
    expect(compile).toHaveBeenCalledTimes(1);
  });
});
