import type { GatewayExecutor, GatewayInterface } from "@apollo/server-gateway-interface";
import {
  execute,
  getVariableValues,
  GraphQLError,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { CompiledQuery } from "graphql-jit";
import { LRUCache } from "lru-cache";
import { fragmentsOf } from "./root-fields";

/**
 * Executes operations compiled by graphql-jit instead of interpreted by graphql-js: the same
 * schema, resolvers and scalars, run by JavaScript generated once per operation text. A profile of
 * B4 (10 portfolios × 5 models × 10 buckets, about 2,240 fields) put most of a request in
 * graphql-js's per-field work; executed compiled, the same answer took about a third of the time.
 *
 * Apollo Server 5 has no executor option; its documented way in is the gateway interface, whose
 * executor runs after Apollo has parsed, validated (with our limit rules) and resolved the
 * operation, and whose answer goes through the same plugins and formatError.
 *
 * Variables are coerced by graphql-js first, so a bad variable fails with graphql-js's own error,
 * which Apollo recognises as BAD_USER_INPUT with status 400.
 *
 * An operation is compiled the second time its text arrives, and run by graphql-js the first
 * time: compiling costs several milliseconds (5-25 ms for the web app's operations on the 2-core
 * machine, more than most answers), which pays back only on a text that comes again, as an app's
 * and a generated client's operations do; a script that writes its ids into a new text each time
 * pays none. Texts are remembered by their operation name and source, at most OPERATIONS of
 * them and about TEXT_BYTES of text (a compiled one counted ten times its text, for its code), the
 * least recently used dropped.
 */
export const OPERATIONS = 1000;
export const TEXT_BYTES = 32 * 1024 * 1024;
/**
 * The most fields an operation compiled may select once its fragments are spread out. Compiled
 * code holds every spread, where graphql-js expands a fragment only under the data that is there:
 * a chain of fragments each spread twice is a few lines of text (and costed once, `cost.ts`) but
 * doubles at every level. Past this the operation runs by graphql-js, however often it comes.
 */
export const COMPILED_FIELDS = 2_000;
const ONCE = Symbol("seen once");
const INTERPRETED = Symbol("too large to compile");

export function compiledExecution(schema: GraphQLSchema): GatewayInterface {
  // A text seen once maps to ONCE; seen again, to its compiled query, or INTERPRETED.
  const seen = new LRUCache<string, CompiledQuery | typeof ONCE | typeof INTERPRETED>({
    max: OPERATIONS,
    maxSize: TEXT_BYTES,
    sizeCalculation: (entry, key) => (typeof entry === "symbol" ? key.length : 10 * key.length),
  });
  const executor: GatewayExecutor = async (rc) => {
    const inputs = rc.request.variables ?? {};
    // The name the client sent (rc.operationName is the one Apollo resolved: null when none was found).
    const operationName = rc.request.operationName ?? undefined;
    const operation = rc.operation as OperationDefinitionNode | undefined;
    const interpret = () =>
      execute({ schema, document: rc.document, contextValue: rc.context, variableValues: inputs, operationName });
    // No such operation in the document: graphql-js's error, which Apollo answers with 400.
    if (!operation) return interpret();
    const key = `${operationName ?? ""}\n${rc.source}`;
    let entry = seen.get(key);
    if (entry === undefined) seen.set(key, ONCE);
    else if (entry === ONCE && !fieldsWithin(rc.document, operation, COMPILED_FIELDS))
      seen.set(key, (entry = INTERPRETED));
    if (entry === undefined || entry === INTERPRETED) return interpret();
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
    if (coerced.errors) return { errors: coerced.errors };
    if (entry === ONCE) {
      // Loaded with the first compilation (graphql-jit brings ajv and fast-json-stringify, about 100
      // modules): a process, a test file or a CLI that never repeats an operation never loads it.
      const { compileQuery, isCompiledQuery } = await import("graphql-jit");
      const compiled = compileQuery(schema, rc.document, operationName);
      if (!isCompiledQuery(compiled)) return compiled;
      seen.set(key, (entry = compiled));
    }
    const result = await entry.query(undefined, rc.context, inputs);
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: "" });
      return () => {};
    },
    async stop() {},
  };
}

/**
 * graphql-jit's errors as graphql-js makes them: jit's own error type leaves `extensions`
 * undefined where graphql-js has `{}`, and Apollo's error formatting reads `extensions.code`.
 * The resolver's error stays the original one, as Apollo's unwrapResolverError expects.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  const made = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions,
  });
  // The locations jit computed: graphql-js derives them from AST nodes, which jit does not keep.
  (made as { locations?: GraphQLError["locations"] }).locations = error.locations;
  return made;
}

/** Whether the operation selects at most `max` fields with its fragments spread out (stops past it). */
function fieldsWithin(document: DocumentNode, operation: OperationDefinitionNode, max: number): boolean {
  const fragments = fragmentsOf(document);
  let fields = 0;
  const within = (set: SelectionSetNode): boolean =>
    set.selections.every((s) => {
      if (s.kind === Kind.FIELD) return ++fields <= max && (!s.selectionSet || within(s.selectionSet));
      if (s.kind === Kind.INLINE_FRAGMENT) return within(s.selectionSet);
      const fragment = fragments.get(s.name.value);
      return !fragment || within(fragment.selectionSet);
    });
  return within(operation.selectionSet);
}
