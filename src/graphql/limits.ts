import type { ApolloServerPlugin } from "@apollo/server";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { GraphQLError, type ParseOptions, type ValidationContext, type ValidationRule } from "graphql";
import type { GraphQLLimits } from "../config";
import { unauthenticated } from "../context";
import type { GraphQLContext } from "./loaders";
import { toDomainError } from "../lib/to-domain-error";
import type { RequestBucket } from "../http/rate-limit";
import { operationCost } from "./cost";
import { refusedBeforeExecution } from "./format-error";
import { isIntrospectionOnly } from "./introspection";

/**
 * OWASP API4 for GraphQL: an operation is sized before anything runs, and refused when too big,
 * with no resolver and no SQL statement:
 * - tokens: graphql-js's own parser option stops lexing at the first token past the limit, so a
 *   huge document is never parsed whole (answer: GRAPHQL_PARSE_FAILED, 400);
 * - depth and aliases: graphql-armor's validation rules (GRAPHQL_VALIDATION_FAILED, 400, with
 *   `extensions.limit` "depth" or "aliases");
 * - cost (src/graphql/cost.ts), once the operation and its variables are known
 *   (GRAPHQL_VALIDATION_FAILED, 400, `extensions.limit` "cost").
 * Then the rate limit counts work, not requests: see `tokensFor`.
 */

/** What the transport knows about a request that Apollo's plugins need: carried on the context. */
export interface RequestGuard {
  /** No key was presented: only introspection may run. */
  keyless: boolean;
  /** The bucket the request spent its first token from (absent when nothing limits it). */
  bucket?: RequestBucket;
}

const GUARD = Symbol("graphql request guard");
export type GuardedContext = GraphQLContext & { [GUARD]?: RequestGuard };

/** Attaches the guard as an own enumerable property: Apollo hands plugins a shallow copy of the context. */
export function guarded(ctx: GraphQLContext, guard: RequestGuard): GuardedContext {
  return Object.assign(ctx, { [GUARD]: guard });
}

export function parseOptions(limits: GraphQLLimits): ParseOptions {
  return { maxTokens: limits.maxTokens };
}

const refuse = (limit: "depth" | "aliases" | "cost", message: string) =>
  new GraphQLError(message, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", limit, http: { status: 400 } } });

/**
 * graphql-armor's rules report through the validation context rather than throwing: Apollo turns
 * a reported error into a 400, a thrown one into a 500.
 */
export function limitRules(limits: GraphQLLimits): ValidationRule[] {
  const report = (limit: "depth" | "aliases") => ({
    propagateOnRejection: false,
    onReject: [
      (ctx: ValidationContext | null, error: GraphQLError) =>
        ctx?.reportError(refuse(limit, error.message.replace(/^Syntax Error: /, ""))),
    ],
  });
  return [
    maxDepthRule({ n: limits.maxDepth, ...report("depth") }),
    maxAliasesRule({ n: limits.maxAliases, ...report("aliases") }),
  ];
}

/**
 * The rate-limit tokens one operation costs: ceil(cost / costPerToken), at least 1, and at least
 * one per mutation root field, so one request cannot make more writes than a burst of requests
 * could. The cost part is capped at the burst, so any query the cost limit admits can run from a
 * full bucket; the mutation part is not, since more writes than a burst are refused outright.
 */
export function tokensFor(cost: number, mutationFields: number, limits: GraphQLLimits, burst: number): number {
  return Math.max(1, mutationFields, Math.min(burst, Math.ceil(cost / limits.costPerToken)));
}

/**
 * Runs once the operation is parsed, validated and chosen, before execution: the cost limit
 * (400), then key-less requests are held to introspection (401), then the rest of the rate-limit
 * price is spent from the request's bucket (429 with Retry-After when it cannot cover it).
 */
export function guardPlugin(limits: GraphQLLimits): ApolloServerPlugin<GuardedContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          const { cost, mutationFields } = operation
            ? operationCost(schema, document, operation, request.variables)
            : { cost: 0, mutationFields: 0 };
          if (cost > limits.maxCost) {
            throw refuse(
              "cost",
              `Query cost limit of ${limits.maxCost} exceeded, estimated ${Number.isFinite(cost) ? cost : "beyond any limit"}.`,
            );
          }
          const guard = contextValue[GUARD];
          if (guard?.keyless && !isIntrospectionOnly(document, request.operationName))
            throw refusedBeforeExecution(unauthenticated());
          const bucket = guard?.bucket;
          if (!bucket) return;
          try {
            await bucket.spend(tokensFor(cost, mutationFields, limits, bucket.burst));
          } catch (error) {
            // RATE_LIMITED, or the shared buckets' database unreachable (503 with Retry-After, as
            // any statement would answer); anything else stays an error to log.
            const refusal = toDomainError(error);
            if (refusal.code !== "INTERNAL") throw refusedBeforeExecution(refusal);
            throw error;
          }
        },
      };
    },
  };
}
