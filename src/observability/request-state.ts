import type { ServerResponse } from "node:http";
import type { ErrorCode } from "../lib/domain-errors";

/**
 * What one request's metrics, log line and trace need to know about it, gathered as it runs: its
 * route template, its GraphQL operation, the error code it was answered with. Kept on the
 * response (under a symbol, gone with it), for requests that the observer middleware
 * (./requests.ts) saw; every note is a no-op for any other.
 */
export interface RequestObservation {
  /** process.hrtime.bigint() when the observer first saw the request. */
  readonly startedAt: bigint;
  /**
   * The route template (`/v1/portfolios/:portfolioId`), `unmatched`: noted by the REST guard when it
   * matched the path, else worked out from the path once the response is done.
   */
  route?: string;
  /** GraphQL: the operation's name as the metrics label it (./graphql.ts). */
  operationName?: string;
  operationType?: string;
  /** The stable code of the error the response carries (problem+json, or a GraphQL error). */
  problemCode?: ErrorCode;
  /** When tracing: the request's trace id, and the span of its GraphQL operation. */
  traceId?: string;
  graphqlSpan?: OperationSpan;
  /** Milliseconds from the observer's first sight to the end of the response. */
  ms?: number;
  /** The response's status once it ended (499: the client left before it was sent). */
  status?: number;
}

/** The span of a GraphQL operation, named once the operation is parsed (./graphql.ts). */
export interface OperationSpan {
  describe(name: string, type: string): void;
  fail(): void;
  end(): void;
}

/** The status of a request whose client left before its response was sent (nginx's, and CLIENT_CLOSED's). */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Kept on the response under a symbol of this module's own: a WeakMap entry per request, dropped
 * a moment later, was garbage-collection work every request paid.
 */
const OBSERVATION = Symbol("request observation");
type Observed = ServerResponse & { [OBSERVATION]?: RequestObservation };
const observationIn = (res: ServerResponse) => (res as Observed)[OBSERVATION];

export function beginObservation(res: ServerResponse): RequestObservation {
  const state: RequestObservation = { startedAt: process.hrtime.bigint() };
  (res as Observed)[OBSERVATION] = state;
  return state;
}

export function observationOf(res: ServerResponse | undefined): RequestObservation | undefined {
  return res ? observationIn(res) : undefined;
}

/**
 * Notes the code of the error a response answers with (the error mappings call it): the metrics
 * count RATE_LIMITED answers from it (`rate_limit_rejections_total`), whoever refused.
 */
export function noteProblem(res: ServerResponse, code: ErrorCode): void {
  const state = observationIn(res);
  if (state && !state.problemCode) state.problemCode = code;
}

/**
 * Notes the route template a REST request was matched to (http/rest-routes.ts matches each path
 * once): the observer labels the request with it instead of matching the path again.
 */
export function noteRoute(res: ServerResponse, template: string): void {
  const state = observationIn(res);
  if (state) state.route = template;
}

/**
 * The response a GraphQL context was built for, so that Apollo's plugins can reach it: an own
 * enumerable property, since Apollo hands plugins a shallow copy of the context.
 */
const RESPONSE = Symbol("observed response");

export function bindGraphQLContext<T extends object>(ctx: T, res: ServerResponse): T {
  return observationIn(res) ? Object.assign(ctx, { [RESPONSE]: res }) : ctx;
}

export function responseOfContext(ctx: object | undefined): ServerResponse | undefined {
  return (ctx as { [RESPONSE]?: ServerResponse } | undefined)?.[RESPONSE];
}
