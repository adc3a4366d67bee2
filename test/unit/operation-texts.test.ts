import { parse } from "graphql";
import { operationTexts } from "../../src/graphql/operation-texts";

/**
 * The web app's operation constants (src/graphql/codegen.ts): each carries the fragments it
 * spreads, found by name in the parsed document, with the fragments those spread in turn.
 */
const texts = (source: string): Record<string, string> =>
  Object.fromEntries(
    [...operationTexts(parse(source)).matchAll(/^export const (\w+): [^=]+= (.*);$/gm)].map(([, name, json]) => [
      name,
      (JSON.parse(json) as { text: string }).text,
    ]),
  );

test("a fragment is carried when spread, by its whole name (ReturnSplit does not bring Return)", () => {
  const ops = texts(`
    fragment Return on Performance { totalReturnValue }
    fragment ReturnSplit on Performance { capitalGainValue }
    query A { performance { ...ReturnSplit } }
    query B { performance { ...Return } }
  `);
  expect(ops.A).toContain("fragment ReturnSplit");
  expect(ops.A).not.toMatch(/fragment Return on/);
  expect(ops.B).toMatch(/fragment Return on/);
  expect(ops.B).not.toContain("fragment ReturnSplit");
});

test("a fragment spread inside a fragment is carried too, once", () => {
  const ops = texts(`
    fragment Leaf on Holding { id }
    fragment Middle on Holding { ...Leaf symbol }
    query Q { holdings { ...Middle ...Leaf } }
  `);
  expect(ops.Q.match(/fragment Leaf/g)).toHaveLength(1);
  expect(ops.Q).toContain("fragment Middle");
});

test("a spread of a fragment the document does not define is refused", () => {
  expect(() => texts(`query Q { holdings { ...Missing } }`)).toThrow(/undefined fragment Missing/);
});
