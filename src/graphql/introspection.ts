import { getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from "graphql";
import { fragmentsOf } from "./root-fields";

/**
 * True when the operation only asks for __schema / __type / __typename (schema exploration), the
 * one thing a request without a key may do. Only the root selection decides: everything under a
 * meta field is schema, not data. The walk keeps its own stack and visits each fragment once, so
 * neither a long chain of fragments nor a cycle between them can exhaust it.
 */
export function isIntrospectionOnly(document: DocumentNode, operationName?: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== "query") return false;
  const fragments = fragmentsOf(document);
  const seen = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (!s.name.value.startsWith("__")) return false;
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        pending.push(s.selectionSet);
      } else {
        const fragment = fragments.get(s.name.value);
        if (!fragment) return false;
        if (!seen.has(s.name.value)) {
          seen.add(s.name.value);
          pending.push(fragment.selectionSet);
        }
      }
    }
  }
  return true;
}
