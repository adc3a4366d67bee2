import {
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/** A document's fragments by name. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

/**
 * The fields at an operation's root, through inline fragments and fragment spreads (each fragment
 * entered once, so a cycle ends): what the rate limit counts as writes, and what an
 * Idempotency-Key looks at to know whether a mutation returns a secret.
 */
export function rootFields(
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
): FieldNode[] {
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) fields.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) pending.push(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const fragment = fragments.get(s.name.value);
        if (fragment) pending.push(fragment.selectionSet);
      }
    }
  }
  return fields;
}
