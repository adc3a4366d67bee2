import { fragmentsOf, rootFields } from "./root-fields";
import {
  getNamedType,
  getNullableType,
  getVariableValues,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * The estimated size of an operation, from the SDL alone, before anything runs.
 *
 * `cost` approximates the objects the operation may load: each object field costs 1 plus what is
 * selected under it, and a list field multiplies that by the rows it may return. Scalar fields
 * and `__typename` are free (they come with their object). A list's rows are:
 * - its page size when it takes a `limit` (or `first`) argument: the value given (a literal or a
 *   variable), else the argument's SDL default, else the service's default page (PAGE_DEFAULTS,
 *   otherwise DEFAULT_PAGE_SIZE, the 500 that trades, cash movements and transactions use);
 * - DEFAULT_LIST_SIZE (10) otherwise: portfolios, holdings, models, buckets and the like have no
 *   page, and 10 is a typical count, so nesting two of them costs 100 per object below.
 * Introspection is counted the same way (its lists at DEFAULT_LIST_SIZE): about 16,000 for the
 * full introspection query. (Its nesting is bounded by graphql-js's own introspection depth rule.)
 *
 * `mutationFields` counts the root fields of a mutation (by response name): the writes it makes.
 *
 * A walk with one memo per fragment rather than a plain document visitor: a fragment's cost must
 * be multiplied at every spread, and a fragment spread n times costs one visit, not n.
 */
export interface OperationCost {
  cost: number;
  mutationFields: number;
}

export const DEFAULT_LIST_SIZE = 10;
export const DEFAULT_PAGE_SIZE = 500;
const PAGE_ARGUMENTS = ["limit", "first"];
/** Default pages that differ from DEFAULT_PAGE_SIZE (securities.schemas.ts: limit default 20). */
const PAGE_DEFAULTS: Record<string, number> = { "Query.searchSecurities": 20 };

export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): OperationCost {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  // Invalid variables fail in execution anyway; the estimate then reads them as not given.
  const values = coerced.coerced ?? {};
  const fragments = fragmentsOf(document);
  const memo = new Map<string, number>();

  const rows = (parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>, node: FieldNode): number => {
    const arg = field.args.find((a) => PAGE_ARGUMENTS.includes(a.name));
    if (!arg) return DEFAULT_LIST_SIZE;
    const given = node.arguments?.find((a) => a.name.value === arg.name)?.value;
    const value = given ? valueFromAST(given, arg.type, values) : undefined;
    if (typeof value === "number") return Math.max(1, value);
    const sdlDefault = typeof arg.defaultValue === "number" ? arg.defaultValue : undefined;
    return sdlDefault ?? PAGE_DEFAULTS[`${parent.name}.${field.name}`] ?? DEFAULT_PAGE_SIZE;
  };

  const fieldCost = (parent: GraphQLCompositeType, node: FieldNode): number => {
    if (!node.selectionSet) return 0;
    const field = fieldDefinition(schema, parent, node.name.value);
    if (!field) return 0;
    const target = getNamedType(field.type);
    if (!isCompositeType(target)) return 0;
    let multiplier = 1;
    let type = getNullableType(field.type);
    if (isListType(type)) {
      multiplier = rows(parent, field, node);
      for (type = getNullableType(type.ofType); isListType(type); type = getNullableType(type.ofType))
        multiplier *= DEFAULT_LIST_SIZE;
    }
    return multiplier * (1 + selectionCost(target, node.selectionSet));
  };

  const fragmentCost = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    // Unknown fragments and cycles fail validation before this runs; 0 while in progress ends a cycle.
    memo.set(name, 0);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    const cost = fragment && isCompositeType(type) ? selectionCost(type, fragment.selectionSet) : 0;
    memo.set(name, cost);
    return cost;
  };

  const selectionCost = (parent: GraphQLCompositeType, set: SelectionSetNode): number => {
    let total = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) total += fieldCost(parent, s);
      else if (s.kind === Kind.FRAGMENT_SPREAD) total += fragmentCost(s.name.value);
      else {
        const type = s.typeCondition ? schema.getType(s.typeCondition.name.value) : parent;
        if (isCompositeType(type)) total += selectionCost(type, s.selectionSet);
      }
    }
    return total;
  };

  const root = schema.getRootType(operation.operation);
  let cost: number;
  try {
    cost = root ? selectionCost(root, operation.selectionSet) : 0;
  } catch (error) {
    // Nesting deep enough to exhaust the stack is too costly by any measure.
    if (error instanceof RangeError) cost = Infinity;
    else throw error;
  }
  return { cost, mutationFields: operation.operation === "mutation" ? rootResponseNames(operation, fragments) : 0 };
}

function fieldDefinition(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** The distinct response names at the root, through fragments: the fields that will execute. */
function rootResponseNames(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): number {
  return new Set(
    rootFields(operation, fragments)
      .filter((f) => f.name.value !== "__typename")
      .map((f) => (f.alias ?? f.name).value),
  ).size;
}
