import { print, visit, type ASTNode, type DocumentNode } from "graphql";

/** Each operation's text with the fragments it spreads, as a constant typed by its result and variables. */
export function operationTexts(document: DocumentNode): string {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === "FragmentDefinition" ? [[d.name.value, d] as const] : [])),
  );
  /** The fragments a definition spreads, and those they spread in turn, each once, by name. */
  const spreadBy = (node: ASTNode, found = new Set<string>()): Set<string> => {
    visit(node, {
      FragmentSpread(s) {
        if (found.has(s.name.value)) return;
        found.add(s.name.value);
        const fragment = fragments.get(s.name.value);
        if (!fragment) throw new Error(`operations.graphql spreads an undefined fragment ${s.name.value}`);
        spreadBy(fragment, found);
      },
    });
    return found;
  };
  const lines = [
    "\n/** An operation's text, with its result and variables as types only. */",
    "export interface Operation<Result, Variables> {",
    "  readonly name: string;",
    "  readonly text: string;",
    "  /** Never set: carries the types. */",
    "  readonly types?: { result: Result; variables: Variables };",
    "}",
  ];
  for (const d of document.definitions) {
    if (d.kind !== "OperationDefinition" || !d.name) continue;
    const name = d.name.value;
    const text = print(d);
    const spread = [...spreadBy(d)].map((f) => print(fragments.get(f)!));
    const kind = d.operation === "mutation" ? "Mutation" : "Query";
    lines.push(
      `export const ${name}: Operation<${name}${kind}, ${name}${kind}Variables> = ${JSON.stringify({ name, text: [text, ...spread].join("\n") })};`,
    );
  }
  return lines.join("\n") + "\n";
}
