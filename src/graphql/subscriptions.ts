import { GraphQLError, type ValidationRule } from "graphql";

/**
 * The service runs queries and mutations over HTTP; its schema has no Subscription type. Plain
 * graphql-js validation lets `subscription { x }` through (with no root type there are no fields
 * to check) and only execution refuses it, with an error Apollo reported as INTERNAL: a 200 and
 * an error-level log line for a client's mistake. Refused here instead, as every other invalid
 * operation is: GRAPHQL_VALIDATION_FAILED, 400, before any resolver or statement.
 */
export const noSubscriptions: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== "subscription") return;
    context.reportError(
      new GraphQLError(
        "Subscriptions are not supported: this service runs queries and mutations over HTTP (POST /graphql).",
        { nodes: node },
      ),
    );
  },
});
