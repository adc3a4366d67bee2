import type { ApolloServerPlugin } from "@apollo/server";
import { getOperationAST, type GraphQLError } from "graphql";
import { DomainError } from "../lib/domain-errors";
import type { Metrics } from "./metrics";
import { noteProblem, observationOf, responseOfContext } from "./request-state";

/** What an operation name must look like to be a label (GraphQL's Name, at most 64 characters). */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Distinct operation names labelled per process; later new ones are `other` (a client inventing names cannot grow the series). */
const MAX_OPERATION_NAMES = 200;

const isRateLimited = (error: GraphQLError): boolean =>
  error.extensions?.code === "RATE_LIMITED" ||
  (error.originalError instanceof DomainError && error.originalError.code === "RATE_LIMITED");

/**
 * Each GraphQL operation's name and type for the request's log line, its span and the
 * `graphql_operation_duration_seconds` histogram (from the start of Apollo's processing to the
 * response), and RATE_LIMITED refusals made inside Apollo (the cost-based rate limit, a field
 * refused by the analytics queue) for `rate_limit_rejections_total`. The request reaches it through
 * its context (bound in src/graphql/server.ts).
 */
export function observabilityPlugin(metrics: Metrics | undefined): ApolloServerPlugin {
  const labelled = new Set<string>();
  // A name becomes a label only once a keyed request's document defines it: a request names its
  // operation before anything is checked, and a caller without a key must not fill the slots.
  const nameLabel = (name: string | null | undefined, mayAdd: boolean): string => {
    if (!name) return "anonymous";
    if (!OPERATION_NAME.test(name)) return "invalid";
    if (labelled.has(name)) return name;
    if (!mayAdd || labelled.size >= MAX_OPERATION_NAMES) return "other";
    labelled.add(name);
    return name;
  };
  return {
    async requestDidStart({ contextValue, request }) {
      const res = responseOfContext(contextValue);
      const state = observationOf(res);
      const keyed = Boolean((res as { req?: { auth?: unknown } } | undefined)?.req?.auth);
      const started = process.hrtime.bigint();
      let name = nameLabel(request.operationName, false);
      let type = "unknown";
      if (state) state.operationName = name;
      const resolved = (operationName: string | null | undefined, operationType: string | undefined) => {
        name = nameLabel(operationName, keyed);
        type = operationType ?? "unknown";
        if (!state) return;
        state.operationName = name;
        state.operationType = type;
        state.graphqlSpan?.describe(name, type);
      };
      return {
        // Parsed: the operation is known, though validation may still refuse it.
        async validationDidStart(rc) {
          const operation = getOperationAST(rc.document, rc.request.operationName);
          if (operation) resolved(operation.name?.value, operation.operation);
        },
        async didResolveOperation(rc) {
          resolved(rc.operationName, rc.operation?.operation);
        },
        async didEncounterErrors(rc) {
          if (res && rc.errors.some(isRateLimited)) noteProblem(res, "RATE_LIMITED");
        },
        async willSendResponse(rc) {
          const body = rc.response.body;
          const failed = body.kind === "single" ? Boolean(body.singleResult.errors?.length) : false;
          if (failed) state?.graphqlSpan?.fail();
          metrics?.graphqlDuration.observe(
            { operation_name: name, operation_type: type, outcome: failed ? "error" : "success" },
            Number(process.hrtime.bigint() - started) / 1e9,
          );
        },
      };
    },
  };
}
