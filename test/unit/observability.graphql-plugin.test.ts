import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { GraphQLError } from "graphql";
import { DomainError } from "../../src/lib/domain-errors";
import { observabilityPlugin } from "../../src/observability/graphql";
import { beginObservation, bindGraphQLContext } from "../../src/observability/request-state";

/**
 * A RATE_LIMITED refusal made inside Apollo (the cost-based limit once the operation is parsed, a
 * field refused by the analytics queue) is noted on the request, as the error mappings note those
 * made before it: `rate_limit_rejections_total` counts both. Other errors are not.
 */
async function errorsSeen(errors: GraphQLError[]) {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  const state = beginObservation(res);
  // Apollo hands plugins a shallow copy of the context: the binding must survive one.
  const contextValue = { ...bindGraphQLContext({}, res) };
  const listener = await observabilityPlugin(undefined).requestDidStart!({ contextValue, request: {} } as never);
  await listener!.didEncounterErrors!({ errors } as never);
  return state.problemCode;
}

it("notes a cost refusal (a GraphQLError with the code) and a resolver's DomainError", async () => {
  const costRefusal = new GraphQLError("This request costs 13 rate-limit tokens", {
    extensions: { code: "RATE_LIMITED" },
  });
  expect(await errorsSeen([costRefusal])).toBe("RATE_LIMITED");
  const queueRefusal = new GraphQLError("busy", {
    originalError: new DomainError("RATE_LIMITED", "Too many computations waiting for this key."),
  });
  expect(await errorsSeen([new GraphQLError("other"), queueRefusal])).toBe("RATE_LIMITED");
});

it("notes nothing for other errors", async () => {
  const notFound = new GraphQLError("gone", { originalError: new DomainError("NOT_FOUND", "No such portfolio.") });
  expect(await errorsSeen([notFound, new GraphQLError("bad", { extensions: { code: "BAD_USER_INPUT" } })])).toBe(
    undefined,
  );
});
